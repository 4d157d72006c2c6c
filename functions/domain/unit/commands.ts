/**
 * The commands service's part of the `units` item (functions/units/command-repository.ts): the
 * open command, opened and closed in the transactions that save the command, and the tracker's
 * last command answer.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { IMEI_PATTERN } from '../../../shared/validators/imei';
import { isConditionFailure } from '../../platform/conditions';
import { dynamo, tableName } from '../../platform/db';
import { openCommandSchema, type OpenCommand, type UnitItem } from './schema';
import type { UnitTransactUpdate } from './writes';

/** Keeps a tracker's command answer on its unit: true when kept, false when the unit holds a newer one (or is gone). */
export async function keepLastCommandAnswer(imei: string, answer: { text: string; receivedAt: number }): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET #a = :a',
        ConditionExpression: 'attribute_exists(imei) AND (attribute_not_exists(#a) OR #a.#r < :r)',
        ExpressionAttributeNames: { '#a': 'lastCommandAnswer', '#r': 'receivedAt' },
        ExpressionAttributeValues: { ':a': answer, ':r': answer.receivedAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
/** What the commands service reads before it opens a command: the unit's owner, its open command and whether it keeps output labels as a map. */
export interface UnitCommandState {
  accountId: string;
  open: OpenCommand | null;
  /** The item holds `doutLabels` as a map (a label is then set inside it, else the map is written whole). */
  labelsMap: boolean;
}

/** The command state of an item already read; a malformed open command reads as none. */
export function unitCommandStateOf(unit: Pick<UnitItem, 'accountId' | 'openCommand'> & { doutLabels?: unknown }): UnitCommandState {
  return { accountId: unit.accountId, open: unit.openCommand ?? null, labelsMap: isPlainMap(unit.doutLabels) };
}

const isPlainMap = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Set);

/** The unit's command state read strongly consistent; null when the unit is gone. */
export async function getUnitCommandState(imei: string): Promise<UnitCommandState | null> {
  if (!IMEI_PATTERN.test(imei)) return null;
  const out = await dynamo().send(
    new GetCommand({ TableName: tableName('units'), Key: { imei }, ConsistentRead: true, ProjectionExpression: 'accountId, openCommand, doutLabels' }),
  );
  const item = out.Item;
  if (!item || typeof item['accountId'] !== 'string') return null;
  const open = openCommandSchema.safeParse(item['openCommand']);
  return { accountId: item['accountId'], open: open.success ? open.data : null, labelsMap: isPlainMap(item['doutLabels']) };
}

/**
 * Opens `next` as the unit's command, in the transaction that saves it: only while the unit still
 * belongs to `seen.accountId` and its open command is still `seen.open`, so two commands racing
 * for one unit can never both stay open. A DOUT label is set (or, empty, removed) with it.
 */
export function openUnitCommandUpdate(imei: string, seen: UnitCommandState, next: OpenCommand, label?: { output: number; text: string }): UnitTransactUpdate {
  const names: Record<string, string> = { '#open': 'openCommand' };
  const values: Record<string, unknown> = { ':open': next, ':account': seen.accountId };
  const sets = ['#open = :open'];
  const removes: string[] = [];
  const conditions = ['attribute_exists(imei)', 'accountId = :account'];
  if (seen.open) {
    conditions.push('#open.#id = :prev');
    names['#id'] = 'id';
    values[':prev'] = seen.open.id;
  } else {
    conditions.push('attribute_not_exists(#open)');
  }
  if (label) {
    // A nested path can only be set inside an existing map, so a unit without labels gets the whole
    // map; the condition makes sure the map is still as seen.
    names['#labels'] = 'doutLabels';
    values[':map'] = 'M';
    if (seen.labelsMap) {
      conditions.push('attribute_type(#labels, :map)');
      names['#output'] = String(label.output);
      if (label.text) {
        sets.push('#labels.#output = :label');
        values[':label'] = label.text;
      } else {
        removes.push('#labels.#output');
      }
    } else {
      conditions.push('NOT attribute_type(#labels, :map)');
      if (label.text) {
        sets.push('#labels = :labels');
        values[':labels'] = { [String(label.output)]: label.text };
      }
    }
  }
  return {
    Update: {
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Closes the unit's open command `commandId` (answered) in the transaction that closes it; an acknowledged operating mode becomes the unit's. */
export function closeUnitCommandUpdate(imei: string, commandId: string, operatingMode?: UnitItem['operatingMode']): UnitTransactUpdate {
  return {
    Update: {
      TableName: tableName('units'),
      Key: { imei },
      UpdateExpression: `REMOVE #open${operatingMode ? ' SET operatingMode = :mode' : ''}`,
      ConditionExpression: '#open.#id = :id',
      ExpressionAttributeNames: { '#open': 'openCommand', '#id': 'id' },
      ExpressionAttributeValues: { ':id': commandId, ...(operatingMode ? { ':mode': operatingMode } : {}) },
    },
  };
}
