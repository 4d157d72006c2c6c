import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { savePlace } from './place-service';

export const handler = httpHandler(routes.createPlace, async ({ auth, body, timeZone, ports }) =>
  created({ id: await savePlace(auth, null, body, timeZone, ports.clock.now().getTime()) }),
);
