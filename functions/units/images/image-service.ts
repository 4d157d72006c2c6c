/**
 * Unit pictures: reserve a slot and hand out an upload target, check the uploaded bytes and keep
 * them, list with view URLs, delete. Access goes through the unit (functions/tracking/
 * unit-repository.ts): a unit the caller cannot see is 404, and so is a picture of another account.
 */
import { randomBytes } from 'node:crypto';
import {
  MAX_IMAGE_BYTES,
  MAX_UNIT_IMAGES,
  SNIFF_BYTES,
  sniffImageType,
  unitImageMessageKeys as keys,
  type ImageUpload,
  type ImageUploadRequest,
  type UnitImage,
  type UnitImageList,
} from '../../../shared/schemas/unit-images';
import type { AuthContext } from '../../platform/auth-context';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors';
import type { Ports } from '../../platform/ports';
import { getUnit } from '../../tracking/unit-repository';
import { claimSlot, markReady, removeSlot, slotsOf, type ImageSlot } from './image-repository';

/** How long a reserved slot waits for its upload and confirmation. */
export const RESERVATION_SECONDS = 15 * 60;
/** An upload URL is valid for less than the reservation, so a confirmation has time to follow. */
export const UPLOAD_URL_SECONDS = 10 * 60;
export const VIEW_URL_SECONDS = 15 * 60;
/** DynamoDB's TTL removes a forgotten reservation's item a day after it lapsed. */
const FORGOTTEN_SECONDS = 24 * 3600;
/** Rounds of reading the slots and trying the free ones, each lost only to a concurrent reservation. */
const CLAIM_ROUNDS = 4;

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis' | 'userId'>;

const pendingKey = (imei: string, id: string) => `pending/${imei}/${id}`;
const imageKey = (imei: string, id: string) => `units/${imei}/${id}`;
const newId = () => randomBytes(16).toString('base64url');

/** A slot that a reservation may take: empty, an upload that lapsed, or left by the unit's previous owner. */
function isFree(slot: ImageSlot | undefined, accountId: string, now: number): boolean {
  if (!slot) return true;
  if (slot.accountId !== accountId) return true;
  return slot.state === 'pending' && slot.reservedUntil <= now;
}

export async function reserveUpload(caller: Caller, imei: string, file: ImageUploadRequest, ports: Pick<Ports, 'files' | 'clock'>): Promise<ImageUpload> {
  const unit = await getUnit(caller, imei);
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const now = ports.clock.now().getTime();
    const slots = new Map((await slotsOf(unit.imei)).map((s) => [s.slot, s]));
    const free = Array.from({ length: MAX_UNIT_IMAGES }, (_, i) => i + 1).filter((n) => isFree(slots.get(n), caller.accountId, now));
    if (!free.length) break;
    for (const n of free) {
      const seen = slots.get(n) ?? null;
      const id = newId();
      const item: ImageSlot = {
        imei: unit.imei,
        slot: n,
        accountId: caller.accountId,
        id,
        state: 'pending',
        key: pendingKey(unit.imei, id),
        contentType: file.contentType,
        size: file.size,
        reservedUntil: now + RESERVATION_SECONDS * 1000,
        createdBy: caller.userId,
      };
      if (!(await claimSlot(item, seen, Math.ceil(item.reservedUntil / 1000) + FORGOTTEN_SECONDS))) continue;
      // What the slot held before is gone with it: a lapsed upload's file, a previous owner's picture.
      if (seen) await ports.files.delete(seen.key);
      const upload = await ports.files.createUpload(item.key, file.contentType, file.size, UPLOAD_URL_SECONDS);
      return { id, upload, expiresAt: new Date(item.reservedUntil).toISOString() };
    }
  }
  throw new ValidationError({ file: [keys.TooManyImages] });
}

async function ownSlot(caller: Caller, imei: string, id: string): Promise<ImageSlot> {
  const unit = await getUnit(caller, imei);
  const slot = (await slotsOf(unit.imei)).find((s) => s.id === id && s.accountId === caller.accountId);
  if (!slot) throw new NotFoundError(keys.ImageNotFound);
  return slot;
}

async function shown(slot: ImageSlot, ports: Pick<Ports, 'files'>): Promise<UnitImage> {
  return {
    id: slot.id,
    contentType: slot.contentType,
    size: slot.size,
    uploadedAt: new Date(slot.uploadedAt ?? 0).toISOString(),
    url: await ports.files.viewUrl(slot.key, slot.contentType, VIEW_URL_SECONDS),
  };
}

/**
 * Reads what was uploaded and keeps it only when its first bytes are a PNG or a JPEG and it is
 * within MAX_IMAGE_BYTES; anything else is deleted with its slot and refused with its key.
 */
export async function confirmUpload(caller: Caller, imei: string, id: string, ports: Pick<Ports, 'files' | 'clock'>): Promise<UnitImage> {
  const slot = await ownSlot(caller, imei, id);
  if (slot.state === 'ready') return shown(slot, ports);
  const stored = await ports.files.readHead(slot.key, SNIFF_BYTES);
  if (!stored) throw new ConflictError(keys.ImageNotUploaded);
  const type = sniffImageType(stored.head);
  const refusal = stored.size > MAX_IMAGE_BYTES ? keys.ImageTooLarge : stored.size === 0 ? keys.ImageEmpty : type === null ? keys.ImageTypeNotAllowed : null;
  if (refusal || !type) {
    await ports.files.delete(slot.key);
    await removeSlot(slot);
    throw new ValidationError({ file: [refusal ?? keys.ImageTypeNotAllowed] });
  }
  const key = imageKey(slot.imei, slot.id);
  await ports.files.move(slot.key, key, type);
  const uploadedAt = ports.clock.now().getTime();
  if (!(await markReady(slot, { key, contentType: type, size: stored.size, uploadedAt }))) {
    // The slot was taken by another upload after this one lapsed, or the picture was deleted.
    await ports.files.delete(key);
    throw new NotFoundError(keys.ImageNotFound);
  }
  return shown({ ...slot, state: 'ready', key, contentType: type, size: stored.size, uploadedAt }, ports);
}

export async function listImages(caller: Caller, imei: string, ports: Pick<Ports, 'files'>): Promise<UnitImageList> {
  const unit = await getUnit(caller, imei);
  const ready = (await slotsOf(unit.imei))
    .filter((s) => s.state === 'ready' && s.accountId === caller.accountId)
    .sort((a, b) => (a.uploadedAt ?? 0) - (b.uploadedAt ?? 0) || a.slot - b.slot);
  return { images: await Promise.all(ready.map((s) => shown(s, ports))), max: MAX_UNIT_IMAGES, maxBytes: MAX_IMAGE_BYTES };
}

export async function deleteImage(caller: Caller, imei: string, id: string, ports: Pick<Ports, 'files'>): Promise<void> {
  const slot = await ownSlot(caller, imei, id);
  if (!(await removeSlot(slot))) throw new NotFoundError(keys.ImageNotFound);
  await ports.files.delete(slot.key);
}
