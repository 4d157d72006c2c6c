import { routes } from '../../../shared/routes';
import { httpHandler } from '../../platform/http';
import { confirmUpload } from './image-service';

export const handler = httpHandler(routes.confirmUnitImage, async ({ auth, params, ports }) => confirmUpload(auth, params.imei, params.id, ports));
