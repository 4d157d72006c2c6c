/**
 * Departments, tags, projects and feature profiles end to end on the embedded runtime: names unique
 * per account and kind ignoring case and whitespace, also when creates race (exactly one wins, the
 * others get the kind's key); rename and delete; assignment to units and users, shown by name in
 * GET /user/units and staying right after a rename; the trip log's project names; a feature
 * profile limits an ordinary user's routes (403 FeatureNotInProfile) and GET /user/settings, never
 * an admin's; another account's token gets 404 and sees nothing; a non-admin gets 403.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeatureProfileList, OrganisationList, OrganisationMember } from '../../shared/schemas/organisation';
import type { Settings } from '../../shared/schemas/system';
import type { UnitListItem } from '../../shared/schemas/units';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { callAs, demoCallers, type Caller, type Reply } from '../support/api-caller';
import { startRuntime } from '../support/runtime';

const ORG = '/api/v1/administration/organisation';
const PROFILES = '/api/v1/administration/feature-profiles';
let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const create = (kind: string, name: string, who: Caller = admin) => call<{ id: string }>('POST', `${ORG}/${kind}`, who, { name });
const list = async (kind: string, who: Caller = admin) => {
  const r = await call<OrganisationList>('GET', `${ORG}/${kind}`, who);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data?.items ?? [];
};
const idOf = (r: Reply<{ id: string }>): string => {
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data?.id ?? '';
};
const units = async (who: Caller) => (await call<UnitListItem[]>('GET', '/api/v1/user/units', who)).body.data ?? [];

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
});
afterAll(async () => {
  await rt?.stop();
});

describe('departments, tags and projects', () => {
  it('keeps names unique per account and kind, ignoring case and whitespace, with the kind\'s key', async () => {
    idOf(await create('departments', 'North  Region'));
    for (const [kind, key] of [['departments', 'DuplicateDepartmentName'], ['tags', 'DuplicateTagName'], ['projects', 'DuplicateProjectName']] as const) {
      if (kind !== 'departments') idOf(await create(kind, 'North Region'));
      const again = await create(kind, '  north   REGION ');
      expect(again.status).toBe(422);
      expect(again.body).toMatchObject({ success: false, errors: { name: [key] } });
    }
    // Another account may use the name, and sees none of ours.
    idOf(await create('departments', 'North Region', other));
    expect((await list('departments', other)).map((d) => d.name)).toEqual(['North Region']);
    expect((await create('tags', '   ')).body.errors).toEqual({ name: ['OrganisationNameRequired'] });
    expect((await create('tags', 'x'.repeat(51))).body.errors).toEqual({ name: ['OrganisationNameTooLong'] });
  });

  it('lets exactly one of concurrent creates of one name win', async () => {
    const replies = await Promise.all(['Racing', 'racing', ' RACING ', 'Racing', 'racing  '].map((name) => create('tags', name)));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of replies.filter((x) => x.status !== 201)) expect(r.body).toMatchObject({ success: false, errors: { name: ['DuplicateTagName'] } });
    expect((await list('tags')).filter((t) => t.name.toLowerCase() === 'racing')).toHaveLength(1);
    // Two renames to one name: one wins too.
    const [a, b] = [idOf(await create('tags', 'Rename A')), idOf(await create('tags', 'Rename B'))];
    const renames = await Promise.all([a, b].map((id) => call('PUT', `${ORG}/tags/${id}`, admin, { name: 'Renamed both' })));
    expect(renames.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it('assigns departments and tags to units and users, shown by name in the units list, right after a rename', async () => {
    const dept = idOf(await create('departments', 'Service'));
    const tag = idOf(await create('tags', 'Crane'));
    const members = (await call<{ users: OrganisationMember[] }>('GET', '/api/v1/administration/organisation-members', admin)).body.data?.users ?? [];
    expect(members.map((m) => m.id).sort()).toEqual([admin.userId, user.userId].sort());

    expect((await call('PUT', `${ORG}/departments/${dept}/assignments`, admin, { imeis: [], userIds: [] })).body.errors).toEqual({ imeis: ['SelectAtLeastOneUnitOrUser'] });
    expect((await call('PUT', `${ORG}/departments/${dept}/assignments`, admin, { imeis: [demoImei(0), demoImei(900)] })).body.errors).toEqual({ imeis: ['OrganisationUnitNotFound'] });
    expect((await call('PUT', `${ORG}/departments/${dept}/assignments`, admin, { imeis: [demoImei(0)], userIds: [other.userId] })).body.errors).toEqual({ userIds: ['OrganisationUserNotFound'] });

    expect((await call('PUT', `${ORG}/departments/${dept}/assignments`, admin, { imeis: [demoImei(0), demoImei(1)], userIds: [user.userId] })).status).toBe(200);
    expect((await call('PUT', `${ORG}/tags/${tag}/assignments`, admin, { imeis: [demoImei(1)] })).status).toBe(200);
    const service = (await list('departments')).find((d) => d.id === dept);
    expect(service).toMatchObject({ imeis: [demoImei(0), demoImei(1)].sort(), userIds: [user.userId] });

    // The ordinary user sees the names on the units granted to them.
    const seen = await units(user);
    expect(seen.find((u) => u.imei === demoImei(0))).toMatchObject({ departments: ['Service'], tags: [] });
    expect(seen.find((u) => u.imei === demoImei(1))).toMatchObject({ departments: ['Service'], tags: ['Crane'] });

    expect((await call('PUT', `${ORG}/departments/${dept}`, admin, { name: 'Field service' })).status).toBe(200);
    expect((await units(admin)).find((u) => u.imei === demoImei(0))?.departments).toEqual(['Field service']);
    // The old name is free again; the new one is taken.
    idOf(await create('departments', 'service'));
    expect((await create('departments', 'FIELD SERVICE')).body.errors).toEqual({ name: ['DuplicateDepartmentName'] });

    // Narrowing the assignment takes it off the others.
    expect((await call('PUT', `${ORG}/departments/${dept}/assignments`, admin, { imeis: [demoImei(1)] })).status).toBe(200);
    const after = await units(admin);
    expect(after.find((u) => u.imei === demoImei(0))?.departments).toEqual([]);
    expect((await list('departments')).find((d) => d.id === dept)).toMatchObject({ imeis: [demoImei(1)], userIds: [] });

    // Deleting takes it off everything and frees its name.
    expect((await call('DELETE', `${ORG}/tags/${tag}`, admin)).status).toBe(200);
    expect((await units(admin)).find((u) => u.imei === demoImei(1))?.tags).toEqual([]);
    idOf(await create('tags', 'Crane'));
    expect((await call('DELETE', `${ORG}/tags/${tag}`, admin)).status).toBe(404);
  });

  it('offers the account\'s projects to the trip log', async () => {
    idOf(await create('projects', 'Bridge repair'));
    const names = (await call<{ projects: string[] }>('GET', '/api/v1/user/projects', user)).body.data?.projects ?? [];
    expect(names).toEqual(expect.arrayContaining(['Bridge repair', 'North Region']));
    expect((await call<{ projects: string[] }>('GET', '/api/v1/user/projects', other)).body.data?.projects).toEqual([]);
    // Projects are chosen per trip, not assigned.
    const project = (await list('projects')).find((p) => p.name === 'Bridge repair');
    expect((await call('PUT', `${ORG}/projects/${project?.id}/assignments`, admin, { imeis: [demoImei(0)] })).status).toBe(404);
  });

  it('answers another account 404 and an ordinary user 403', async () => {
    const dept = idOf(await create('departments', 'Private to demo'));
    for (const [method, path, body] of [
      ['PUT', `${ORG}/departments/${dept}`, { name: 'Taken over' }],
      ['DELETE', `${ORG}/departments/${dept}`, undefined],
      ['PUT', `${ORG}/departments/${dept}/assignments`, { imeis: [demoImei(0)] }],
    ] as const) {
      expect((await call(method, path, other, body)).status).toBe(404);
      const refused = await call(method, path, user, body);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('NoAccessToAdministratorPages');
    }
    expect((await list('departments', other)).map((d) => d.name)).not.toContain('Private to demo');
    expect((await call('GET', `${ORG}/departments`, user)).status).toBe(403);
    expect((await call('GET', PROFILES, user)).status).toBe(403);
  });
});

describe('feature profiles', () => {
  it('limits an ordinary user to its features, tells the web which, and never limits an admin', async () => {
    expect((await call('POST', PROFILES, admin, { name: 'Drivers', features: [] })).body.errors).toEqual({ features: ['SelectAtLeastOneFeature'] });
    const id = idOf(await call<{ id: string }>('POST', PROFILES, admin, { name: 'Drivers', features: ['tripLog'], reports: ['tripLog', 'summary'] }));
    expect((await call('POST', PROFILES, admin, { name: ' drivers ', features: ['places'] })).body.errors).toEqual({ name: ['DuplicateFeatureProfileName'] });
    expect((await call('PUT', `${PROFILES}/${id}/users`, admin, { userIds: [user.userId, admin.userId] })).status).toBe(200);

    const profiles = (await call<FeatureProfileList>('GET', PROFILES, admin)).body.data?.profiles ?? [];
    expect(profiles).toEqual([expect.objectContaining({ id, name: 'Drivers', features: ['tripLog'], reports: ['tripLog', 'summary'], userIds: expect.arrayContaining([user.userId, admin.userId]) })]);

    const refused = await call('GET', '/api/v1/user/realtime/units', user);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, message: 'FeatureNotInProfile', errors: 'FeatureNotInProfile' });
    expect((await call('GET', '/api/v1/user/geofences', user)).status).toBe(403);
    const today = new Date().toISOString().slice(0, 10);
    expect((await call('GET', `/api/v1/user/trips?imei=${demoImei(0)}&from=${today}&to=${today}`, user)).status).toBe(200);
    // What is not a profile feature stays open (the units list).
    expect((await call('GET', '/api/v1/user/units', user)).status).toBe(200);
    const settings = (await call<Settings>('GET', '/api/v1/user/settings', user)).body.data;
    expect(settings).toMatchObject({ profile_features: ['tripLog'], profile_reports: ['tripLog', 'summary'] });

    // The admin has the profile too, and is not limited.
    expect((await call('GET', '/api/v1/user/realtime/units', admin)).status).toBe(200);
    expect((await call<Settings>('GET', '/api/v1/user/settings', admin)).body.data).toMatchObject({ profile_features: null, profile_reports: null });

    // A changed profile counts on the next request.
    expect((await call('PUT', `${PROFILES}/${id}`, admin, { name: 'Drivers', features: ['tripLog', 'realtimeMap'], reports: [] })).status).toBe(200);
    expect((await call('GET', '/api/v1/user/realtime/units', user)).status).toBe(200);

    // Another account's token: 404 and nothing listed.
    expect((await call('PUT', `${PROFILES}/${id}`, other, { name: 'Mine', features: ['places'] })).status).toBe(404);
    expect((await call('PUT', `${PROFILES}/${id}/users`, other, { userIds: [] })).status).toBe(404);
    expect((await call('DELETE', `${PROFILES}/${id}`, other)).status).toBe(404);
    expect((await call<FeatureProfileList>('GET', PROFILES, other)).body.data?.profiles).toEqual([]);
    expect((await call('PUT', `${PROFILES}/${id}/users`, admin, { userIds: [other.userId] })).body.errors).toEqual({ userIds: ['OrganisationUserNotFound'] });

    // Deleting the profile frees its users.
    expect((await call('DELETE', `${PROFILES}/${id}`, admin)).status).toBe(200);
    expect((await call('GET', '/api/v1/user/geofences', user)).status).toBe(200);
    expect((await call<Settings>('GET', '/api/v1/user/settings', user)).body.data?.profile_features).toBeNull();
  });
});
