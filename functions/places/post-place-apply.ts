import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { applyPlace } from './place-service';

export const handler = httpHandler(routes.applyPlace, ({ auth, params, body, timeZone, ports }) =>
  applyPlace(auth, params.id, body, timeZone, ports.clock.now().getTime(), ports),
);
