import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { pairCard } from './rfid-service';

export const handler = httpHandler(routes.pairRfidCard, async ({ auth, params, body, ports }) => pairCard(auth, params.cardId, body, ports));
