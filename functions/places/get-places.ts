import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listPlaces } from './place-service';

export const handler = httpHandler(routes.getPlaces, async ({ auth }) => ({ places: await listPlaces(auth) }));
