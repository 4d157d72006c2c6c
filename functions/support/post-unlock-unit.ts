import { routes } from '../../shared/routes';
import { httpHandler } from '../platform/http';
import { getUnitItem } from '../domain/unit/reads';
import { unlockUnit } from '../units/lock-service';
import { findAccount } from './account-search';
import { logSupportAction } from './support-log';

/** Support unlocks a unit of any account through the lock service (its rules, its log, the e-mail to the locker). */
export const handler = httpHandler(routes.supportUnlockUnit, async ({ auth, params, ports, timeZone }) => {
  const lock = await unlockUnit(auth, params.imei, ports, timeZone);
  const unit = await getUnitItem(params.imei);
  const account = unit ? await findAccount(unit.accountId) : null;
  await logSupportAction(
    auth,
    { action: 'unlockUnit', account: account ? { accountId: account.accountId, name: account.name } : null, details: unit ? `${unit.name} (${unit.imei})` : params.imei },
    ports.clock.now(),
  );
  return lock;
});
