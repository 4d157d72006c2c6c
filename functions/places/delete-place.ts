import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { deletePlace } from './place-service';

export const handler = httpHandler(routes.deletePlace, async ({ auth, params }) => {
  await deletePlace(auth, params.id);
  return null;
});
