/**
 * The unit editor's writes. Fields the map, ingest and the commands read stay on the units item
 * (functions/domain/unit/schema.ts owns its schema); the object description, theft info and
 * name history live in the unit's `unit-details` item, because every position's transition
 * rewrites the units item and DynamoDB bills a write by the whole item's size.
 *
 * A save writes only the paths it was given (SET or REMOVE per field), so saves of different
 * sections never undo each other. The two logs are optimistic: a registration number change is
 * conditional on the item's `registrationRev` as read (the 2-per-24-h rule), a rename on the
 * details' `historyRev` (the last 50 names); a save that loses is planned again from a fresh read.
 */
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { z } from 'zod';
import { nameHistoryEntrySchema, objectDescriptionSchema, theftInfoSchema, type NameHistoryEntry, type ObjectDescription, type TheftInfo } from '../../../shared/schemas/unit-editor';
import { cancellationCodes, isConditionFailure } from '../../platform/conditions';
import { dynamo, tableName } from '../../platform/db';
import { getUnitItem } from '../../domain/unit/reads';
import type { UnitItem } from '../../domain/unit/schema';

const detailsSchema = z.object({
  imei: z.string(),
  accountId: z.string(),
  objectDescription: objectDescriptionSchema.optional().catch(undefined),
  theft: theftInfoSchema.optional().catch(undefined),
  nameHistory: z.array(nameHistoryEntrySchema).optional().catch(undefined),
  historyRev: z.number().int().nonnegative().optional().catch(undefined),
});
export type UnitDetailsItem = z.infer<typeof detailsSchema>;

/** The unit item (read strongly consistent) and its details; details of a previous owner read as absent (`foreign`). */
export interface UnitSeen {
  unit: UnitItem;
  details: UnitDetailsItem | null;
  /** A details item exists but belongs to another account (the IMEI was registered again). */
  foreignDetails: boolean;
}

export async function readUnit(imei: string): Promise<UnitSeen | null> {
  const [unit, out] = await Promise.all([
    getUnitItem(imei, { consistent: true }),
    dynamo().send(new GetCommand({ TableName: tableName('unitDetails'), Key: { imei }, ConsistentRead: true })),
  ]);
  if (!unit) return null;
  const parsed = out.Item ? detailsSchema.safeParse(out.Item) : null;
  const details = parsed?.success ? parsed.data : null;
  const own = details && details.accountId === unit.accountId ? details : null;
  return { unit, details: own, foreignDetails: out.Item !== undefined && own === null };
}

/** What one save writes: units item paths to set or remove, and the details. */
export interface UnitWrite {
  imei: string;
  accountId: string;
  /** Units item attributes to set (value) or remove (null). */
  unitFields: Readonly<Record<string, unknown>>;
  /** A registration number change: the log and its revision as read. */
  registration?: { changes: number[]; seenRev: number | undefined };
  /** An eco sensitivity change: the value it was read as (null: none), so that one save makes each change (and sends its command). */
  ecoSensitivitySeen?: string | null;
  details?: {
    objectDescription?: ObjectDescription;
    theft?: TheftInfo;
    /** A rename: the whole new history and the revision it was built from. */
    nameHistory?: { list: NameHistoryEntry[]; seenRev: number | undefined };
  };
  seen: UnitSeen;
}

interface Update {
  TableName: string;
  Key: { imei: string };
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

class Expr {
  private readonly sets: string[] = [];
  private readonly removes: string[] = [];
  readonly names: Record<string, string> = {};
  readonly values: Record<string, unknown> = {};
  private n = 0;
  /** The placeholder of an attribute name, one per name (DynamoDB refuses names an expression does not use). */
  name(attribute: string): string {
    const found = Object.entries(this.names).find(([, a]) => a === attribute);
    if (found) return found[0];
    const key = `#a${this.n++}`;
    this.names[key] = attribute;
    return key;
  }
  value(v: unknown): string {
    const key = `:v${this.n++}`;
    this.values[key] = v;
    return key;
  }
  set(attribute: string, v: unknown): void {
    if (v === null || v === undefined) this.removes.push(this.name(attribute));
    else this.sets.push(`${this.name(attribute)} = ${this.value(v)}`);
  }
  get update(): string {
    return [this.sets.length ? `SET ${this.sets.join(', ')}` : '', this.removes.length ? `REMOVE ${this.removes.join(', ')}` : ''].filter(Boolean).join(' ');
  }
}

function unitUpdate(write: UnitWrite): Update | null {
  const e = new Expr();
  for (const [attribute, value] of Object.entries(write.unitFields)) e.set(attribute, value);
  const conditions = [`${e.name('accountId')} = ${e.value(write.accountId)}`];
  if (write.registration) {
    const rev = e.name('registrationRev');
    e.set('registrationChanges', write.registration.changes);
    e.set('registrationRev', (write.registration.seenRev ?? 0) + 1);
    conditions.push(write.registration.seenRev === undefined ? `attribute_not_exists(${rev})` : `${rev} = ${e.value(write.registration.seenRev)}`);
  }
  if (write.ecoSensitivitySeen !== undefined) {
    const eco = e.name('ecoSensitivity');
    conditions.push(write.ecoSensitivitySeen === null ? `attribute_not_exists(${eco})` : `${eco} = ${e.value(write.ecoSensitivitySeen)}`);
  }
  if (!e.update) return null;
  return {
    TableName: tableName('units'),
    Key: { imei: write.imei },
    UpdateExpression: e.update,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: e.names,
    ExpressionAttributeValues: e.values,
  };
}

function detailsUpdate(write: UnitWrite): Update | null {
  const d = write.details;
  if (!d || (!d.objectDescription && !d.theft && !d.nameHistory)) return null;
  const e = new Expr();
  const account = e.name('accountId');
  const conditions: string[] = [];
  if (write.seen.details) {
    conditions.push(`${account} = ${e.value(write.accountId)}`);
  } else {
    // No details yet, or a previous owner's: this save starts them afresh.
    conditions.push(write.seen.foreignDetails ? `${account} <> ${e.value(write.accountId)}` : `attribute_not_exists(${e.name('imei')})`);
    e.set('accountId', write.accountId);
    if (write.seen.foreignDetails) {
      for (const stale of ['objectDescription', 'theft', 'nameHistory', 'historyRev']) {
        if (!(stale in d)) e.set(stale, null);
      }
    }
  }
  if (d.objectDescription) e.set('objectDescription', d.objectDescription);
  if (d.theft) e.set('theft', d.theft);
  if (d.nameHistory) {
    const rev = e.name('historyRev');
    e.set('nameHistory', d.nameHistory.list);
    e.set('historyRev', (d.nameHistory.seenRev ?? 0) + 1);
    if (write.seen.details) conditions.push(d.nameHistory.seenRev === undefined ? `attribute_not_exists(${rev})` : `${rev} = ${e.value(d.nameHistory.seenRev)}`);
  }
  return {
    TableName: tableName('unitDetails'),
    Key: { imei: write.imei },
    UpdateExpression: e.update,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: e.names,
    ExpressionAttributeValues: e.values,
  };
}

/**
 * Writes a save; false when it lost to another write (a condition failed or a concurrent
 * transaction touched the unit): read again and plan again.
 */
export async function writeUnit(write: UnitWrite): Promise<boolean> {
  const units = unitUpdate(write);
  const details = detailsUpdate(write);
  try {
    if (units && details) {
      await dynamo().send(new TransactWriteCommand({ TransactItems: [{ Update: units }, { Update: details }] }));
    } else if (units) {
      await dynamo().send(new UpdateCommand(units));
    } else if (details) {
      // The unit must still be the account's: checked with the details in one transaction.
      const check = {
        TableName: tableName('units'),
        Key: { imei: write.imei },
        ConditionExpression: 'accountId = :a',
        ExpressionAttributeValues: { ':a': write.accountId },
      };
      await dynamo().send(new TransactWriteCommand({ TransactItems: [{ ConditionCheck: check }, { Update: details }] }));
    }
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    const codes = cancellationCodes(error);
    if (codes?.some((c) => c === 'ConditionalCheckFailed' || c === 'TransactionConflict')) return false;
    throw error;
  }
}
