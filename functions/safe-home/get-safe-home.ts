import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listSafeHomes } from './service';

export const handler = httpHandler(routes.getSafeHome, async ({ auth }) => listSafeHomes(auth));
