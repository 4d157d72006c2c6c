import { routes } from '../../shared/routes';
import type { SupportUnit } from '../../shared/schemas/support';
import { httpHandler } from '../platform/http';
import { listAccountUnits } from '../domain/unit/reads';
import { getSupportAccount, toSupportAccount } from './account-search';
import { logSupportAction } from './support-log';

export const handler = httpHandler(routes.getSupportAccountUnits, async ({ auth, params, ports }) => {
  // Read consistently: the panel shows what support just changed.
  const account = await getSupportAccount(params.accountId, { consistent: true });
  const units = (await listAccountUnits(account.accountId))
    .map((u): SupportUnit => ({
      imei: u.imei,
      name: u.name,
      registrationNumber: u.registrationNumber ?? null,
      vehicleType: u.vehicleType,
      lockedByName: u.lockedBy === undefined ? null : (u.lockedByName ?? ''),
      lockedAt: u.lockedBy === undefined ? null : (u.lockedAt ?? null),
      subscriptionType: u.subscriptionType ?? null,
      reportFrequencyChange: u.reportFrequencyChange ?? 'allowed',
    }))
    .sort((a, b) => a.name.localeCompare(b.name, auth.lang) || a.imei.localeCompare(b.imei));
  await logSupportAction(auth, { action: 'viewAccount', account, details: `${units.length} units` }, ports.clock.now());
  return {
    account: toSupportAccount(account),
    settings: { basicOnly: account.features?.basicOnly === true, smsCredits: typeof account.smsCredits === 'number' ? account.smsCredits : 0 },
    units,
  };
});
