import { routes } from '../../../shared/routes';
import { created, httpHandler } from '../../platform/http';
import { reserveUpload } from './image-service';

export const handler = httpHandler(routes.createUnitImageUpload, async ({ auth, params, body, ports }) => created(await reserveUpload(auth, params.imei, body, ports)));
