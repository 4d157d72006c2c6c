import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { getPlace } from './place-service';

export const handler = httpHandler(routes.getPlace, ({ auth, params }) => getPlace(auth, params.id));
