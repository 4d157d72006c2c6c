import { routes } from '../../shared/routes';
import { created, httpHandler } from '../platform/http';
import { registerAccount } from './registration-service';

export const handler = httpHandler(routes.registerAccount, async ({ body, ports }) =>
  created(await registerAccount(body, ports), 'YouCanNowLogin'),
);
