import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { savePlace } from './place-service';

export const handler = httpHandler(routes.updatePlace, async ({ auth, params, body, timeZone, ports }) => {
  await savePlace(auth, params.id, body, timeZone, ports.clock.now().getTime());
  return null;
});
