import { randomBytes } from 'node:crypto';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { physicalTableName, type TableDef } from '../../shared/tables';
import { createTables, localDynamoClient } from './dynamo-local';

const s = (name: string) => ({ name, type: 'S' as const });
const v1: TableDef = { name: 'things', description: 'test', partitionKey: s('id') };
const v2: TableDef = { ...v1, indexes: [{ name: 'byOwner', partitionKey: s('owner'), sortKey: s('id') }] };

describe('createTables', () => {
  it('adds an index the manifest gained since the data directory was created, and is idempotent', async () => {
    const client = localDynamoClient(inject('dynamoEndpoint'));
    const prefix = `t${randomBytes(4).toString('hex')}-`;
    await createTables(client, prefix, [v1]);
    await createTables(client, prefix, [v2]);
    await createTables(client, prefix, [v2]);
    const { Table } = await client.send(new DescribeTableCommand({ TableName: physicalTableName(prefix, v2) }));
    expect(Table?.GlobalSecondaryIndexes?.map((i) => i.IndexName)).toEqual(['byOwner']);
    client.destroy();
  });
});
