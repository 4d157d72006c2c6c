/**
 * Departments, tags, projects and feature profiles as the administration routes use them: lists
 * with their assignments, assignment of departments and tags to units and users, feature profiles
 * given to users (docs/decisions/0026-organisation-profiles-support.md).
 */
import { isAssignableKind, type FeatureProfile, type OrganisationAssignment, type OrganisationItem, type OrganisationKind } from '../../shared/schemas/organisation';
import { organisationMessageKeys as keys } from '../../shared/schemas/organisation-messages';
import { NotFoundError, ValidationError } from '../platform/errors';
import { listAccountUnitsFromNameIndex } from '../domain/unit/reads';
import { UNIT_MEMBERSHIP, type UnitMembership } from '../domain/unit/schema';
import { setUnitOrganisationItem } from '../domain/unit/writes';
import { listItems } from './organisation-items';
import { deleteItem, getItem, listAccountUsers, setUserFeatureProfile, setUserOrganisationItem, type AccountUser } from './organisation-repository';
import { deleteProfile, getProfiles } from './profile-repository';

const unitIdsOf = (unit: UnitMembership, kind: 'departments' | 'tags'): readonly string[] => (kind === 'departments' ? unit.departmentIds : unit.tagIds) ?? [];
const userIdsOf = (user: AccountUser, kind: 'departments' | 'tags'): readonly string[] => (kind === 'departments' ? user.departmentIds : user.tagIds);

const byName = <T extends { name: string }>(lang: string) => (a: T, b: T) => a.name.localeCompare(b.name, lang);

export async function organisationList(accountId: string, kind: OrganisationKind, lang: string): Promise<OrganisationItem[]> {
  const [items, units, users] = await Promise.all([
    listItems(accountId, kind),
    isAssignableKind(kind) ? listAccountUnitsFromNameIndex(accountId, UNIT_MEMBERSHIP) : Promise.resolve([]),
    isAssignableKind(kind) ? listAccountUsers(accountId) : Promise.resolve([]),
  ]);
  return items
    .map((item): OrganisationItem => ({
      id: item.id,
      name: item.name,
      imeis: isAssignableKind(kind) ? units.filter((u) => unitIdsOf(u, kind).includes(item.id)).map((u) => u.imei) : [],
      userIds: isAssignableKind(kind) ? users.filter((u) => userIdsOf(u, kind).includes(item.id)).map((u) => u.userId) : [],
      createdAt: item.createdAt,
    }))
    .sort(byName(lang));
}

/** Sets exactly which units and users carry a department or tag: only the ones that change are written. */
export async function assignItem(accountId: string, kind: OrganisationKind, id: string, assignment: Required<OrganisationAssignment>): Promise<void> {
  if (!isAssignableKind(kind)) throw new NotFoundError();
  await getItem(accountId, kind, id);
  const [units, users] = await Promise.all([listAccountUnitsFromNameIndex(accountId, UNIT_MEMBERSHIP), listAccountUsers(accountId)]);
  const wantedUnits = new Set(assignment.imeis);
  const wantedUsers = new Set(assignment.userIds);
  const errors: Record<string, string[]> = {};
  const unitImeis = new Set(units.map((u) => u.imei));
  const userIds = new Set(users.map((u) => u.userId));
  if ([...wantedUnits].some((imei) => !unitImeis.has(imei))) errors['imeis'] = [keys.OrganisationUnitNotFound];
  if ([...wantedUsers].some((userId) => !userIds.has(userId))) errors['userIds'] = [keys.OrganisationUserNotFound];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const writes: Promise<unknown>[] = [];
  for (const unit of units) {
    const carries = unitIdsOf(unit, kind).includes(id);
    if (carries !== wantedUnits.has(unit.imei)) writes.push(setUnitOrganisationItem(unit.imei, accountId, kind, id, !carries));
  }
  for (const user of users) {
    const carries = userIdsOf(user, kind).includes(id);
    if (carries !== wantedUsers.has(user.userId)) writes.push(setUserOrganisationItem(user.userId, accountId, kind, id, !carries));
  }
  await settleAll(writes);
}

/** Waits for every write (each a small single-item update), then throws the first failure. */
async function settleAll(writes: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(writes);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Deletes the item, then takes it off its units and users (names are resolved when read, so a leftover id shows nothing). */
export async function removeItem(accountId: string, kind: OrganisationKind, id: string): Promise<void> {
  await deleteItem(accountId, kind, id);
  if (!isAssignableKind(kind)) return;
  const [units, users] = await Promise.all([listAccountUnitsFromNameIndex(accountId, UNIT_MEMBERSHIP), listAccountUsers(accountId)]);
  await settleAll([
    ...units.filter((u) => unitIdsOf(u, kind).includes(id)).map((u) => setUnitOrganisationItem(u.imei, accountId, kind, id, false)),
    ...users.filter((u) => userIdsOf(u, kind).includes(id)).map((u) => setUserOrganisationItem(u.userId, accountId, kind, id, false)),
  ]);
}

export async function profileList(accountId: string, lang: string): Promise<FeatureProfile[]> {
  const [profiles, users] = await Promise.all([getProfiles(accountId), listAccountUsers(accountId)]);
  return [...profiles]
    .map(([id, p]): FeatureProfile => ({ id, ...p, userIds: users.filter((u) => u.featureProfileId === id).map((u) => u.userId) }))
    .sort(byName(lang));
}

/** Exactly these users of the account have the profile: listed ones get it (leaving another), the others that had it lose it. */
export async function setProfileUsers(accountId: string, id: string, userIds: readonly string[]): Promise<void> {
  if (!(await getProfiles(accountId)).has(id)) throw new NotFoundError();
  const users = await listAccountUsers(accountId);
  const known = new Set(users.map((u) => u.userId));
  if (userIds.some((u) => !known.has(u))) throw new ValidationError({ userIds: [keys.OrganisationUserNotFound] });
  const wanted = new Set(userIds);
  await settleAll(
    users.flatMap((u) => {
      if (wanted.has(u.userId) && u.featureProfileId !== id) return [setUserFeatureProfile(u.userId, accountId, id)];
      if (!wanted.has(u.userId) && u.featureProfileId === id) return [setUserFeatureProfile(u.userId, accountId, null, id)];
      return [];
    }),
  );
}

/** Deletes a profile; its users are no longer limited (a missing profile limits no one), and lose its id. */
export async function removeProfile(accountId: string, id: string): Promise<void> {
  await deleteProfile(accountId, id);
  const users = await listAccountUsers(accountId);
  await settleAll(users.filter((u) => u.featureProfileId === id).map((u) => setUserFeatureProfile(u.userId, accountId, null, id)));
}
