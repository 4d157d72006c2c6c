import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { removeCard } from './rfid-service';

export const handler = httpHandler(routes.deleteRfidCard, async ({ auth, params, ports }) => {
  await removeCard(auth, params.cardId, ports);
  return null;
});
