import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { listCards } from './rfid-service';

export const handler = httpHandler(routes.getRfidCards, async ({ auth }) => listCards(auth, auth.lang));
