/**
 * The support role end to end on the embedded runtime: the seeded support user finds a customer
 * account by company name prefix, org number, a user's e-mail and a unit's IMEI (a company that
 * registered through the real registration route, so its search keys are the ones registration
 * writes); sees its units with their lock state; unlocks another account's locked unit (the
 * locker gets the unlock e-mail); sets an announcement that POST /announcement then answers for
 * that brand and language only; and every action is in the support log. An ordinary user and an
 * admin get 403 on every support route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeList } from '../../shared/routes';
import type { OutboxMessage } from '../../shared/schemas/system';
import type { SupportAccount, SupportAccountUnits, SupportAnnouncement, SupportLogEntry } from '../../shared/schemas/support';
import type { UnitLock } from '../../shared/schemas/unit-lock';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoImei, demoSupportUser, demoUsers } from '../../infra/local/seed';
import { callAs, callerFor, demoCallers, type Caller, type Reply } from '../support/api-caller';
import { apiFetch } from '../support/http';
import { createTestUser } from '../support/sessions';
import { putAll } from '../../scripts/bench/map-fleet';
import { UNIT_LIST_WHOLE_MAX } from '../../shared/schemas/units';
import { wizardPrivate } from '../support/registration';
import { startRuntime } from '../support/runtime';

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let support: Caller;
/** The admin of another account. */
let other: Caller;

const COMPANY_IMEI = demoImei(103);
const COMPANY_EMAIL = 'owner@bergs-akeri.example';
const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const search = async (by: string, q: string) => {
  const r = await call<{ accounts: SupportAccount[] }>('GET', `/api/v1/support/accounts?by=${by}&q=${encodeURIComponent(q)}`, support);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body.data?.accounts ?? []).map((a) => a.name);
};
const log = async () => (await call<{ entries: SupportLogEntry[] }>('GET', '/api/v1/support/log', support)).body.data?.entries ?? [];

async function emailsTo(address: string): Promise<OutboxMessage[]> {
  const res = await apiFetch(`${rt.url}/api/dev/outbox?to=${encodeURIComponent(address)}&kind=email`);
  return ((await res.json()) as { data: OutboxMessage[] }).data;
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
  support = await callerFor(demoSupportUser.username, DEMO_PASSWORD);
  const registered = await apiFetch(`${rt.url}/api/v1/register-account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...wizardPrivate(COMPANY_IMEI, COMPANY_EMAIL, 'Company-pass1'), is_private_account: 0, companyName: 'Bergs  Åkeri AB', personal_org_number: '556036-0793' }),
  });
  expect(registered.status, await registered.clone().text()).toBe(201);
});
afterAll(async () => {
  await rt?.stop();
});

describe('support', () => {
  it('finds an account by company name prefix, org number, a user\'s e-mail and a unit\'s IMEI', async () => {
    expect(await search('name', 'bergs åk')).toEqual(['Bergs  Åkeri AB']);
    expect(await search('name', 'BERGS')).toEqual(['Bergs  Åkeri AB']);
    expect(await search('name', 'demo fl')).toEqual(['Demo Fleet AB']);
    expect(await search('name', 'bergsx')).toEqual([]);
    expect(await search('orgNumber', '5560360793')).toEqual(['Bergs  Åkeri AB']);
    expect(await search('orgNumber', '556036-0793')).toEqual(['Bergs  Åkeri AB']);
    expect(await search('email', COMPANY_EMAIL.toUpperCase())).toEqual(['Bergs  Åkeri AB']);
    expect(await search('email', demoUsers.user.email)).toEqual(['Demo Fleet AB']);
    expect(await search('imei', demoImei(2))).toEqual(['Demo Fleet AB']);
    expect(await search('imei', COMPANY_IMEI)).toEqual(['Bergs  Åkeri AB']);
    expect(await search('imei', demoImei(109))).toEqual([]);
    const empty = await call('GET', '/api/v1/support/accounts?by=name&q=%20', support);
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual({ q: ['SupportSearchTooShort'] });
  });

  it("pages a large account's units by name with a search, each with support's settings, where the whole list would be too large", async () => {
    const large = await createTestUser();
    const createdAt = new Date().toISOString();
    const count = UNIT_LIST_WHOLE_MAX + 1;
    // Names that sort as their numbers: 'Crane 0000' ... 'Crane 5000'.
    const items = Array.from({ length: count }, (_, i) => ({ imei: demoImei(3000 + i), accountId: large.accountId, name: `Crane ${String(i).padStart(4, '0')}`, vehicleType: 'machine', protocol: 'native', createdAt }));
    items[7] = { ...items[7]!, subscriptionType: 'Bas', reportFrequencyChange: 'denied' } as (typeof items)[number];
    await putAll('units', items);
    const path = `/api/v1/support/accounts/${large.accountId}/units`;

    const whole = await call('GET', path, support);
    expect([whole.status, whole.body.message]).toEqual([422, 'UnitListTooLarge']);

    const first = await call<SupportAccountUnits>('GET', `${path}?limit=500`, support);
    expect(first.status).toBe(200);
    expect(first.body.data?.account.accountId).toBe(large.accountId);
    expect(first.body.data?.units.map((u) => u.name)).toEqual(items.slice(0, 500).map((u) => u.name));
    expect(first.body.data?.units[7]).toMatchObject({ subscriptionType: 'Bas', reportFrequencyChange: 'denied', lockedByName: null });
    const second = await call<SupportAccountUnits>('GET', `${path}?limit=500&cursor=${encodeURIComponent(first.body.data?.nextCursor ?? '')}`, support);
    expect(second.body.data?.units.map((u) => u.name)).toEqual(items.slice(500, 1000).map((u) => u.name));

    /** Every unit a search finds, page by page. */
    const searched = async (q: string) => {
      const found: SupportAccountUnits['units'] = [];
      let cursor: string | null | undefined = null;
      do {
        const next: Reply<SupportAccountUnits> = await call<SupportAccountUnits>('GET', `${path}?q=${encodeURIComponent(q)}&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, support);
        expect(next.status).toBe(200);
        found.push(...(next.body.data?.units ?? []));
        cursor = next.body.data?.nextCursor;
      } while (cursor);
      return found;
    };
    // The names that begin with the search first, then the rest of the account read for it: every
    // word in the name or the IMEI.
    const cranes = await searched('crane 4999');
    expect(cranes[0]?.name).toBe('Crane 4999');
    for (const u of cranes) expect(`${u.name} ${u.imei}`.toLowerCase()).toMatch(/crane.*4999/);
    expect((await searched(items[2500]!.imei)).map((u) => u.name)).toEqual(['Crane 2500']);

    // Bad paging values and a cursor of another search: 422 with the keys of the units list.
    for (const query of ['limit=0', 'limit=501', 'limit=ten', `q=${'x'.repeat(101)}`]) {
      const bad = await call('GET', `${path}?${query}`, support);
      expect([bad.status, Object.values(bad.body.errors ?? {}).flat()], query).toEqual([422, ['InvalidValue']]);
    }
    const otherSearch = await call('GET', `${path}?q=crane&cursor=${encodeURIComponent(first.body.data?.nextCursor ?? '')}`, support);
    expect([otherSearch.status, Object.values(otherSearch.body.errors ?? {}).flat()]).toEqual([422, ['InvalidCursor']]);
    // Not for a customer, whatever the account.
    expect((await call('GET', `${path}?limit=5`, admin)).status).toBe(403);
  });

  it("sees another account's units with their lock state and unlocks one, e-mailing the locker", async () => {
    const imei = demoImei(0);
    expect((await call<UnitLock>('POST', `/api/v1/user/units/${imei}/lock`, user)).status).toBe(200);
    const units = await call<SupportAccountUnits>('GET', `/api/v1/support/accounts/${admin.accountId}/units`, support);
    expect(units.status).toBe(200);
    expect(units.body.data?.account).toMatchObject({ accountId: admin.accountId, name: 'Demo Fleet AB' });
    const locked = units.body.data?.units.find((u) => u.imei === imei);
    expect(locked).toMatchObject({ lockedByName: `${demoUsers.user.firstName} ${demoUsers.user.lastName}`, lockedAt: expect.any(String) });
    expect(units.body.data?.units.find((u) => u.imei === demoImei(1))).toMatchObject({ lockedByName: null, lockedAt: null });
    expect((await call('GET', '/api/v1/support/accounts/no-such-account/units', support)).status).toBe(404);

    const before = (await emailsTo(demoUsers.user.email)).length;
    const unlocked = await call<UnitLock>('POST', `/api/v1/support/units/${imei}/unlock`, support);
    expect(unlocked.status, JSON.stringify(unlocked.body)).toBe(200);
    expect(unlocked.body.data?.lock).toBeNull();
    const mails = await emailsTo(demoUsers.user.email);
    expect(mails.length).toBe(before + 1);
    expect(mails[0]?.text).toContain(imei);
    const again = await call('POST', `/api/v1/support/units/${imei}/unlock`, support);
    expect(again.status).toBe(409);
    expect((await emailsTo(demoUsers.user.email)).length).toBe(before + 1);
  });

  it('sets the announcement of one brand and language, which POST /announcement answers until it ends', async () => {
    const announcement = (lang: string, subsiteID: number) =>
      apiFetch(`${rt.url}/api/v1/announcement`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lang, subsiteID }) }).then(
        async (r) => ((await r.json()) as { data: { text: string | null } }).data.text,
      );
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect((await call('PUT', '/api/v1/support/announcements/2/sv', support, { text: 'Underhåll i natt 22-23.', until })).status).toBe(200);
    expect(await announcement('sv', 2)).toBe('Underhåll i natt 22-23.');
    expect(await announcement('en', 2)).toBeNull();
    expect(await announcement('sv', 0)).toBeNull();
    const listed = (await call<{ announcements: SupportAnnouncement[] }>('GET', '/api/v1/support/announcements', support)).body.data?.announcements;
    expect(listed).toEqual([{ subsiteId: 2, lang: 'sv', text: 'Underhåll i natt 22-23.', until }]);

    expect((await call('PUT', '/api/v1/support/announcements/2/sv', support, { text: 'x'.repeat(1001) })).body.errors).toEqual({ text: ['AnnouncementTextTooLong'] });
    expect((await call('PUT', '/api/v1/support/announcements/2/sv', support, { text: 'Old', until: '2020-01-01T00:00:00Z' })).body.errors).toEqual({ until: ['AnnouncementEndInPast'] });
    expect((await call('PUT', '/api/v1/support/announcements/8/sv', support, { text: 'Nope' })).status).toBe(422);
    expect((await call('DELETE', '/api/v1/support/announcements/2/sv', support)).status).toBe(200);
    expect(await announcement('sv', 2)).toBeNull();
  });

  it('keeps everything it did in the support log, newest first', async () => {
    const entries = await log();
    const actions = entries.map((e) => e.action);
    expect(actions.filter((a) => a === 'searchAccounts')).toHaveLength(11);
    expect(actions).toEqual(expect.arrayContaining(['viewAccount', 'unlockUnit', 'setAnnouncement', 'removeAnnouncement']));
    expect(actions[0]).toBe('removeAnnouncement');
    const unlock = entries.find((e) => e.action === 'unlockUnit');
    expect(unlock).toMatchObject({
      userId: support.userId,
      userName: `${demoSupportUser.firstName} ${demoSupportUser.lastName}`,
      accountId: admin.accountId,
      accountName: 'Demo Fleet AB',
      details: expect.stringContaining(demoImei(0)),
    });
    expect(entries.find((e) => e.action === 'setAnnouncement')?.details).toContain('2/sv');
    expect([...entries].sort((a, b) => b.at.localeCompare(a.at)).map((e) => e.id)).toEqual(entries.map((e) => e.id));
  });

  it("sets an account's basic-only flag and a unit's subscription type and report frequency lock, each logged", async () => {
    const settings = async () => (await call<{ basicOnly: boolean }>('GET', '/api/v1/administration/settings', admin)).body.data?.basicOnly;
    const accountPath = `/api/v1/support/accounts/${admin.accountId}/settings`;
    expect((await call('PUT', accountPath, support, { basicOnly: true })).status).toBe(200);
    expect(await settings()).toBe(true);
    // The admin still may not change it back.
    expect((await call('PUT', '/api/v1/administration/settings', admin, { basicOnly: false })).body.message).toBe('BasicOnlyIsSupportOnly');
    const bad = await call('PUT', accountPath, support, { basicOnly: 'yes' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ basicOnly: ['InvalidValue'] });
    expect((await call('PUT', '/api/v1/support/accounts/no-such-account/settings', support, { basicOnly: true })).status).toBe(404);
    expect((await call('PUT', accountPath, support, { basicOnly: false })).status).toBe(200);
    expect(await settings()).toBe(false);

    const imei = demoImei(1);
    const unitOf = async () => (await call<SupportAccountUnits>('GET', `/api/v1/support/accounts/${admin.accountId}/units`, support)).body.data?.units.find((u) => u.imei === imei);
    expect(await unitOf()).toMatchObject({ subscriptionType: null, reportFrequencyChange: 'allowed' });
    expect((await call('PUT', `/api/v1/support/units/${imei}/subscription-type`, support, { subscriptionType: 'Bas' })).status).toBe(200);
    expect((await call('PUT', `/api/v1/support/units/${imei}/report-frequency-change`, support, { reportFrequencyChange: 'locked' })).status).toBe(200);
    expect(await unitOf()).toMatchObject({ subscriptionType: 'Bas', reportFrequencyChange: 'locked' });
    // The account sees both in the unit editor, and the lock holds.
    expect((await call<{ subscriptionType: string | null }>('GET', `/api/v1/user/units/${imei}`, admin)).body.data?.subscriptionType).toBe('Bas');
    const refused = await call('PUT', `/api/v1/user/units/${imei}`, admin, { reportFrequency: { value: 5, unit: 'minutes' } });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toMatchObject({ reportFrequency: ['FrequencyLocked'] });

    const wrongType = await call('PUT', `/api/v1/support/units/${imei}/subscription-type`, support, { subscriptionType: 'Gold' });
    expect(wrongType.body.errors).toEqual({ subscriptionType: ['InvalidSubscriptionType'] });
    const wrongLock = await call('PUT', `/api/v1/support/units/${imei}/report-frequency-change`, support, { reportFrequencyChange: 'open' });
    expect(wrongLock.body.errors).toEqual({ reportFrequencyChange: ['InvalidValue'] });
    expect((await call('PUT', `/api/v1/support/units/${demoImei(109)}/subscription-type`, support, { subscriptionType: 'Bas' })).status).toBe(404);
    expect((await call('PUT', `/api/v1/support/units/${imei}/subscription-type`, support, { subscriptionType: null })).status).toBe(200);
    expect((await call('PUT', `/api/v1/support/units/${imei}/report-frequency-change`, support, { reportFrequencyChange: 'allowed' })).status).toBe(200);
    expect(await unitOf()).toMatchObject({ subscriptionType: null, reportFrequencyChange: 'allowed' });

    const entries = await log();
    expect(entries.filter((e) => e.action === 'setBasicOnly').map((e) => e.details)).toEqual(['basicOnly on → off', 'basicOnly off → on']);
    expect(entries.filter((e) => e.action === 'setSubscriptionType').map((e) => e.details)).toEqual([
      expect.stringContaining(`(${imei}): Bas → –`),
      expect.stringContaining(`(${imei}): – → Bas`),
    ]);
    expect(entries.find((e) => e.action === 'setReportFrequencyChange')).toMatchObject({ accountId: admin.accountId, details: expect.stringContaining('locked → allowed') });
  });

  it("answers an ordinary user, an admin and another account's admin 403 on every support route", async () => {
    const supportRoutes = routeList.filter((r) => r.access === 'support');
    expect(supportRoutes.length).toBeGreaterThanOrEqual(11);
    const fill = (path: string) =>
      path.replace('{accountId}', admin.accountId).replace('{imei}', demoImei(1)).replace('{subsiteId}', '0').replace('{lang}', 'en');
    const before = (await log()).length;
    for (const who of [user, admin, other]) {
      for (const route of supportRoutes) {
        const query = route.path.endsWith('/accounts') ? '?by=name&q=demo' : '';
        const reply = await call(route.method, `${fill(route.path)}${query}`, who, route.method === 'PUT' ? { text: 'Hijack' } : undefined);
        expect(reply.status, `${route.method} ${route.path}`).toBe(403);
        expect(reply.body.message).toBe('NoAccessToSupportPages');
      }
    }
    expect((await log()).length).toBe(before);
  });
});
