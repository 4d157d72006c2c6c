/**
 * Adding a tracker from the inventory to an existing account: one transaction of the IMEI claim,
 * the inventory item (still unregistered), the new unit item (with its viewers) and each granted
 * user's `unitImeis` (still an ordinary user of the account). The conditions are registration's
 * (functions/registration/registration-repository.ts), so of two admins adding one IMEI at once,
 * or an admin and a registration, exactly one commits.
 */
import { addUnitMessageKeys as keys } from '../../shared/schemas/add-unit';
import { tableName } from '../platform/db';
import type { UnitRecord } from '../domain/unit/schema';
import { newUnitItemPut } from '../domain/unit/writes';
import { imeiClaimItems, transactWithFieldErrors, type ConditionedItem } from '../registration/registration-repository';
import { accountUsers, type Person } from '../trips/people';

/** The account's users as adding a unit reads them (whom it may be granted to). */
export type AccountUser = Person;
export { accountUsers };

/** Writes the unit and its grants; a failed condition becomes the 422 of the field it concerns. */
export async function writeAddedUnit(unit: UnitRecord & { viewers?: Set<string> }, userIds: readonly string[]): Promise<void> {
  const items: ConditionedItem[] = [
    ...imeiClaimItems(unit.imei, unit.accountId, unit.createdAt, 'imei'),
    { item: newUnitItemPut(unit), errors: { imei: ['ImeiAlreadyRegistered'] } },
    ...userIds.map((userId) => ({
      item: {
        Update: {
          TableName: tableName('users'),
          Key: { userId },
          // A list, as registration and the seed write it; the new IMEI cannot be in it yet (it was unregistered).
          UpdateExpression: 'SET unitImeis = list_append(if_not_exists(unitImeis, :empty), :imei)',
          ConditionExpression: 'accountId = :account AND isAdmin = :no',
          ExpressionAttributeValues: { ':empty': [], ':imei': [unit.imei], ':account': unit.accountId, ':no': false },
        },
      },
      errors: { userIds: [keys.GrantUserNotFound] },
    })),
  ];

  await transactWithFieldErrors(items, unit.imei, 'imei');
}
