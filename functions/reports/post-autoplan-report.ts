import { routes } from '../../shared/routes';
import { autoplanMessageKeys as keys, autoplanRefusal } from '../../shared/schemas/autoplan';
import { ValidationError } from '../platform/errors';
import { HttpReply, httpHandler } from '../platform/http';
import { unitFor } from '../trips/access';
import { accountZone, reportMonth } from './autoplan-service';

export const handler = httpHandler(routes.postAutoplanReport, async ({ auth, body, ports }) => {
  // A unit the caller may not see is 404 whatever the day.
  const unit = await unitFor(auth, body.imei);
  const refusal = autoplanRefusal(body.month, ports.clock.now().getTime(), await accountZone(auth.accountId));
  if (refusal) throw new ValidationError({ month: [refusal] }, refusal);
  return new HttpReply(200, await reportMonth(unit, body.month, auth.userId, ports), keys.AutoplanReported);
});
