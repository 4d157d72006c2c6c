import { routes } from '../../../shared/routes';
import { httpHandler } from '../../platform/http';
import { listImages } from './image-service';

export const handler = httpHandler(routes.getUnitImages, async ({ auth, params, ports }) => listImages(auth, params.imei, ports));
