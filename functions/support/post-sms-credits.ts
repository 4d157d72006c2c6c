import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { addSmsCredits } from './support-settings';

export const handler = httpHandler(routes.addSupportSmsCredits, async ({ auth, params, body, ports }) => ({
  SmsCredits: await addSmsCredits(auth, params.accountId, body.add, body.note, ports.clock.now()),
}));
