/**
 * Fuel prices and the fuel consumption and environmental reports end to end on the embedded
 * runtime: dated prices saved and refused through the settings, then hand-made drives of a diesel
 * car (a price change between its two days, a driver on the second, idling), an electric car, a
 * petrol car with its own CO2 g/km under the market price, and a car without fuel settings, each
 * report's figures computed by hand; and the same totals in the PDF, the XLSX and the CSV.
 *
 * Trips lie in the last weeks: DynamoDB Local deletes items past their retention expiry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_PASSWORD, demoUsers } from '../../infra/local/seed';
import { addDays, localDayOf, startOfLocalDay } from '../../shared/local-time';
import type { AccountSettings } from '../../shared/schemas/administration';
import type { ReportModel } from '../../shared/schemas/reports';
import type { Trip } from '../../shared/schemas/trips';
import { callAs, callerFor, type Caller } from '../support/api-caller';
import { eventually } from '../support/eventually';
import { newReportUnit, storeDrive } from '../support/report-drives';
import { expectTotalsInEveryOutput } from '../support/report-outputs';
import { startRuntime } from '../support/runtime';
import { createTestUser } from '../support/sessions';

const STOCKHOLM = 'Europe/Stockholm';
const SETTINGS = '/api/v1/administration/settings';
let rt: EmbeddedRuntime;
let admin: Caller;
let other: Caller;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body, STOCKHOLM);
const report = (kind: string, params: Record<string, string>) => call<ReportModel>('GET', `/api/v1/user/reports/${kind}?${new URLSearchParams(params)}`, admin);
const daysAgo = (n: number) => localDayOf(Date.now() - n * 86_400_000, STOCKHOLM);
const at = (day: string, hour: number) => startOfLocalDay(day, STOCKHOLM) + hour * 3_600_000;
const drive = (imei: string, day: string, hour: number, km: number, idleS: number) =>
  storeDrive(imei, { at: at(day, hour), minutes: 40, counterM: 10_000_000 + hour * 100_000, distanceM: km * 1000, movingS: 1800, idleS, maxSpeedKmh: 90 });

let day1: string;
let day2: string;
let diesel: string;
let ev: string;
let petrol: string;
let bare: string;

beforeAll(async () => {
  rt = await startRuntime();
  admin = await callerFor(demoUsers.admin.username, DEMO_PASSWORD);
  const stranger = await createTestUser();
  other = await callerFor(stranger.username, stranger.password);
  day1 = daysAgo(20);
  day2 = addDays(day1, 1);

  diesel = await newReportUnit(admin.accountId, 'Fuel diesel', 700);
  ev = await newReportUnit(admin.accountId, 'Fuel electric', 701);
  petrol = await newReportUnit(admin.accountId, 'Fuel petrol', 702);
  bare = await newReportUnit(admin.accountId, 'Fuel unknown', 703);
  const units = '/api/v1/user/units';
  expect((await call('PUT', `${units}/${diesel}`, admin, { fuelType: 'diesel', consumption: 0.6, co2: 0, idleConsumption: 1.2 })).status).toBe(200);
  expect((await call('PUT', `${units}/${ev}`, admin, { fuelType: 'electricity', consumption: 2, co2: 0 })).status).toBe(200);
  expect((await call('PUT', `${units}/${petrol}`, admin, { fuelType: 'petrol', consumption: 0.7, co2: 150 })).status).toBe(200);

  const department = await call<{ id: string }>('POST', '/api/v1/administration/organisation/departments', admin, { name: 'Service' });
  expect(department.status).toBeLessThan(300);
  expect((await call('PUT', `/api/v1/administration/organisation/departments/${department.body.data?.id}/assignments`, admin, { imeis: [diesel] })).status).toBeLessThan(300);

  // Diesel: 50 km with 10 min idling on day 1, 30 km with 5 min idling on day 2 by the admin; 100 km
  // two days before (the environmental report's previous period). The others: one drive on day 1.
  await drive(diesel, day1, 8, 50, 600);
  const second = await drive(diesel, day2, 8, 30, 300);
  await drive(diesel, addDays(day1, -2), 8, 100, 0);
  await drive(ev, day1, 9, 40, 0);
  await drive(petrol, day1, 10, 20, 0);
  await drive(bare, day1, 11, 10, 0);
  expect((await call<Trip>('PUT', `/api/v1/user/trips/${second}`, admin, { driverId: admin.userId })).status).toBe(200);

  // The market price (SEK/l, from always: petrol), diesel 20.00 then 22.50 from day 2, electricity 1.50/kWh.
  const saved = await call<AccountSettings>('PUT', SETTINGS, admin, {
    fuelPrice: 19,
    fuelPrices: [
      { fuelType: 'diesel', validFrom: day2, price: 22.5 },
      { fuelType: 'electricity', validFrom: day1, price: 1.5 },
      { fuelType: 'diesel', validFrom: '2020-01-01', price: 20 },
    ],
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);

  // The day rollups follow the trip writes (and the driver's edit) through their queue.
  const params = { imeis: [diesel, ev, petrol, bare].join(','), from: day1, to: day2 };
  await eventually(
    () => report('fuelConsumption', params),
    (r) => r.status !== 200 || (r.body.data?.totals['distance'] === 150 && (r.body.data?.units ?? []).some((u) => u.rows.some((row) => row['driverId'] === admin.userId))),
    'the day rollups of the drives',
  );
  await eventually(
    () => report('environmental', params),
    (r) => r.status !== 200 || r.body.data?.totals['previousCo2Kg'] === 15.96,
    'the day rollup of the previous period',
  );
});

afterAll(async () => {
  await rt?.stop();
});

describe('dated fuel prices in the settings', () => {
  it('answers the market price as before and the dated prices by fuel and day; another account keeps its own', async () => {
    const data = (await call<AccountSettings>('GET', SETTINGS, admin)).body.data;
    expect(data?.fuelPrice).toBe(19);
    expect(data?.fuelPrices).toEqual([
      { fuelType: 'diesel', validFrom: '2020-01-01', price: 20 },
      { fuelType: 'diesel', validFrom: day2, price: 22.5 },
      { fuelType: 'electricity', validFrom: day1, price: 1.5 },
    ]);
    expect((await call<AccountSettings>('GET', SETTINGS, other)).body.data).toMatchObject({ fuelPrice: null, fuelPrices: [] });
    // A save without the list leaves it as it is.
    expect((await call<AccountSettings>('PUT', SETTINGS, admin, { fuelPrice: 19 })).body.data?.fuelPrices).toHaveLength(3);
  });

  it('refuses a bad price, date or fuel, and two prices of one fuel on one day, each with its key', async () => {
    const errors = async (fuelPrices: unknown) => (await call('PUT', SETTINGS, other, { fuelPrices })).body.errors;
    expect(await errors([{ fuelType: 'diesel', validFrom: '2026-01-01', price: 0 }])).toEqual({ 'fuelPrices.0.price': ['FuelPriceOutOfRange'] });
    expect(await errors([{ fuelType: 'diesel', validFrom: '2026-01-01', price: 1000.01 }])).toEqual({ 'fuelPrices.0.price': ['FuelPriceOutOfRange'] });
    expect(await errors([{ fuelType: 'diesel', validFrom: '2026-02-30', price: 20 }])).toEqual({ 'fuelPrices.0.validFrom': ['FuelPriceDateInvalid'] });
    expect(await errors([{ fuelType: 'coal', validFrom: '2026-01-01', price: 20 }])).toEqual({ 'fuelPrices.0.fuelType': ['FuelPriceTypeInvalid'] });
    expect(
      await errors([
        { fuelType: 'diesel', validFrom: '2026-01-01', price: 20 },
        { fuelType: 'petrol', validFrom: '2026-01-01', price: 20 },
        { fuelType: 'diesel', validFrom: '2026-01-01', price: 21 },
      ]),
    ).toEqual({ 'fuelPrices.2.validFrom': ['DuplicateFuelPriceDay'] });
    expect(await errors(Array.from({ length: 501 }, (_, i) => ({ fuelType: 'diesel', validFrom: addDays('2020-01-01', i), price: 20 })))).toEqual({ fuelPrices: ['TooManyFuelPrices'] });
    expect((await call<AccountSettings>('GET', SETTINGS, other)).body.data?.fuelPrices).toEqual([]);
  });
});

describe('idle consumption on the unit', () => {
  it('answers it, refuses 0 and over 20 per hour with its key, and clears it with null', async () => {
    const path = `/api/v1/user/units/${bare}`;
    expect((await call<{ idleConsumption: number | null }>('GET', `/api/v1/user/units/${diesel}`, admin)).body.data?.idleConsumption).toBe(1.2);
    for (const idleConsumption of [0, 20.5, 'a lot']) expect((await call('PUT', path, admin, { idleConsumption })).body.errors).toEqual({ idleConsumption: ['IdleConsumptionInvalid'] });
    expect((await call<{ idleConsumption: number | null }>('PUT', path, admin, { idleConsumption: 0.8 })).body.data?.idleConsumption).toBe(0.8);
    expect((await call<{ idleConsumption: number | null }>('PUT', path, admin, { idleConsumption: null })).body.data?.idleConsumption).toBeNull();
  });
});

describe('GET /api/v1/user/reports/fuelConsumption', () => {
  it('fuel per unit, driver and month with each day at the price in force; a unit without consumption gets a note', async () => {
    const res = await report('fuelConsumption', { imeis: [diesel, ev, petrol, bare].join(','), from: day1, to: day2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const model = res.body.data as ReportModel;
    expect(model.columns.map((c) => c.key)).toEqual(['unitName', 'registrationNumber', 'driverName', 'period', 'fuelType', 'distance', 'idleSeconds', 'idleFuel', 'litres', 'kWh', 'cost', 'averagePrice']);
    const unit = (imei: string) => model.units.find((u) => u.imei === imei);
    // Diesel day 1: 50 / 10 × 0.6 = 3.0 l + 600 s × 1.2 l/h = 0.2 l → 3.2 l × 20.00 = 64.00 SEK.
    // Day 2 (after the change): 30 / 10 × 0.6 = 1.8 l + 300 s × 1.2 l/h = 0.1 l → 1.9 l × 22.50 = 42.75 SEK.
    const byDriver = Object.fromEntries((unit(diesel)?.rows ?? []).map((r) => [String(r['driverId']), r]));
    expect(byDriver['null']).toMatchObject({ distance: 50, idleSeconds: 600, idleFuel: 0.2, litres: 3.2, cost: 64, averagePrice: 20, driverName: 'No driver', fuelType: 'Diesel fuel' });
    expect(byDriver[admin.userId]).toMatchObject({ distance: 30, idleSeconds: 300, idleFuel: 0.1, litres: 1.9, cost: 42.75, averagePrice: 22.5 });
    expect(unit(diesel)?.totals).toMatchObject({ distance: 80, idleSeconds: 900, idleFuel: 0.3, litres: 5.1, kWh: null, cost: 106.75, averagePrice: 20.93 });
    // Electricity: 40 / 10 × 2 = 8 kWh × 1.50 = 12.00 SEK; the market price per litre does not apply.
    expect(unit(ev)?.totals).toMatchObject({ distance: 40, litres: null, kWh: 8, cost: 12, idleFuel: null });
    // Petrol has no dated price: the market price, 20 / 10 × 0.7 = 1.4 l × 19.00 = 26.60 SEK.
    expect(unit(petrol)?.totals).toMatchObject({ distance: 20, litres: 1.4, cost: 26.6 });
    // No consumption: no fuel and no cost, not zeros, and a note.
    expect(unit(bare)?.totals).toMatchObject({ distance: 10, litres: null, cost: null });
    expect(unit(bare)?.notes).toEqual(['Fuel unknown has no consumption per 10 km: its fuel and cost are not counted.']);
    expect(model.totals).toMatchObject({ distance: 150, litres: 6.5, kWh: 8, cost: 145.35 });
    expect(model.notes).toContain(`Prices used for Diesel fuel: 20.00 SEK/l from 2020-01-01; 22.50 SEK/l from ${day2}.`);
    expect(model.notes).toContain('Prices used for Petrol: 19.00 SEK/l (the market fuel price).');
  });

  it('shows the same totals in the PDF, the XLSX and the CSV', async () => {
    const params = { imeis: [diesel, ev, petrol, bare].join(','), from: day1, to: day2 };
    await expectTotalsInEveryOutput(rt.url, admin, STOCKHOLM, (await report('fuelConsumption', params)).body.data as ReportModel, params);
  });
});

describe('GET /api/v1/user/reports/environmental', () => {
  it('CO2 tank-to-wheel and well-to-wheel with the factor beside it, g/km, and the change against the previous period', async () => {
    const res = await report('environmental', { imeis: [diesel, ev, petrol, bare].join(','), from: day1, to: day2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const model = res.body.data as ReportModel;
    const unit = (imei: string) => model.units.find((u) => u.imei === imei);
    // Diesel: 5.1 l × 2.66 = 13.566 kg TTW, × 2.853 = 14.550 kg WTW over 80 km: 170 and 182 g/km.
    expect(unit(diesel)?.totals).toMatchObject({ distance: 80, litres: 5.1, co2Kg: 13.566, wtwCo2Kg: 14.55, ttwGPerKm: 170, wtwGPerKm: 182 });
    expect(unit(diesel)?.rows.every((r) => r['department'] === 'Service' && r['ttwFactor'] === '2.660 kg/l' && r['wtwFactor'] === '2.853 kg/l')).toBe(true);
    // The two days before: 100 km, 6.0 l → 15.96 kg TTW; 13.566 is 15.0 % less.
    const facts = Object.fromEntries((unit(diesel)?.facts ?? []).map((f) => [f.key, f.value]));
    expect(facts).toMatchObject({ previousCo2Kg: 15.96, co2Change: -15, previousWtwCo2Kg: 17.118, wtwChange: -15 });
    // Petrol with its own 150 g/km: 20 km → 3.000 kg TTW; WTW scaled by 2.89 / 2.32 → 3.737 kg.
    expect(unit(petrol)?.totals).toMatchObject({ co2Kg: 3, wtwCo2Kg: 3.737, ttwGPerKm: 150 });
    expect(unit(petrol)?.rows[0]?.['ttwFactor']).toBe("150 g/km (the unit's own)");
    // Electricity: nothing burns in the car; 8 kWh × 0.047 = 0.376 kg WTW.
    expect(unit(ev)?.totals).toMatchObject({ kWh: 8, co2Kg: 0, wtwCo2Kg: 0.376 });
    expect(unit(bare)?.totals).toMatchObject({ distance: 10, co2Kg: null, wtwCo2Kg: null });
    expect(unit(bare)?.notes).toHaveLength(1);
    expect(unit(bare)?.rows[0]?.['department']).toBe('No department');
    // The fleet: 13.566 + 3 + 0 kg over the 140 km that have a figure → 118 g/km.
    expect(model.totals).toMatchObject({ distance: 150, co2Kg: 16.566, wtwCo2Kg: 18.663, ttwGPerKm: 118, previousCo2Kg: 15.96 });
    expect(model.notes.some((n) => n.startsWith('Diesel fuel: tank-to-wheel 2.660 kg/l (combustion only, fossil fuel without blend; Miljødirektoratet'))).toBe(true);
    expect(model.charts[0]?.series.map((s) => s.label).sort()).toEqual(['No department', 'Service']);
  });

  it('shows the same totals in the PDF, the XLSX and the CSV', async () => {
    const params = { imeis: [diesel, ev, petrol, bare].join(','), from: day1, to: day2 };
    await expectTotalsInEveryOutput(rt.url, admin, STOCKHOLM, (await report('environmental', params)).body.data as ReportModel, params);
  });
});
