/**
 * The DynamoDB tables of shared/tables.ts (those not embeddedOnly), named like `physicalTableName`
 * does for the handlers: `<stack name>-<table>`. On demand, except the tables the manifest gives
 * `provisioned` capacity: those (and each of their indexes) get reads and writes that auto
 * scaling keeps at the manifest's target utilisation between its minimum and maximum
 * (docs/decisions/0050-provisioned-steady-tables.md).
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { physicalTableName, tableList, type CapacityRange, type KeyDef, type ProvisionedCapacity, type TableDef } from '../../shared/tables';

const attribute = (key: KeyDef): dynamodb.Attribute => ({
  name: key.name,
  type: key.type === 'N' ? dynamodb.AttributeType.NUMBER : dynamodb.AttributeType.STRING,
});

const pascal = (name: string) => name.replace(/(^|[-_])([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase());

/** An index's range, the table's when the manifest names none for it. */
function indexCapacity(def: TableDef, index: string): { writes: CapacityRange; reads: CapacityRange } {
  const p = def.provisioned as ProvisionedCapacity;
  return p.indexes?.[index] ?? { writes: p.writes, reads: p.reads };
}

/** Target tracking of the consumed capacity, for the table and every index, reads and writes. */
function autoScale(table: dynamodb.Table, def: TableDef, p: ProvisionedCapacity): void {
  const target = { targetUtilizationPercent: p.targetUtilizationPercent };
  const range = (r: CapacityRange) => ({ minCapacity: r.min, maxCapacity: r.max });
  table.autoScaleWriteCapacity(range(p.writes)).scaleOnUtilization(target);
  table.autoScaleReadCapacity(range(p.reads)).scaleOnUtilization(target);
  for (const index of def.indexes ?? []) {
    const c = indexCapacity(def, index.name);
    table.autoScaleGlobalSecondaryIndexWriteCapacity(index.name, range(c.writes)).scaleOnUtilization(target);
    table.autoScaleGlobalSecondaryIndexReadCapacity(index.name, range(c.reads)).scaleOnUtilization(target);
  }
}

export interface DataTablesProps {
  /** `<stack name>-`, the TABLE_PREFIX of the functions. */
  readonly prefix: string;
  readonly definitions?: readonly TableDef[];
}

export class DataTables extends Construct {
  /** By manifest table name (`rate-limits`), deployed tables only. */
  readonly byName = new Map<string, dynamodb.Table>();
  /** The physical names, by manifest table name: plain strings, known at synth time. */
  readonly physicalNames = new Map<string, string>();

  constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    for (const def of props.definitions ?? tableList) {
      if (def.embeddedOnly) continue;
      const table = new dynamodb.Table(this, pascal(def.name), {
        tableName: physicalTableName(props.prefix, def),
        partitionKey: attribute(def.partitionKey),
        ...(def.sortKey ? { sortKey: attribute(def.sortKey) } : {}),
        ...(def.provisioned
          ? { billingMode: dynamodb.BillingMode.PROVISIONED, readCapacity: def.provisioned.reads.min, writeCapacity: def.provisioned.writes.min }
          : { billingMode: dynamodb.BillingMode.PAY_PER_REQUEST }),
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: true,
        encryption: dynamodb.TableEncryption.AWS_MANAGED,
        ...(def.ttlAttribute ? { timeToLiveAttribute: def.ttlAttribute } : {}),
        ...(def.infrequentAccess ? { tableClass: dynamodb.TableClass.STANDARD_INFREQUENT_ACCESS } : {}),
        // Customer data: a stack deletion must never take it along.
        removalPolicy: RemovalPolicy.RETAIN,
      });
      for (const index of def.indexes ?? []) {
        table.addGlobalSecondaryIndex({
          indexName: index.name,
          partitionKey: attribute(index.partitionKey),
          ...(index.sortKey ? { sortKey: attribute(index.sortKey) } : {}),
          ...(index.include ? { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.include] } : { projectionType: dynamodb.ProjectionType.ALL }),
          ...(def.provisioned ? { readCapacity: indexCapacity(def, index.name).reads.min, writeCapacity: indexCapacity(def, index.name).writes.min } : {}),
        });
      }
      if (def.provisioned) autoScale(table, def, def.provisioned);
      this.byName.set(def.name, table);
      this.physicalNames.set(def.name, physicalTableName(props.prefix, def));
    }
  }

  get all(): dynamodb.Table[] {
    return [...this.byName.values()];
  }
}
