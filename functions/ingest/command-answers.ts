/**
 * Teltonika devices answer a command on their data topic with `{ "RSP": "..." }` and no command
 * id. Until the command service matches answers to pending commands (it replaces the body of
 * `recordCommandAnswer`), the newest answer is kept on the unit item as an event, so it is neither
 * lost nor mistaken for a malformed position. The text is not logged: answers echo parameters.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/db';
import { isConditionFailure } from './repository';

const MAX_ANSWER_CHARS = 1000;

export interface CommandAnswer {
  text: string;
  /** Epoch ms when the broker received it. */
  receivedAt: number;
}

/** True when recorded; false when the unit already holds a newer answer. */
export async function recordCommandAnswer(imei: string, answer: CommandAnswer): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName('units'),
        Key: { imei },
        UpdateExpression: 'SET #a = :a',
        ConditionExpression: 'attribute_exists(imei) AND (attribute_not_exists(#a) OR #a.#r < :r)',
        ExpressionAttributeNames: { '#a': 'lastCommandAnswer', '#r': 'receivedAt' },
        ExpressionAttributeValues: { ':a': { text: answer.text.slice(0, MAX_ANSWER_CHARS), receivedAt: answer.receivedAt }, ':r': answer.receivedAt },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
