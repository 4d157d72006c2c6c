import { routes } from '../../shared/routes';
import { ValidationError } from '../platform/errors';
import { httpHandler } from '../platform/http';
import { clientKey, consumeRateLimit } from '../platform/rate-limit';
import { isEmailClaimed } from './registration-repository';

/** Lookups per client IP and window: plenty for a person in the wizard, too few to harvest addresses. */
export const VALIDATE_EMAIL_LIMIT = 20;
export const VALIDATE_EMAIL_WINDOW_SECONDS = 600;

export const handler = httpHandler(routes.validateEmail, async ({ query, event, ports }) => {
  await consumeRateLimit(`validate-email#${clientKey(event)}`, VALIDATE_EMAIL_LIMIT, VALIDATE_EMAIL_WINDOW_SECONDS, ports.clock.now());
  if (await isEmailClaimed(query.email)) throw new ValidationError({ email: ['EmailAlreadyInUse'] });
  return null;
});
