import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { updateCard } from './rfid-service';

export const handler = httpHandler(routes.updateRfidCard, async ({ auth, params, body, ports }) => updateCard(auth, params.cardId, body, ports.clock.now()));
