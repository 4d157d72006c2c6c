import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { addCard } from './rfid-service';

export const handler = httpHandler(routes.addRfidCard, async ({ auth, body, ports }) => created({ cardId: await addCard(auth, body, ports.clock.now()) }));
