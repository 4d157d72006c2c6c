/**
 * Unit pictures end to end on the embedded runtime: every validation key of a declared file, the
 * upload through the signed file route (exact size and type, expiry, forged tokens), the check of
 * the stored bytes by their first bytes (a renamed text file, a JPEG declared as PNG, a file larger
 * than 1 MB that the store took anyway), the list with working view URLs, delete, the 5-per-unit
 * limit with concurrent reservations and lapsed ones, and another account's token (and a user not
 * granted the unit) getting nothing.
 */
import http from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImageUpload, UnitImage, UnitImageList } from '../../shared/schemas/unit-images';
import { MAX_IMAGE_BYTES } from '../../shared/schemas/unit-images';
import { getPorts, overridePorts } from '../../functions/platform/container';
import { dynamo, tableName } from '../../functions/platform/db';
import { asLocalFileStore } from '../../functions/platform/adapters/embedded/file-store';
import { systemClock } from '../../functions/platform/adapters/system-clock';
import type { UnitRecord } from '../../functions/domain/unit/schema';
import { slotsOf } from '../../functions/units/images/image-repository';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { demoImei } from '../../infra/local/seed';
import { DEMO_REGISTERED_AT } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { callAs, demoCallers, type Caller, type Reply } from '../support/api-caller';

let rt: EmbeddedRuntime;
let admin: Caller;
let user: Caller;
let other: Caller;
let spare = 0;

const call = <T>(method: string, path: string, who: Caller | null, body?: unknown) => callAs<T>(rt.url, method, path, who, body);
const images = (imei: string) => `/api/v1/user/units/${imei}/images`;
const reserve = (imei: string, body: unknown, who: Caller | null = admin) => call<ImageUpload>('POST', images(imei), who, body);
const confirm = (imei: string, id: string, who: Caller = admin) => call<UnitImage>('POST', `${images(imei)}/${id}/confirm`, who);
const remove = (imei: string, id: string, who: Caller = admin) => call<null>('DELETE', `${images(imei)}/${id}`, who);
const list = (imei: string, who: Caller | null = admin) => call<UnitImageList>('GET', images(imei), who);
const errorsOf = async (reply: Promise<Reply<unknown>>) => {
  const r = await reply;
  expect(r.status, JSON.stringify(r.body)).toBe(422);
  return r.body.errors;
};

/** A real 1x1 PNG, and a JPEG's first bytes followed by filler. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]), Buffer.alloc(200, 7), Buffer.from([0xff, 0xd9])]);
const TEXT = Buffer.from('This is a shopping list, not a picture.\n'.repeat(10));
const png = (bytes: Buffer = PNG, name = 'boat.png') => ({ fileName: name, contentType: 'image/png', size: bytes.length });

/** A unit of an account of its own, so each test counts its own pictures. */
async function newUnit(accountId = admin.accountId): Promise<string> {
  const imei = demoImei(700 + spare++);
  const unit: UnitRecord = { imei, accountId, name: `Picture boat ${imei}`, vehicleType: 'boat', protocol: 'native', createdAt: DEMO_REGISTERED_AT.toISOString() };
  await dynamo().send(new PutCommand({ TableName: tableName('units'), Item: unit }));
  return imei;
}

/** One raw request, as a browser sends to an upload or view URL (relative URLs are the runtime's own). */
function rawRequest(method: string, url: string, headers: Record<string, string> = {}, body?: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const target = new URL(url, rt.url);
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}
const upload = (target: ImageUpload['upload'], bytes: Buffer, headers: Record<string, string> = target.headers) => rawRequest(target.method, target.url, headers, bytes);

/** Reserve, upload and confirm one picture; answers the picture. */
async function addPicture(imei: string, bytes: Buffer = PNG, who: Caller = admin): Promise<UnitImage> {
  const reserved = await reserve(imei, png(bytes), who);
  expect(reserved.status, JSON.stringify(reserved.body)).toBe(201);
  const data = reserved.body.data as ImageUpload;
  expect((await upload(data.upload, bytes)).status).toBe(200);
  const confirmed = await confirm(imei, data.id, who);
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return confirmed.body.data as UnitImage;
}

beforeAll(async () => {
  rt = await startRuntime();
  ({ admin, user, other } = await demoCallers());
});

afterAll(async () => {
  await rt?.stop();
});

afterEach(() => overridePorts({ clock: systemClock }));

describe('declaring a picture: validation', () => {
  it('answers every field problem with its message key', async () => {
    const imei = await newUnit();
    expect(await errorsOf(reserve(imei, { contentType: 'image/png', size: 10 }))).toEqual({ fileName: ['ImageFileNameRequired'] });
    expect(await errorsOf(reserve(imei, { ...png(), fileName: '   ' }))).toEqual({ fileName: ['ImageFileNameRequired'] });
    expect(await errorsOf(reserve(imei, { ...png(), fileName: `${'x'.repeat(200)}.png` }))).toEqual({ fileName: ['ImageFileNameTooLong'] });
    expect(await errorsOf(reserve(imei, { ...png(), fileName: 'boat.gif' }))).toEqual({ fileName: ['ImageTypeNotAllowed'] });
    expect(await errorsOf(reserve(imei, { ...png(), fileName: 'boat.png.exe' }))).toEqual({ fileName: ['ImageTypeNotAllowed'] });
    expect(await errorsOf(reserve(imei, { ...png(), contentType: 'image/gif' }))).toEqual({ contentType: ['ImageTypeNotAllowed'] });
    expect(await errorsOf(reserve(imei, { ...png(), contentType: undefined }))).toEqual({ contentType: ['ImageTypeNotAllowed'] });
    expect(await errorsOf(reserve(imei, { ...png(), size: 0 }))).toEqual({ size: ['ImageEmpty'] });
    expect(await errorsOf(reserve(imei, { ...png(), size: 10.5 }))).toEqual({ size: ['ImageEmpty'] });
    expect(await errorsOf(reserve(imei, { ...png(), size: MAX_IMAGE_BYTES + 1 }))).toEqual({ size: ['ImageTooLarge'] });
    expect(await errorsOf(reserve(imei, { fileName: 'a.bmp', contentType: 'image/bmp', size: 2 * MAX_IMAGE_BYTES }))).toEqual({
      fileName: ['ImageTypeNotAllowed'],
      contentType: ['ImageTypeNotAllowed'],
      size: ['ImageTooLarge'],
    });
    // The limits themselves are allowed: 1 MB exactly, .jpg, .jpeg and upper case.
    expect((await reserve(imei, { ...png(), size: MAX_IMAGE_BYTES })).status).toBe(201);
    expect((await reserve(imei, { fileName: 'BOAT.JPG', contentType: 'image/jpeg', size: 5 })).status).toBe(201);
    expect((await reserve(imei, { fileName: 'boat.jpeg', contentType: 'image/jpeg', size: 5 })).status).toBe(201);
    expect((await list(imei)).body.data?.images).toEqual([]);
  });
});

describe('uploading and confirming', () => {
  it('keeps a PNG and a JPEG, lists them with URLs that show their bytes, oldest first', async () => {
    const imei = await newUnit();
    const first = await addPicture(imei, PNG);
    const second = await addPicture(imei, JPEG);
    expect(first).toMatchObject({ contentType: 'image/png', size: PNG.length });
    const listed = (await list(imei)).body.data as UnitImageList;
    expect(listed.max).toBe(5);
    expect(listed.maxBytes).toBe(MAX_IMAGE_BYTES);
    expect(listed.images.map((i) => i.id)).toEqual([first.id, second.id]);
    const [a, b] = listed.images as [UnitImage, UnitImage];
    const shownA = await rawRequest('GET', a.url);
    expect(shownA.status).toBe(200);
    expect(shownA.headers['content-type']).toBe('image/png');
    expect(shownA.headers['x-content-type-options']).toBe('nosniff');
    expect(shownA.body.equals(PNG)).toBe(true);
    const shownB = await rawRequest('GET', b.url);
    expect(shownB.headers['content-type']).toBe('image/jpeg');
    expect(shownB.body.equals(JPEG)).toBe(true);
    // The files moved out of pending/ into the unit's folder.
    const slots = await slotsOf(imei);
    expect(slots.map((s) => s.key).sort()).toEqual([`units/${imei}/${first.id}`, `units/${imei}/${second.id}`].sort());
    expect(await getPorts().files.readHead(`pending/${imei}/${first.id}`, 8)).toBeNull();
  });

  it('types a picture by its bytes: a JPEG declared as a PNG is kept as a JPEG', async () => {
    const imei = await newUnit();
    const picture = await addPicture(imei, JPEG);
    expect(picture.contentType).toBe('image/jpeg');
    expect((await rawRequest('GET', picture.url)).headers['content-type']).toBe('image/jpeg');
  });

  it('refuses a renamed non-image by its content, deletes its file and frees its slot', async () => {
    const imei = await newUnit();
    const reserved = (await reserve(imei, png(TEXT, 'holiday.png'))).body.data as ImageUpload;
    expect((await upload(reserved.upload, TEXT)).status).toBe(200);
    expect(await errorsOf(confirm(imei, reserved.id))).toEqual({ file: ['ImageTypeNotAllowed'] });
    expect(await getPorts().files.readHead(`pending/${imei}/${reserved.id}`, 8)).toBeNull();
    expect(await slotsOf(imei)).toEqual([]);
    expect((await list(imei)).body.data?.images).toEqual([]);
    // Gone: confirming again finds nothing.
    expect((await confirm(imei, reserved.id)).status).toBe(404);
  });

  it('refuses a stored file larger than 1 MB even when the store took it', async () => {
    const imei = await newUnit();
    const reserved = (await reserve(imei, png())).body.data as ImageUpload;
    // A store that let too many bytes through: the upload is written past the signed size.
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    const store = asLocalFileStore(getPorts().files);
    const oversized = await getPorts().files.createUpload(`pending/${imei}/${reserved.id}`, 'image/png', big.length, 60);
    expect(await store?.acceptUpload(oversized.url.split('/').pop() as string, 'image/png', big, new Date())).toBe('stored');
    expect(await errorsOf(confirm(imei, reserved.id))).toEqual({ file: ['ImageTooLarge'] });
    expect(await getPorts().files.readHead(`pending/${imei}/${reserved.id}`, 8)).toBeNull();
    expect(await slotsOf(imei)).toEqual([]);
  });

  it('takes only the declared size and type, before the upload URL expires, with a genuine token', async () => {
    const imei = await newUnit();
    const reserved = (await reserve(imei, png())).body.data as ImageUpload;
    expect(reserved.upload.url.startsWith('/api/v1/files/')).toBe(true);
    expect((await upload(reserved.upload, Buffer.concat([PNG, Buffer.from([0])]))).status).toBe(403);
    expect((await upload(reserved.upload, PNG.subarray(1))).status).toBe(403);
    expect((await upload(reserved.upload, PNG, { 'content-type': 'image/jpeg' })).status).toBe(403);
    const forged = { ...reserved.upload, url: reserved.upload.url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) };
    expect((await upload(forged, PNG)).status).toBe(403);
    // Nothing arrived yet: confirming is a conflict, not a picture.
    const early = await confirm(imei, reserved.id);
    expect(early.status).toBe(409);
    expect(early.body.errors).toBe('ImageNotUploaded');
    overridePorts({ clock: { now: () => new Date(Date.now() + 11 * 60_000) } });
    expect((await upload(reserved.upload, PNG)).status).toBe(403);
    overridePorts({ clock: systemClock });
    expect((await upload(reserved.upload, PNG)).status).toBe(200);
    expect((await confirm(imei, reserved.id)).status).toBe(200);
    // Confirming twice answers the same picture.
    expect((await confirm(imei, reserved.id)).body.data?.id).toBe(reserved.id);
  });

  it('refuses a body larger than 1 MB at the embedded server itself', async () => {
    const imei = await newUnit();
    const reserved = (await reserve(imei, png())).body.data as ImageUpload;
    const res = await upload(reserved.upload, Buffer.alloc(MAX_IMAGE_BYTES + 1));
    expect(res.status).toBe(413);
  });
});

describe('five pictures per unit', () => {
  it('grants exactly five of eight concurrent reservations, counting uploads under way', async () => {
    const imei = await newUnit();
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => reserve(imei, png(PNG, `p${i}.png`))));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = replies.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.errors])).toEqual(Array.from({ length: 3 }, () => [422, { file: ['TooManyImages'] }]));
    const slots = await slotsOf(imei);
    expect(slots.map((s) => s.slot).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(slots.map((s) => s.id)).size).toBe(5);
  });

  it('keeps the limit with five shown pictures, and frees a slot on delete', async () => {
    const imei = await newUnit();
    const added = await Promise.all(Array.from({ length: 5 }, () => addPicture(imei)));
    expect((await list(imei)).body.data?.images).toHaveLength(5);
    expect(await errorsOf(reserve(imei, png()))).toEqual({ file: ['TooManyImages'] });
    const gone = added[2] as UnitImage;
    expect((await remove(imei, gone.id)).status).toBe(200);
    expect((await rawRequest('GET', gone.url)).status).toBe(403);
    expect((await list(imei)).body.data?.images.map((i) => i.id)).not.toContain(gone.id);
    expect((await remove(imei, gone.id)).status).toBe(404);
    const again = await Promise.all([reserve(imei, png()), reserve(imei, png())]);
    expect(again.map((r) => r.status).sort()).toEqual([201, 422]);
  });

  it('gives a lapsed upload slot to a new one, and the lapsed upload cannot be confirmed after', async () => {
    const imei = await newUnit();
    const held = await Promise.all(Array.from({ length: 5 }, () => reserve(imei, png())));
    expect(held.every((r) => r.status === 201)).toBe(true);
    const lapsed = held[0]?.body.data as ImageUpload;
    expect((await upload(lapsed.upload, PNG)).status).toBe(200);
    overridePorts({ clock: { now: () => new Date(Date.now() + 16 * 60_000) } });
    const replies = await Promise.all(Array.from({ length: 7 }, () => reserve(imei, png())));
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5);
    overridePorts({ clock: systemClock });
    expect((await confirm(imei, lapsed.id)).status).toBe(404);
  });
});

describe('who may see and change pictures', () => {
  it("answers another account's token 404 everywhere and never hands out the pictures", async () => {
    const imei = await newUnit();
    const picture = await addPicture(imei);
    const pending = (await reserve(imei, png())).body.data as ImageUpload;
    for (const reply of [
      await list(imei, other),
      await reserve(imei, png(), other),
      await confirm(imei, pending.id, other),
      await remove(imei, picture.id, other),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body.data).toBeUndefined();
    }
    // The demo user was not granted this unit: the same.
    expect((await list(imei, user)).status).toBe(404);
    expect((await remove(imei, picture.id, user)).status).toBe(404);
    expect((await reserve(imei, png(), user)).status).toBe(404);
    // Nothing changed.
    expect((await list(imei)).body.data?.images.map((i) => i.id)).toEqual([picture.id]);
    // Their own unit's picture ids do not reach this one's either.
    const theirs = await newUnit(other.accountId);
    const theirPicture = await addPicture(theirs, PNG, other);
    expect((await remove(imei, theirPicture.id)).status).toBe(404);
    expect((await remove(theirs, theirPicture.id)).status).toBe(404);
    expect((await list(theirs)).status).toBe(404);
  });

  it('serves a file only with a view token signed by the runtime, for the key it names', async () => {
    const imei = await newUnit();
    const picture = await addPicture(imei);
    const token = picture.url.split('/').pop() as string;
    const [payload] = token.split('.');
    const otherKey = Buffer.from(JSON.stringify({ o: 'get', k: `units/${imei}/${picture.id}`, t: 'image/png', e: Date.now() + 60_000 })).toString('base64url');
    expect(otherKey).not.toBe(payload);
    expect((await rawRequest('GET', `/api/v1/files/${otherKey}.${token.split('.')[1]}`)).status).toBe(403);
    expect((await rawRequest('GET', `/api/v1/files/${payload}`)).status).toBe(403);
    // An upload token does not read, and a view token does not write.
    expect((await rawRequest('PUT', picture.url, { 'content-type': 'image/png' }, PNG)).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    const imei = await newUnit();
    expect((await list(imei, null)).status).toBe(401);
    expect((await reserve(imei, png(), null)).status).toBe(401);
  });
});
