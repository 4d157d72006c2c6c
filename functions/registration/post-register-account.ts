import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { countRegistration } from './limits';
import { registerAccount } from './registration-service';

export const handler = httpHandler(routes.registerAccount, async ({ body, event, ports }) => {
  await countRegistration(event, ports.clock.now());
  return created(await registerAccount(body, ports), 'YouCanNowLogin');
});
