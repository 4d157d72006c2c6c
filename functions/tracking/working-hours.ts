/**
 * Spec section 6: admins without access to a unit (it is locked against them, functions/units/
 * lock-rules.ts) see it on the map only during the account's working hours, when the account
 * enables them (the administration settings, functions/administration/settings-repository.ts).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuthContext } from '../platform/auth-context';
import { dynamo, tableName } from '../platform/db';
import { parseAccountFields, type AccountItem } from '../domain/account/schema';
import { inWeeklyWindows } from '../schedules/weekly-windows';

export type WorkingHours = NonNullable<AccountItem['workingHours']>;

/** Whether an admin may see units locked against them at `nowMs`: working hours on, and now within them in their zone. */
export function lockedUnitsVisibleTo(caller: Pick<AuthContext, 'isAdmin'>, hours: WorkingHours | undefined, nowMs: number): boolean {
  if (!caller.isAdmin || !hours?.enabled || !hours.days?.length) return false;
  return inWeeklyWindows(nowMs, hours.timeZone || 'Europe/Stockholm', [{ days: hours.days, from: hours.from, to: hours.to }]);
}

export async function accountWorkingHours(accountId: string): Promise<WorkingHours | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: tableName('accounts'), Key: { accountId }, ProjectionExpression: 'workingHours' }));
  return out.Item ? parseAccountFields(out.Item, ['workingHours']).workingHours : undefined;
}
