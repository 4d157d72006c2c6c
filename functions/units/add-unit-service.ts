/**
 * An account admin adds another tracker from the inventory (spec section 2 /administration/add-terminal),
 * checked as registration checks an IMEI: the format in the body's schema, then in the inventory and
 * not registered (cheap reads first, for the common mistakes), then the transaction, which decides
 * races. The unit is granted to the chosen ordinary users: their `unitImeis` and the unit's `viewers`
 * (so ingest publishes it on their live topics) in the same transaction.
 */
import { addUnitMessageKeys as keys, type AddedUnit, type GrantableUsers } from '../../shared/schemas/add-unit';
import type { AuthContext } from '../platform/auth-context';
import { ValidationError, type FieldErrors } from '../platform/errors';
import type { Ports } from '../platform/ports';
import type { UnitRecord } from '../domain/unit/schema';
import { getInventoryItem, imeiProblemOf } from '../registration/registration-repository';
import { accountUsers, writeAddedUnit } from './add-unit-repository';

type Caller = Pick<AuthContext, 'accountId' | 'lang'>;

export interface AddUnitInput {
  imei: string;
  name: string;
  vehicleType: string;
  userIds: string[];
}

export async function grantableUsers(caller: Caller): Promise<GrantableUsers> {
  const collator = new Intl.Collator(caller.lang === 'no' ? 'nb' : caller.lang, { sensitivity: 'base' });
  const users = (await accountUsers(caller.accountId))
    .filter((u) => !u.isAdmin)
    .map((u) => ({ id: u.userId, firstName: u.firstName ?? '', lastName: u.lastName ?? '', email: u.email ?? '' }))
    .sort((a, b) => collator.compare(`${a.firstName} ${a.lastName}`, `${b.firstName} ${b.lastName}`) || a.id.localeCompare(b.id));
  return { users };
}

export async function addUnit(caller: Caller, input: AddUnitInput, ports: Pick<Ports, 'clock'>): Promise<AddedUnit> {
  const [item, users] = await Promise.all([getInventoryItem(input.imei), input.userIds.length ? accountUsers(caller.accountId) : Promise.resolve([])]);
  const errors: FieldErrors = {};
  const imeiProblem = imeiProblemOf(item);
  if (imeiProblem) errors['imei'] = [imeiProblem];
  const ordinary = new Set(users.filter((u) => !u.isAdmin).map((u) => u.userId));
  if (input.userIds.some((id) => !ordinary.has(id))) errors['userIds'] = [keys.GrantUserNotFound];
  if (!item || Object.keys(errors).length) throw new ValidationError(errors);

  const unit: UnitRecord & { viewers?: Set<string> } = {
    imei: input.imei,
    accountId: caller.accountId,
    name: input.name,
    vehicleType: input.vehicleType,
    protocol: item.protocol ?? 'native',
    createdAt: ports.clock.now().toISOString(),
    ...(input.userIds.length ? { viewers: new Set(input.userIds) } : {}),
  };
  await writeAddedUnit(unit, input.userIds);
  return { imei: unit.imei, name: unit.name, vehicleType: unit.vehicleType, userIds: [...input.userIds] };
}
