/**
 * The one place where a function's entry in shared/capability-resources.ts becomes both what its
 * handlers can name and what its role may do: each declared table is put into the function's
 * TABLES variable (the only table names `tableName()` knows on AWS) and granted with the actions
 * of its access, on the table and its indexes; each declared port operation gets its actions on
 * its resources. Nothing else is granted (docs/decisions/0013-resource-grants.md).
 */
import { ArnFormat, Stack } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { FileArea, FileOperation, FunctionResources, GeocoderOperation, TableAccess } from '../../shared/capability-resources';
import { ALERT_QUEUE } from '../../shared/queues';
import { tables, type TableKey } from '../../shared/tables';
import { IDENTITY_OPERATION_ACTIONS } from './identity';
import { acknowledgeFindings } from './nag';
import { PENDING_PREFIX, PICTURES_PREFIX, REPORTS_PREFIX } from './unit-images-bucket';
import type { PortalFunction } from './portal-function';
import { LIVE_PUBLISH_TOPIC_PATTERNS, TRACKER_SUBSCRIBES, trackerTopicWith } from '../../shared/mqtt-topics';

/** The environment variable `tableName()` reads on AWS (functions/platform/env.ts). */
export const TABLES_VARIABLE = 'TABLES';

/** Key reads. No Scan: every read in a request path is a Query or GetItem on a key or index (a migration declares `scans`). */
export const DYNAMODB_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;
/** A whole table's items, for the functions that declare `scans` (one-off migrations). */
export const DYNAMODB_SCAN_ACTIONS = ['dynamodb:Scan'] as const;
/** PartiQLUpdate: a PartiQL UPDATE is an UpdateItem (ingest writes a batch's transitions with BatchExecuteStatement). */
export const DYNAMODB_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:PartiQLUpdate'] as const;

export const TABLE_ACCESS_ACTIONS: Readonly<Record<TableAccess, readonly string[]>> = {
  read: DYNAMODB_READ_ACTIONS,
  'read-write': [...DYNAMODB_READ_ACTIONS, ...DYNAMODB_WRITE_ACTIONS],
};

export const GEOCODER_OPERATION_ACTIONS: Readonly<Record<GeocoderOperation, readonly string[]>> = {
  reverse: ['geo-places:ReverseGeocode'],
  search: ['geo-places:Geocode'],
};

/** The environment variable the FileStore reads its bucket from on AWS (functions/platform/env.ts). */
export const FILES_BUCKET_VARIABLE = 'FILES_BUCKET';

type FileGrant = { actions: readonly string[]; prefix: string | null };

/**
 * What each FileStore operation does on the files bucket, by key prefix (adapters/aws/file-store.ts),
 * in the area of files the function works on (`fileArea`): unit pictures (`pending/` and `units/`)
 * or report exports (`reports/`). An operation the area has no use for is not granted in it.
 * `readHead` also needs ListBucket: without it S3 answers a missing key AccessDenied, not NoSuchKey.
 * `writeStream` is PutObject (which also allows the parts of a multipart upload) and aborting one.
 */
export const FILE_OPERATION_GRANTS: Readonly<Record<FileArea, Readonly<Partial<Record<FileOperation, readonly FileGrant[]>>>>> = {
  pictures: {
    createUpload: [{ actions: ['s3:PutObject'], prefix: PENDING_PREFIX }],
    readHead: [
      { actions: ['s3:GetObject'], prefix: PENDING_PREFIX },
      { actions: ['s3:ListBucket'], prefix: null },
    ],
    move: [
      { actions: ['s3:GetObject', 's3:DeleteObject'], prefix: PENDING_PREFIX },
      { actions: ['s3:PutObject'], prefix: PICTURES_PREFIX },
    ],
    viewUrl: [{ actions: ['s3:GetObject'], prefix: PICTURES_PREFIX }],
    delete: [
      { actions: ['s3:DeleteObject'], prefix: PENDING_PREFIX },
      { actions: ['s3:DeleteObject'], prefix: PICTURES_PREFIX },
    ],
  },
  reports: {
    viewUrl: [{ actions: ['s3:GetObject'], prefix: REPORTS_PREFIX }],
    delete: [{ actions: ['s3:DeleteObject'], prefix: REPORTS_PREFIX }],
    writeStream: [{ actions: ['s3:PutObject', 's3:AbortMultipartUpload'], prefix: REPORTS_PREFIX }],
  },
};

/** The grants of a function's FileStore operations in its area; throws on one the area does not offer. */
export function fileGrantsOf(resources: Pick<FunctionResources, 'files' | 'fileArea'>, fn: string): FileGrant[] {
  const area = resources.fileArea ?? 'pictures';
  return (resources.files ?? []).flatMap((op) => {
    const grants = FILE_OPERATION_GRANTS[area][op];
    if (!grants) throw new Error(`function ${fn}: FileStore operation ${op} is not one of the ${area} area (shared/capability-resources.ts fileArea)`);
    return grants;
  });
}

/** The environment variable the Autoplan adapter reads its secrets' name prefix from (functions/platform/env.ts). */
export const AUTOPLAN_SECRET_PREFIX_VARIABLE = 'AUTOPLAN_SECRET_PREFIX';
export const AUTOPLAN_SECRET_ACTIONS = ['secretsmanager:GetSecretValue'] as const;

/**
 * Where the accounts' Autoplan secrets live: `<stack>/autoplan/<accountId>`, created by operators
 * per account (docs/operations.md), never by the stack, so no secret value is in the template.
 */
export function autoplanSecretPrefix(stackName: string): string {
  return `${stackName}/autoplan/`;
}

/** The environment variables the Web Push adapter reads (functions/platform/env.ts). */
export const VAPID_SECRET_VARIABLE = 'VAPID_SECRET_ARN';
export const VAPID_SUBJECT_VARIABLE = 'VAPID_SUBJECT';
export const VAPID_SECRET_ACTIONS = ['secretsmanager:GetSecretValue'] as const;

/** Live topics of units, for accounts and for users (shared/mqtt-topics.ts). */
export const LIVE_TOPICS = LIVE_PUBLISH_TOPIC_PATTERNS;
/** Native trackers/{imei}/commands and Teltonika's {imei}/commands. */
export const COMMAND_TOPICS: readonly string[] = TRACKER_SUBSCRIBES.map((name) => trackerTopicWith(name, '*'));

export interface GrantTargets {
  /** Deployed tables, by manifest table name (`rate-limits`). */
  readonly tables: ReadonlyMap<string, dynamodb.ITable>;
  /** Their physical names, by manifest table name. */
  readonly tableNames: ReadonlyMap<string, string>;
  readonly userPoolArn: string;
  /** The SES identities of MAIL_FROM (its domain and its address). */
  readonly mailIdentityArns: readonly string[];
  /** `arn:<partition>:geo-places:<region>::provider/default`. */
  readonly geoPlacesProviderArn: string;
  /** The work queues (infra/constructs/work-queues.ts), for the functions that declare `queues` or `alerts`. */
  readonly workQueues?: { grantSend(fn: PortalFunction, names: readonly string[]): void };
  /** The files bucket (infra/constructs/unit-images-bucket.ts), for the functions that declare `files`. */
  readonly filesBucket?: { readonly bucketName: string; readonly bucketArn: string; arnForObjects(pattern: string): string };
  /** The VAPID keys' seed secret (infra/constructs/vapid-secret.ts) and subject, for the functions that declare `webPush`. */
  readonly vapid?: { readonly secretArn: string; readonly subject: string };
}

const pascal = (text: string) => text.replace(/(^|[-_])([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase());

/** What `bindResources` granted, for the stack's outputs and tests. */
export interface BoundResources {
  readonly tables: Readonly<Partial<Record<TableKey, TableAccess>>>;
  readonly actions: readonly string[];
}

export function bindResources(fn: PortalFunction, resources: FunctionResources, targets: GrantTargets): BoundResources {
  const stack = Stack.of(fn);
  const iotTopic = (filter: string) => stack.formatArn({ service: 'iot', resource: 'topic', resourceName: filter, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
  const grant = (sid: string, actions: readonly string[], resources: readonly string[]) => {
    fn.role.addToPrincipalPolicy(new iam.PolicyStatement({ sid, actions: [...new Set(actions)], resources: [...resources] }));
  };
  const actions: string[] = [];

  const names: Partial<Record<TableKey, string>> = {};
  for (const [key, access] of Object.entries(resources.tables) as [TableKey, TableAccess][]) {
    const def = tables[key];
    const table = targets.tables.get(def.name);
    const name = targets.tableNames.get(def.name);
    if (!table || !name) throw new Error(`function ${fn.node.id}: table ${key} is declared but not deployed`);
    names[key] = name;
    const indexes = ('indexes' in def ? def.indexes : []).map((i) => `${table.tableArn}/index/${i.name}`);
    grant(`${access === 'read' ? 'Read' : 'ReadWrite'}${pascal(def.name)}`, TABLE_ACCESS_ACTIONS[access], [table.tableArn, ...indexes]);
    actions.push(...TABLE_ACCESS_ACTIONS[access]);
  }
  for (const key of resources.scans ?? []) {
    const table = targets.tables.get(tables[key].name);
    if (!table || !resources.tables[key]) throw new Error(`function ${fn.node.id}: table ${key} is scanned but not declared in its tables`);
    grant(`Scan${pascal(tables[key].name)}`, DYNAMODB_SCAN_ACTIONS, [table.tableArn]);
    actions.push(...DYNAMODB_SCAN_ACTIONS);
  }
  fn.function.addEnvironment(TABLES_VARIABLE, JSON.stringify(names));

  if (resources.identity?.length) {
    const identity = resources.identity.flatMap((op) => IDENTITY_OPERATION_ACTIONS[op]);
    grant('Identity', identity, [targets.userPoolArn]);
    actions.push(...identity);
  }
  if (resources.geocoder?.length) {
    const geo = resources.geocoder.flatMap((op) => GEOCODER_OPERATION_ACTIONS[op]);
    grant('Geocode', geo, [targets.geoPlacesProviderArn]);
    actions.push(...geo);
  }
  if (resources.mail) {
    grant('SendMailAsMailFrom', ['ses:SendEmail'], targets.mailIdentityArns);
    actions.push('ses:SendEmail');
  }
  if (resources.sms) {
    grant('SendSms', ['sns:Publish'], ['*']);
    actions.push('sns:Publish');
  }
  const queues = [...new Set([...(resources.alerts ? [ALERT_QUEUE] : []), ...(resources.queues ?? [])])];
  if (queues.length) {
    if (!targets.workQueues) throw new Error(`function ${fn.node.id}: declares queues but the stack has no work queues yet`);
    targets.workQueues.grantSend(fn, queues);
    actions.push('sqs:SendMessage');
  }
  if (resources.files?.length) {
    const bucket = targets.filesBucket;
    if (!bucket) throw new Error(`function ${fn.node.id}: declares files but the stack has no files bucket`);
    // One statement per action, on the prefixes the declared operations need it for.
    const byAction = new Map<string, Set<string>>();
    for (const grantOf of fileGrantsOf(resources, fn.node.id)) {
      for (const action of grantOf.actions) {
        const set = byAction.get(action) ?? new Set<string>();
        set.add(grantOf.prefix === null ? bucket.bucketArn : bucket.arnForObjects(`${grantOf.prefix}*`));
        byAction.set(action, set);
      }
    }
    for (const [action, arns] of [...byAction].sort(([a], [b]) => a.localeCompare(b))) {
      grant(`Files${action.replace(/^s3:/, '')}`, [action], [...arns]);
      actions.push(action);
    }
    fn.function.addEnvironment(FILES_BUCKET_VARIABLE, bucket.bucketName);
  }
  if (resources.autoplan) {
    // The top-level stack's name: a function in a capability group's nested stack reads the same secrets.
    let root = stack;
    while (root.nestedStackParent) root = root.nestedStackParent;
    const prefix = autoplanSecretPrefix(root.stackName);
    // Secrets Manager appends a random suffix to a secret's ARN: the name prefix is matched with `*`.
    grant('ReadAutoplanSecrets', AUTOPLAN_SECRET_ACTIONS, [
      stack.formatArn({ service: 'secretsmanager', resource: 'secret', resourceName: `${prefix}*`, arnFormat: ArnFormat.COLON_RESOURCE_NAME }),
    ]);
    actions.push(...AUTOPLAN_SECRET_ACTIONS);
    fn.function.addEnvironment(AUTOPLAN_SECRET_PREFIX_VARIABLE, prefix);
  }
  if (resources.webPush) {
    if (!targets.vapid) throw new Error(`function ${fn.node.id}: declares webPush but the stack has no VAPID secret`);
    grant('ReadVapidSeed', VAPID_SECRET_ACTIONS, [targets.vapid.secretArn]);
    actions.push(...VAPID_SECRET_ACTIONS);
    fn.function.addEnvironment(VAPID_SECRET_VARIABLE, targets.vapid.secretArn);
    fn.function.addEnvironment(VAPID_SUBJECT_VARIABLE, targets.vapid.subject);
  }
  const topics = [...(resources.live ? LIVE_TOPICS : []), ...(resources.devices ? COMMAND_TOPICS : [])];
  if (topics.length) {
    grant(resources.devices ? (resources.live ? 'PublishLiveAndCommands' : 'PublishCommands') : 'PublishLive', ['iot:Publish'], topics.map(iotTopic));
    actions.push('iot:Publish');
  }

  acknowledgeFindings(fn.role, [
    ...(resources.sms
      ? [
          {
            rule: 'AwsSolutions-IAM5' as const,
            finding: /^Resource::\*$/,
            reason: 'sns:Publish to a phone number (SMS) has no resource ARN; IAM requires Resource "*" for it (besides X-Ray, see PortalFunction).',
          },
        ]
      : []),
    ...(resources.files?.length
      ? [
          {
            rule: 'AwsSolutions-IAM5' as const,
            finding: /^Resource::<[A-Za-z0-9]+\.Arn>\/(pending|units|reports)\/\*$/,
            reason:
              'Files are keyed by a unit or a job and a random id, known only at run time: pending/* for uploads before their check, units/* for checked pictures, reports/* for report exports, in the files bucket only, with the actions of the declared FileStore operations.',
          },
        ]
      : []),
    ...(resources.autoplan
      ? [
          {
            rule: 'AwsSolutions-IAM5' as const,
            finding: /^Resource::arn:[^:]+:secretsmanager:[^:]+:(<AWS::AccountId>|\d{12}):secret:.+\/autoplan\/\*$/,
            reason:
              "Each account's Autoplan secret is named after the account id, known only at run time: GetSecretValue on the stack's autoplan/ name prefix only, for the functions that declare autoplan.",
          },
        ]
      : []),
    {
      rule: 'AwsSolutions-IAM5',
      finding: /^Resource::arn:[^:]+:iot:[^:]+:(<AWS::AccountId>|\d{12}):topic\/(live\/\*\/units\/\*|live\/\*\/users\/\*\/units\/\*|trackers\/\*\/commands|\*\/commands)$/,
      reason:
        'IoT topics carry the account id and the IMEI, known only at run time: live/*/units/* and live/*/users/*/units/* for the browsers, */commands for the trackers. Limited to this account and region, to iot:Publish, and to the functions that declare live or devices.',
    },
  ]);
  return { tables: { ...resources.tables }, actions: [...new Set(actions)].sort() };
}
