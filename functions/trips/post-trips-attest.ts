import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { unitFor } from './access';
import { toAttestation } from './attestation-repository';
import { attestPeriod } from './attestation-service';
import { accountUser, fullName } from './people';

export const handler = httpHandler(routes.attestTrips, async ({ auth, body, timeZone, ports }) => {
  const unit = await unitFor(auth, body.imei);
  const item = await attestPeriod(auth, unit, body, timeZone, ports.clock.now().getTime());
  const me = await accountUser(auth.accountId, auth.userId);
  return toAttestation(item, me ? fullName(me) : null, timeZone);
});
