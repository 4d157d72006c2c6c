/**
 * The unit-images table (partition `imei`, sort `slot` 1..MAX_UNIT_IMAGES): one item per picture
 * slot of a unit. Taking a slot is a put conditional on the slot being as it was read (free, an
 * upload that expired, or a leftover of the unit's previous owner), so concurrent uploads can never
 * hold more than MAX_UNIT_IMAGES slots (docs/decisions/0019-unit-pictures.md). Every later change
 * of a slot is conditional on the picture id it holds.
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { imageContentTypes } from '../../../shared/schemas/unit-images';
import { isConditionFailure } from '../../platform/conditions';
import { dynamo, tableName } from '../../platform/db';

export const imageSlotSchema = z.object({
  imei: z.string(),
  slot: z.number().int().min(1),
  accountId: z.string().min(1),
  id: z.string().min(1),
  /** pending: reserved for an upload until `reservedUntil`; ready: checked and shown. */
  state: z.enum(['pending', 'ready']),
  /** The file's key in the FileStore. */
  key: z.string().min(1),
  contentType: z.enum(imageContentTypes),
  size: z.number().int().nonnegative(),
  /** Epoch ms. */
  reservedUntil: z.number(),
  /** Epoch ms, once ready. */
  uploadedAt: z.number().optional(),
  createdBy: z.string(),
});
export type ImageSlot = z.infer<typeof imageSlotSchema>;

/** Every slot item of a unit, read strongly consistent (a reservation decides on them); items that do not parse are left out. */
export async function slotsOf(imei: string): Promise<ImageSlot[]> {
  const out = await dynamo().send(
    new QueryCommand({ TableName: tableName('unitImages'), KeyConditionExpression: 'imei = :i', ExpressionAttributeValues: { ':i': imei }, ConsistentRead: true }),
  );
  return (out.Items ?? []).flatMap((raw) => {
    const parsed = imageSlotSchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * Puts `item` into its slot if the slot still holds what was read: nothing (`seen` null) or the
 * same picture id. False when another request changed the slot first.
 */
export async function claimSlot(item: ImageSlot, seen: Pick<ImageSlot, 'id'> | null, expiresAtSeconds: number): Promise<boolean> {
  try {
    await dynamo().send(
      new PutCommand({
        TableName: tableName('unitImages'),
        Item: { ...item, expiresAt: expiresAtSeconds },
        ...(seen
          ? { ConditionExpression: '#id = :seen', ExpressionAttributeNames: { '#id': 'id' }, ExpressionAttributeValues: { ':seen': seen.id } }
          : { ConditionExpression: 'attribute_not_exists(imei)' }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A pending slot becomes a shown picture; false when the slot no longer holds this pending upload. */
export async function markReady(slot: Pick<ImageSlot, 'imei' | 'slot' | 'id'>, ready: Pick<ImageSlot, 'key' | 'contentType' | 'size'> & { uploadedAt: number }): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('unitImages'),
        Key: { imei: slot.imei, slot: slot.slot },
        UpdateExpression: 'SET #state = :ready, #key = :key, contentType = :type, #size = :size, uploadedAt = :at REMOVE expiresAt',
        ConditionExpression: '#id = :id AND #state = :pending',
        ExpressionAttributeNames: { '#state': 'state', '#key': 'key', '#size': 'size', '#id': 'id' },
        ExpressionAttributeValues: { ':ready': 'ready', ':pending': 'pending', ':key': ready.key, ':type': ready.contentType, ':size': ready.size, ':at': ready.uploadedAt, ':id': slot.id },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Frees a slot if it still holds this picture; false otherwise. */
export async function removeSlot(slot: Pick<ImageSlot, 'imei' | 'slot' | 'id'>): Promise<boolean> {
  try {
    await dynamo().send(
      new DeleteCommand({
        TableName: tableName('unitImages'),
        Key: { imei: slot.imei, slot: slot.slot },
        ConditionExpression: '#id = :id',
        ExpressionAttributeNames: { '#id': 'id' },
        ExpressionAttributeValues: { ':id': slot.id },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
