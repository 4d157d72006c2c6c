import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { unpair } from './rfid-service';

export const handler = httpHandler(routes.unpairRfidCard, async ({ auth, params, ports }) => unpair(auth, params.cardId, ports));
