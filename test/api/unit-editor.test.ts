/**
 * The unit editor end to end on the embedded runtime: every validation rule with its key, the
 * registration number's 2 changes per 24 hours under concurrency, partial saves that do not undo
 * each other, the name history, the report frequency locks, support-only fields, service
 * intervals' states, and who may see which unit (another account's token and an ordinary user
 * without the grant get 404); odometer and operating-hours readings (the contract's payload with
 * both, the values read back corrected, entries listed and deleted, the copy ingest reads, a
 * locked unit's 423).
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatingHoursEntry, UnitEditor, UnitUpdateRequest } from '../../shared/schemas/unit-editor';
import type { OdometerEntry } from '../../shared/schemas/trips';
import { dynamo, tableName } from '../../functions/platform/db';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei, demoUsers } from '../../infra/local/seed';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { callAs, demoCallers, type Caller, type Reply } from '../support/api-caller';

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let spare = 0;

const path = (imei: string) => `/api/v1/user/units/${imei}`;
const get = (imei: string, who: Caller = admin) => callAs<UnitEditor>(rt.url, 'GET', path(imei), who);
const put = (imei: string, body: UnitUpdateRequest | Record<string, unknown>, who: Caller = admin) => callAs<UnitEditor>(rt.url, 'PUT', path(imei), who, body);
const errorsOf = async (reply: Promise<Reply<unknown>>) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return r.body.errors;
};
const ok = async (reply: Promise<Reply<UnitEditor>>): Promise<UnitEditor> => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as UnitEditor;
};

/** A unit of its own in the demo account (the admin sees it, the ordinary user does not). */
async function newUnit(accountId = admin.accountId, extra: Record<string, unknown> = {}): Promise<string> {
  const imei = demoImei(700 + spare++);
  const unit: UnitRecord = { imei, accountId, name: `Editor car ${imei}`, vehicleType: 'car', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: { ...unit, ...extra } }));
  return imei;
}

async function setOnUnit(imei: string, values: Record<string, unknown>): Promise<void> {
  const names = Object.keys(values);
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, values[n]])),
    }),
  );
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
});

afterAll(async () => {
  await rt?.stop();
});

describe('reading a unit', () => {
  it('answers the editable fields with their defaults', async () => {
    const imei = await newUnit();
    const unit = await ok(get(imei));
    expect(unit).toMatchObject({
      imei,
      name: `Editor car ${imei}`,
      registrationNumber: null,
      registrationChangesLeft: 2,
      vehicleType: 'car',
      colour: '#1c7ed6',
      symbol: 'car',
      ecoSensitivity: 'normal',
      lowBatteryAlert: true,
      overspeedSeconds: 30,
      timeTillParkedMinutes: 3,
      reportFrequencyChange: 'allowed',
      isSupport: false,
      odometer: null,
      nameHistory: [],
      serviceIntervals: [],
    });
    expect(unit.objectDescription).toMatchObject({ manufacturer: '', links: [], year: null });
    expect(unit.realtime.imei).toBe(imei);
  });

  it('is 404 for another account, for an ordinary user without the grant, and for an unknown IMEI', async () => {
    const imei = await newUnit();
    const foreign = await newUnit(other.accountId);
    expect((await get(imei, other)).status).toBe(404);
    expect((await put(imei, { name: 'Mine now' }, other)).status).toBe(404);
    expect((await get(imei, user)).status).toBe(404);
    expect((await put(imei, { name: 'Mine now' }, user)).body).toMatchObject({ message: 'UnitNotFound' });
    expect((await get(foreign)).status).toBe(404);
    expect((await get(demoImei(999))).status).toBe(404);
    expect((await get(imei)).body.data?.name).toBe(`Editor car ${imei}`);
  });

  it('lets an ordinary user edit a unit granted to them', async () => {
    const granted = demoImei(0);
    const before = await ok(get(granted, user));
    const saved = await ok(put(granted, { ecoSensitivity: 'sensitive' }, user));
    expect(saved.ecoSensitivity).toBe('sensitive');
    await ok(put(granted, { ecoSensitivity: before.ecoSensitivity }, user));
  });
});

describe('saving: validation', () => {
  it('answers every field problem with its key', async () => {
    const imei = await newUnit();
    expect(await errorsOf(put(imei, { name: '  ' }))).toEqual({ name: ['SpecifyUnitName'] });
    expect(await errorsOf(put(imei, { name: 'x'.repeat(51) }))).toEqual({ name: ['UnitNameTooLong'] });
    expect(await errorsOf(put(imei, { registrationNumber: 'ABC-123' }))).toEqual({ registrationNumber: ['RegistrationNumberInvalid'] });
    expect(await errorsOf(put(imei, { registrationNumber: 'A'.repeat(21) }))).toEqual({ registrationNumber: ['RegistrationNumberTooLong'] });
    expect(await errorsOf(put(imei, { colour: 'blue' }))).toEqual({ colour: ['InvalidColour'] });
    expect(await errorsOf(put(imei, { symbol: 'rocket' } as never))).toEqual({ symbol: ['InvalidSymbol'] });
    expect(await errorsOf(put(imei, { vehicleType: 'spaceship' } as never))).toEqual({ vehicleType: ['InvalidVehicleType'] });
    expect(await errorsOf(put(imei, { subscriptionType: 'Gold' } as never))).toEqual({ subscriptionType: ['InvalidSubscriptionType'] });
    expect(await errorsOf(put(imei, { consumption: 0.5, co2: 120 }))).toEqual({ fuelType: ['SpecifyFuelType'] });
    expect(await errorsOf(put(imei, { fuelType: 'diesel', co2: 120 }))).toEqual({ consumption: ['ConsumptionMustBePositive'] });
    expect(await errorsOf(put(imei, { fuelType: 'diesel', consumption: 0, co2: 120 }))).toEqual({ consumption: ['ConsumptionMustBePositive'] });
    expect(await errorsOf(put(imei, { fuelType: 'diesel', consumption: 101, co2: 120 }))).toEqual({ consumption: ['ConsumptionTooLarge'] });
    expect(await errorsOf(put(imei, { fuelType: 'diesel', consumption: 0.6 }))).toEqual({ co2: ['SpecifyCo2'] });
    expect(await errorsOf(put(imei, { fuelType: 'diesel', consumption: 0.6, co2: -1 }))).toEqual({ co2: ['Co2Invalid'] });
    expect(await errorsOf(put(imei, { fuelType: 'coal', consumption: 0.6, co2: 1 } as never))).toEqual({ fuelType: ['SpecifyFuelType'] });
    expect(await errorsOf(put(imei, { nextInspection: '2026-02-30' }))).toEqual({ nextInspection: ['InspectionDateInvalid'] });
    expect(await errorsOf(put(imei, { ecoSensitivity: 'wild' } as never))).toEqual({ ecoSensitivity: ['InvalidEcoSensitivity'] });
    expect(await errorsOf(put(imei, { overspeedKmh: 351, overspeedSeconds: -1 }))).toEqual({ overspeedKmh: ['OverspeedLimitInvalid'], overspeedSeconds: ['OverspeedSecondsInvalid'] });
    expect(await errorsOf(put(imei, { lowBatteryAlert: 'yes' } as never))).toEqual({ lowBatteryAlert: ['InvalidInput'] });
    expect(await errorsOf(put(imei, { dinAlarms: { '4': true } }))).toEqual({ 'dinAlarms.4': ['InvalidInput'] });
    expect(await errorsOf(put(imei, { dinLabels: { '2': 'x'.repeat(21) } }))).toEqual({ 'dinLabels.2': ['DinLabelTooLong'] });
    expect(await errorsOf(put(imei, { doutLabels: { '1': 'x'.repeat(21) } }))).toEqual({ 'doutLabels.1': ['DoutLabelTooLong'] });
    expect(await errorsOf(put(imei, { doutLabels: { '9': 'Horn' } }))).toEqual({ 'doutLabels.9': ['InvalidOutputNumber'] });
    expect(await errorsOf(put(imei, { timeTillParkedMinutes: 0 }))).toEqual({ timeTillParkedMinutes: ['TimeTillParkedInvalid'] });
    expect(await errorsOf(put(imei, { reportFrequency: { value: 5, unit: 'seconds' } }))).toEqual({ 'reportFrequency.value': ['ReportFrequencyInvalid'] });
    expect(await errorsOf(put(imei, { reportFrequency: { value: 25, unit: 'hours' } }))).toEqual({ 'reportFrequency.value': ['ReportFrequencyInvalid'] });
    expect(await errorsOf(put(imei, { reportFrequency: { value: 1, unit: 'days' } } as never))).toEqual({ 'reportFrequency.unit': ['ReportFrequencyUnitInvalid'] });
    expect(
      await errorsOf(put(imei, { objectDescription: { manufacturer: 'x'.repeat(101), year: 1800, links: ['ftp://example.se/a'] } })),
    ).toEqual({ 'objectDescription.manufacturer': ['TextTooLong'], 'objectDescription.year': ['YearInvalid'], 'objectDescription.links.0': ['LinkInvalid'] });
    expect(await errorsOf(put(imei, { objectDescription: { links: Array.from({ length: 6 }, (_, i) => `https://example.se/${i}`) } }))).toEqual({
      'objectDescription.links': ['TooManyLinks'],
    });
    expect(await errorsOf(put(imei, { theft: { date: '2026-13-01', ownerEmail: 'not-mail', ownerPhone: 'call me', otherInfo: 'x'.repeat(1001) } }))).toEqual({
      'theft.date': ['TheftDateInvalid'],
      'theft.ownerEmail': ['OwnerEmailInvalid'],
      'theft.ownerPhone': ['EnterValidPhoneNumber'],
      'theft.otherInfo': ['TextTooLong'],
    });
    expect(
      await errorsOf(
        put(imei, {
          serviceIntervals: [
            { name: '', kind: 'distance', every: 15000, lastService: 0 },
            { name: 'Oil', kind: 'weekly', every: 1, lastService: 0 },
            { name: 'Tyres', kind: 'date', every: 0, lastService: 'soon' },
            { name: 'Belt', kind: 'hours', every: 100_001, lastService: -1 },
          ] as never,
        }),
      ),
    ).toEqual({
      'serviceIntervals.0.name': ['SpecifyServiceName'],
      'serviceIntervals.1.kind': ['InvalidServiceKind'],
      'serviceIntervals.2.every': ['ServiceEveryInvalid'],
      'serviceIntervals.2.lastService': ['LastServiceInvalid'],
      'serviceIntervals.3.every': ['ServiceEveryInvalid'],
      'serviceIntervals.3.lastService': ['LastServiceInvalid'],
    });
    expect(
      await errorsOf(put(imei, { serviceIntervals: Array.from({ length: 11 }, () => ({ name: 'Oil', kind: 'distance', every: 1000, lastService: 0 })) as never })),
    ).toEqual({ serviceIntervals: ['TooManyServiceIntervals'] });
    expect(await errorsOf(put(imei, { colour: '#123456', mileage: 3 }))).toEqual({ body: ['UnknownField'] });
    // Nothing of the refused saves was written.
    expect((await ok(get(imei))).colour).toBe('#1c7ed6');
  });

  it('keeps the subscription type and the frequency locks to support staff', async () => {
    const imei = await newUnit();
    expect(await errorsOf(put(imei, { subscriptionType: 'Bas' }))).toEqual({ subscriptionType: ['SubscriptionTypeReadOnly'] });
    expect(await errorsOf(put(imei, { reportFrequencyChange: 'locked' }))).toEqual({ reportFrequencyChange: ['DeniedChangeRF'] });
  });

  it('refuses a report frequency change while it is denied (DeniedChangeRF) or locked (FrequencyLocked)', async () => {
    const imei = await newUnit();
    const saved = await ok(put(imei, { reportFrequency: { value: 2, unit: 'minutes' } }));
    expect(saved.reportFrequency).toEqual({ value: 2, unit: 'minutes' });
    await setOnUnit(imei, { reportFrequencyChange: 'denied' });
    expect(await errorsOf(put(imei, { reportFrequency: { value: 1, unit: 'hours' } }))).toEqual({ reportFrequency: ['DeniedChangeRF'] });
    await setOnUnit(imei, { reportFrequencyChange: 'locked' });
    expect(await errorsOf(put(imei, { reportFrequency: { value: 1, unit: 'hours' } }))).toEqual({ reportFrequency: ['FrequencyLocked'] });
    const unit = await ok(get(imei));
    expect(unit.reportFrequency).toEqual({ value: 2, unit: 'minutes' });
    expect(unit.reportFrequencyChange).toBe('locked');
    // Other fields can still be saved.
    expect((await ok(put(imei, { ecoSensitivity: 'insensitive' }))).ecoSensitivity).toBe('insensitive');
  });
});

describe('saving: what is stored', () => {
  it('saves every section and answers the unit as stored', async () => {
    const imei = await newUnit();
    const saved = await ok(
      put(imei, {
        name: 'Volvo V90',
        registrationNumber: 'abc123',
        colour: '#AA3300',
        symbol: 'van',
        vehicleType: 'boat',
        fuelType: 'diesel',
        consumption: 0.55,
        co2: 140,
        nextInspection: '2027-03-31',
        ecoSensitivity: 'sensitive',
        overspeedKmh: 110,
        overspeedSeconds: 20,
        lowBatteryAlert: false,
        dinAlarms: { '2': true, '3': false },
        dinLabels: { '2': 'Door', '3': '' },
        doutLabels: { '1': 'Immobiliser' },
        timeTillParkedMinutes: 5,
        reportFrequency: { value: 30, unit: 'seconds' },
        objectDescription: { manufacturer: 'Volvo', model: 'V90', year: 2021, chassisNumber: 'YV1ZW', links: ['https://volvo.se'] },
        theft: { date: '2026-05-01', place: 'Stureplan', policeStation: 'Norrmalm', reportNumber: 'K123', ownerEmail: 'owner@example.se', ownerPhone: '+46 70 123 45 67' },
      }),
    );
    expect(saved).toMatchObject({
      name: 'Volvo V90',
      registrationNumber: 'ABC123',
      registrationChangesLeft: 1,
      colour: '#aa3300',
      symbol: 'van',
      vehicleType: 'boat',
      fuelType: 'diesel',
      consumption: 0.55,
      co2: 140,
      nextInspection: '2027-03-31',
      ecoSensitivity: 'sensitive',
      overspeedKmh: 110,
      overspeedSeconds: 20,
      lowBatteryAlert: false,
      dinAlarms: { '2': true, '3': false },
      dinLabels: { '2': 'Door' },
      doutLabels: { '1': 'Immobiliser' },
      timeTillParkedMinutes: 5,
      reportFrequency: { value: 30, unit: 'seconds' },
    });
    expect(saved.objectDescription).toEqual({
      manufacturer: 'Volvo',
      model: 'V90',
      year: 2021,
      hullNumber: '',
      motorNumber: '',
      chassisNumber: 'YV1ZW',
      insuranceCompany: '',
      insuranceNumber: '',
      links: ['https://volvo.se'],
    });
    expect(saved.theft).toMatchObject({ date: '2026-05-01', place: 'Stureplan', ownerPhone: '+46701234567' });
    expect(saved.nameHistory).toEqual([expect.objectContaining({ name: 'Volvo V90', by: demoUsers.admin.username })]);
    // The map and the units list read the same item.
    expect(saved.realtime).toMatchObject({ name: 'Volvo V90', color: '#aa3300', symbol: 'van', registrationNumber: 'ABC123' });
    expect(await ok(get(imei))).toEqual(saved);
    // null clears an optional field.
    const cleared = await ok(put(imei, { overspeedKmh: null, nextInspection: null }));
    expect(cleared).toMatchObject({ overspeedKmh: null, nextInspection: null, name: 'Volvo V90' });
  });

  it("keeps the owner's phone on the one phone rule: read in its country, fixed lines too, stored as E.164; an older value still loads", async () => {
    const imei = await newUnit();
    const phoneOf = async (theft: Record<string, unknown>) => (await ok(put(imei, { theft }))).theft.ownerPhone;
    // Without a country a national number is Swedish; a Stockholm fixed line is an owner's phone too.
    expect(await phoneOf({ ownerPhone: '08-123 456 78' })).toBe('+46812345678');
    expect(await phoneOf({ ownerPhone: '412 34 567', ownerPhoneCountry: 'NO' })).toBe('+4741234567');
    // An international number names its own country whatever the form's country says.
    expect(await phoneOf({ ownerPhone: '0047 22 12 34 56', ownerPhoneCountry: 'SE' })).toBe('+4722123456');
    expect(await phoneOf({ ownerPhone: '' })).toBe('');
    // A Swedish number is no Norwegian one; too short, letters and an unknown country are refused.
    for (const theft of [{ ownerPhone: '070 123 45 67', ownerPhoneCountry: 'NO' }, { ownerPhone: '08 1' }, { ownerPhone: 'call me' }, { ownerPhone: '070 123 45 67', ownerPhoneCountry: 'XX' }]) {
      expect(await errorsOf(put(imei, { theft })), JSON.stringify(theft)).toEqual({ 'theft.ownerPhone': ['EnterValidPhoneNumber'] });
    }
    expect(await errorsOf(put(imei, { theft: { ownerPhone: 46701234567 } }))).toEqual({ 'theft.ownerPhone': ['EnterValidPhoneNumber'] });
    expect(await errorsOf(put(imei, { theft: { ownerPhoneCountry: 'SWE1' } }))).toEqual({ 'theft.ownerPhoneCountry': ['EnterValidPhoneNumber'] });
    // A number stored before the rule (free text of its time) is answered as it is, with the rest of the theft info.
    await dynamo().send(
      new UpdateCommand({ TableName: tableName('unitDetails'), Key: { imei }, UpdateExpression: 'SET theft.ownerPhone = :p', ExpressionAttributeValues: { ':p': '070-12 34' } }),
    );
    expect((await ok(get(imei))).theft).toMatchObject({ ownerPhone: '070-12 34' });
  });

  it('allows 2 registration number changes in 24 hours: of 3 at once exactly 2 succeed', async () => {
    const imei = await newUnit();
    const replies = await Promise.all(['AAA111', 'BBB222', 'CCC333'].map((reg) => put(imei, { registrationNumber: reg })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 422]);
    expect(replies.find((r) => r.status === 422)?.body.errors).toEqual({ registrationNumber: ['RegistrationNumberChangedTooOften'] });
    const unit = await ok(get(imei));
    expect(unit.registrationChangesLeft).toBe(0);
    const winners = replies.filter((r) => r.status === 200).map((r) => r.body.data?.registrationNumber);
    expect(winners).toContain(unit.registrationNumber);
    // Saving the same number again is no change; other fields still save.
    expect((await ok(put(imei, { registrationNumber: unit.registrationNumber, colour: '#000000' }))).colour).toBe('#000000');
    expect(await errorsOf(put(imei, { registrationNumber: 'DDD444' }))).toEqual({ registrationNumber: ['RegistrationNumberChangedTooOften'] });
  });

  it('counts only the changes of the last 24 hours', async () => {
    const imei = await newUnit();
    const day = 24 * 3_600_000;
    await setOnUnit(imei, { registrationNumber: 'OLD1', registrationChanges: [Date.now() - day - 60_000, Date.now() - 3_600_000], registrationRev: 2 });
    expect((await ok(get(imei))).registrationChangesLeft).toBe(1);
    expect((await ok(put(imei, { registrationNumber: 'NEW1' }))).registrationChangesLeft).toBe(0);
  });

  it('keeps concurrent saves of different sections', async () => {
    const imei = await newUnit();
    await Promise.all([
      put(imei, { colour: '#112233', symbol: 'truck' }),
      put(imei, { fuelType: 'petrol', consumption: 0.7, co2: 160 }),
      put(imei, { objectDescription: { manufacturer: 'Scania' } }),
      put(imei, { theft: { place: 'Harbour' } }),
      put(imei, { name: 'Concurrent' }),
      put(imei, { overspeedKmh: 90 }),
      put(imei, { serviceIntervals: [{ name: 'Oil', kind: 'distance', every: 15000, lastService: 0 }] }),
    ]).then((replies) => replies.forEach((r) => expect(r.status, JSON.stringify(r.body)).toBe(200)));
    const unit = await ok(get(imei));
    expect(unit).toMatchObject({ colour: '#112233', symbol: 'truck', fuelType: 'petrol', consumption: 0.7, co2: 160, name: 'Concurrent', overspeedKmh: 90 });
    expect(unit.objectDescription.manufacturer).toBe('Scania');
    expect(unit.theft.place).toBe('Harbour');
    expect(unit.serviceIntervals.map((s) => s.name)).toEqual(['Oil']);
    expect(unit.nameHistory.map((h) => h.name)).toEqual(['Concurrent']);
  });

  it('keeps the last 50 names, newest first, also when renamed concurrently', async () => {
    const imei = await newUnit();
    for (let i = 1; i <= 48; i++) await ok(put(imei, { name: `Name ${i}` }));
    await Promise.all(['A', 'B', 'C', 'D'].map((n) => put(imei, { name: `Name ${n}` }))).then((r) => r.forEach((x) => expect(x.status).toBe(200)));
    const unit = await ok(get(imei));
    expect(unit.nameHistory).toHaveLength(50);
    expect(unit.nameHistory.slice(0, 4).map((h) => h.name).sort()).toEqual(['Name A', 'Name B', 'Name C', 'Name D']);
    expect(unit.nameHistory[0]?.name).toBe(unit.name);
    expect(unit.nameHistory.at(-1)?.name).toBe('Name 3');
    // The same name again is no rename.
    expect((await ok(put(imei, { name: unit.name }))).nameHistory).toHaveLength(50);
  });

  it("does not show a previous owner's details", async () => {
    const imei = await newUnit();
    await ok(put(imei, { name: 'First owner', theft: { place: 'Secret' } }));
    await setOnUnit(imei, { accountId: other.accountId });
    const seen = await ok(get(imei, other));
    expect(seen.theft.place).toBe('');
    expect(seen.nameHistory).toEqual([]);
    const saved = await ok(put(imei, { objectDescription: { model: 'Mine' } }, other));
    expect(saved.objectDescription.model).toBe('Mine');
    expect(saved.theft.place).toBe('');
  });
});

describe('service intervals', () => {
  it('answers each interval with its state from the unit\'s counters', async () => {
    const imei = await newUnit(admin.accountId, {
      state: { ts: Date.now(), lat: 59.33, lon: 18.06, odometer: 14_000_000, engineSeconds: 500 * 3600, lastSeen: Date.now() },
    });
    const today = new Date().toISOString().slice(0, 10);
    const saved = await ok(
      put(imei, {
        serviceIntervals: [
          { name: 'Oil', kind: 'distance', every: 15_000, lastService: 0 },
          { name: 'Hydraulics', kind: 'hours', every: 1000, lastService: 0 },
          { name: 'Inspection', kind: 'date', every: 12, lastService: '2020-01-01' },
          { name: 'Belt', kind: 'distance', every: 15_000, lastService: 10_000 },
        ],
      }),
    );
    expect(saved.odometer).toBe(14_000);
    expect(saved.operatingHours).toBe(500);
    expect(saved.serviceIntervals.map((s) => [s.name, s.status.state, s.status.remaining])).toEqual([
      ['Oil', 'dueSoon', 1000],
      ['Hydraulics', 'ok', 500],
      ['Inspection', 'overdue', expect.any(Number)],
      ['Belt', 'ok', 11_000],
    ]);
    expect(saved.serviceIntervals[2]?.status).toMatchObject({ dueAt: '2021-01-01', current: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(today).toMatch(/^\d{4}/);
    // Marking one serviced: its id is kept and it starts again from the current counter.
    const oil = saved.serviceIntervals[0];
    const after = await ok(put(imei, { serviceIntervals: saved.serviceIntervals.map((s) => ({ id: s.id, name: s.name, kind: s.kind, every: s.every, lastService: s.id === oil?.id ? 14_000 : s.lastService })) }));
    expect(after.serviceIntervals[0]).toMatchObject({ id: oil?.id, status: { state: 'ok', remaining: 15_000 } });
  });
});

describe('odometer and operating hours', () => {
  const HOUR = 3600;
  const stateOf = (odometerM: number, engineSeconds: number | undefined, ts = Date.now()) => ({ ts, lat: 59.33, lon: 18.06, odometer: odometerM, engineSeconds, lastSeen: ts });
  const hoursPath = (imei: string) => `${path(imei)}/operating-hours-entries`;
  const odometerPath = (imei: string) => `${path(imei)}/odometer-entries`;
  const hoursEntries = (imei: string, who: Caller = admin) => callAs<OperatingHoursEntry[]>(rt.url, 'GET', hoursPath(imei), who);
  const odometerEntries = (imei: string, who: Caller = admin) => callAs<OdometerEntry[]>(rt.url, 'GET', odometerPath(imei), who);
  const copiesOf = async (imei: string) => (await dynamo().send(new GetCommand({ TableName: tableName('unitCopies'), Key: { imei }, ConsistentRead: true }))).Item;

  it('takes the contract payload with odometer and operatingHours as readings now, and counts on from them', async () => {
    const imei = await newUnit(admin.accountId, { state: stateOf(14_000_000, 500 * HOUR) });
    const saved = await ok(
      put(imei, {
        name: 'Wheel loader',
        registrationNumber: 'ABC123',
        colour: '#aa3300',
        symbol: 'car',
        vehicleType: 'wheel-loader',
        fuelType: 'diesel',
        consumption: 2.5,
        co2: 180,
        odometer: 15_000,
        operatingHours: 620,
        nextInspection: '2030-05-01',
        serviceIntervals: [{ name: 'Hydraulics', kind: 'hours', every: 100, lastService: 532 }],
      }),
    );
    expect(saved).toMatchObject({ name: 'Wheel loader', registrationNumber: 'ABC123', odometer: 15_000, operatingHours: 620, operatingHoursCounted: true });
    expect(saved.serviceIntervals[0]?.status).toMatchObject({ state: 'ok', current: 620, remaining: 12 });

    // The tracker runs on: 12.3 km and 2.5 engine hours later.
    await setOnUnit(imei, { state: stateOf(14_012_300, 502.5 * HOUR) });
    const read = await ok(get(imei));
    expect(read).toMatchObject({ odometer: 15_012.3, operatingHours: 622.5 });
    // Due at 632 h, 9.5 h left: due soon by the corrected hours (the raw 502.5 h would be ok).
    expect(read.serviceIntervals[0]?.status).toMatchObject({ state: 'dueSoon', current: 622.5, remaining: 9.5 });

    // The entries, and the copy of the latest that ingest's service stage reads with the unit.
    const hours = await hoursEntries(imei);
    expect(hours.body.data).toEqual([expect.objectContaining({ value: 620, counted: true, createdBy: admin.userId })]);
    const odometer = await odometerEntries(imei);
    expect(odometer.body.data).toEqual([expect.objectContaining({ value: 15_000 })]);
    expect(await copiesOf(imei)).toMatchObject({
      accountId: admin.accountId,
      hoursCorrection: { valueHours: 620, counterS: 500 * HOUR },
      odometerCorrection: { valueKm: 15_000, counterM: 14_000_000, source: 'tracker' },
    });

    // Sending back what it shows adds no entry.
    await ok(put(imei, { odometer: read.odometer as number, operatingHours: read.operatingHours as number }));
    expect((await hoursEntries(imei)).body.data).toHaveLength(1);
    expect((await odometerEntries(imei)).body.data).toHaveLength(1);

    // Deleting the readings: back to the tracker's counters, and the copies go.
    const hoursId = hours.body.data?.[0]?.id as string;
    expect((await callAs(rt.url, 'DELETE', `${hoursPath(imei)}/${hoursId}`, admin)).status).toBe(200);
    const gone = await callAs(rt.url, 'DELETE', `${hoursPath(imei)}/${hoursId}`, admin);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('EntryNotFound');
    expect((await callAs(rt.url, 'DELETE', `${odometerPath(imei)}/${odometer.body.data?.[0]?.id as string}`, admin)).status).toBe(200);
    expect(await ok(get(imei))).toMatchObject({ odometer: 14_012.3, operatingHours: 502.5 });
    const copies = await copiesOf(imei);
    expect(copies?.['hoursCorrection']).toBeUndefined();
    expect(copies?.['odometerCorrection']).toBeUndefined();
  });

  it('holds the hours at the reading when the tracker reports no engine hours', async () => {
    const imei = await newUnit(admin.accountId, { state: stateOf(1_000_000, undefined, Date.now() - 60_000) });
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const added = await callAs<OperatingHoursEntry>(rt.url, 'POST', hoursPath(imei), admin, { time: past, value: 1234.5 });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ value: 1234.5, counted: false });
    expect(await ok(get(imei))).toMatchObject({ operatingHours: 1234.5, operatingHoursCounted: false });
  });

  it('keeps the copy at the latest entry when readings race', async () => {
    const imei = await newUnit(admin.accountId, { state: stateOf(1_000_000, 10 * HOUR, Date.now() - 60_000) });
    const times = [5, 4, 3, 2].map((m) => new Date(Date.now() - m * 60_000).toISOString());
    const replies = await Promise.all(times.map((time, i) => callAs(rt.url, 'POST', hoursPath(imei), admin, { time, value: 100 + i })));
    expect(replies.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const entries = (await hoursEntries(imei)).body.data ?? [];
    expect(entries.map((e) => e.value)).toEqual([100, 101, 102, 103]);
    expect((await copiesOf(imei))?.['hoursCorrection']).toMatchObject({ valueHours: 103, atTs: Number(entries[3]?.id) });
  });

  it('answers each reading problem with its key', async () => {
    const imei = await newUnit();
    expect(await errorsOf(put(imei, { odometer: -1, operatingHours: 2_000_000 }))).toEqual({ odometer: ['OdometerInvalid'], operatingHours: ['OperatingHoursInvalid'] });
    expect(await errorsOf(put(imei, { odometer: null, operatingHours: 'many' }))).toEqual({ odometer: ['SpecifyOdometer'], operatingHours: ['SpecifyOperatingHours'] });
    expect(await errorsOf(put(imei, { odometer: 10_000_001 }))).toEqual({ odometer: ['OdometerInvalid'] });
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await errorsOf(callAs(rt.url, 'POST', hoursPath(imei), admin, { time: future, value: 1 }))).toEqual({ time: ['ReadingInFuture'] });
    expect(await errorsOf(callAs(rt.url, 'POST', hoursPath(imei), admin, { time: 'yesterday', value: -2 }))).toEqual({ time: ['InvalidDateTime'], value: ['OperatingHoursInvalid'] });
    expect((await hoursEntries(imei)).body.data).toEqual([]);
  });

  it("is 404 with another account's token and 423 on a unit locked by someone else", async () => {
    const imei = await newUnit();
    const past = new Date(Date.now() - 60_000).toISOString();
    const added = await callAs<OperatingHoursEntry>(rt.url, 'POST', hoursPath(imei), admin, { time: past, value: 10 });
    const id = added.body.data?.id as string;
    for (const reply of [
      await hoursEntries(imei, other),
      await callAs(rt.url, 'POST', hoursPath(imei), other, { time: past, value: 11 }),
      await callAs(rt.url, 'DELETE', `${hoursPath(imei)}/${id}`, other),
      await put(imei, { operatingHours: 12 }, other),
      await hoursEntries(imei, user),
    ]) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(404);
    }
    await setOnUnit(imei, { lockedBy: 'someone-else', lockedByName: 'Lena Locker', lockedAt: new Date().toISOString() });
    for (const reply of [
      await hoursEntries(imei),
      await callAs(rt.url, 'POST', hoursPath(imei), admin, { time: past, value: 11 }),
      await callAs(rt.url, 'DELETE', `${hoursPath(imei)}/${id}`, admin),
      await odometerEntries(imei),
      await put(imei, { odometer: 5, name: 'Not saved' }),
    ]) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(423);
      expect(reply.body).toMatchObject({ message: 'TrackerIsLocked', errors: { lockedBy: 'Lena Locker' } });
    }
    // Other fields still save, and nothing of the refused save was written.
    expect(await ok(put(imei, { name: 'Saved' }))).toMatchObject({ name: 'Saved', operatingHours: 10 });
  });
});
