import { routes } from '../../../shared/routes';
import { httpHandler } from '../../platform/http';
import { deleteImage } from './image-service';

export const handler = httpHandler(routes.deleteUnitImage, async ({ auth, params, ports }) => {
  await deleteImage(auth, params.imei, params.id, ports);
  return null;
});
