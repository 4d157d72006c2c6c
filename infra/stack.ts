/**
 * The tracking portal on AWS, built from the manifests in shared/: one Lambda function per
 * capability behind an HTTP API, the DynamoDB tables, IoT Core rules into the ingest function,
 * Cognito, SES/SNS, Amazon Location, scheduled jobs and the web app on S3 + CloudFront.
 * Each function gets only the tables and resources its entry in shared/capability-resources.ts
 * declares (docs/decisions/0013), and the memory and timeout its settings there give it; API
 * requests are accepted only through CloudFront (0012). A manifest entry whose handler file does
 * not exist fails the synth, naming the entry and the file (0014).
 *
 * The HTTP capabilities' functions and their API routes live in one nested stack per capability
 * group (infra/capability-groups.ts), so that no stack nears CloudFormation's 500 resources; the
 * stateful resources (tables, queues, buckets, the user pool, the stream), the API itself, the
 * other functions, the alarm topic and the dashboard stay in this top-level stack.
 * docs/architecture.md has the picture; docs/decisions/0002 and 0003 the choices questioned most.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Annotations, ArnFormat, CfnOutput, Duration, Fn, NestedStack, Stack, Stage, type StackProps } from 'aws-cdk-lib';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { BASEMAP_ARCHIVE, BASEMAP_URL } from '../shared/basemap';
import { functionResources, functionSettings, INGEST_FAILURES, resolveFunctionSettings, type FunctionName, type FunctionResources, type FunctionSettings } from '../shared/capability-resources';
import { iotRules, type IotRuleDef } from '../shared/iot-rules';
import { handlerPath, routeKey, routeList, type Capability, type RouteDef } from '../shared/routes';
import { checkQueues, queueList, type QueueDef } from '../shared/queues';
import { tables } from '../shared/tables';
import { REPO_ROOT, analysisFileOf, bundleAll, httpEntry, jobEntry, sourceExists, topicEntry, type BundleRequest } from './bundling/bundle';
import { compareUsage, readResourceUsage, type ResourceUsage } from './bundling/resource-usage';
import { groupOf } from './capability-groups';
import { mailAddress, mailDomain, type PortalConfig } from './config';
import { DataTables } from './constructs/data-tables';
import { PortalHttpApi } from './constructs/http-api';
import { Identity } from './constructs/identity';
import { IngestRules, ingestFailuresBundle } from './constructs/ingest';
import { IotDataEndpoint } from './constructs/iot-endpoint';
import { JobSchedules } from './constructs/job-schedules';
import { MapsKey, geoMapsStyleUrl } from './constructs/maps-key';
import { LIVE_AUTHORIZER_FUNCTION, LiveAuthorizer, liveAuthorizerBundle, liveAuthorizerName } from './constructs/live-authorizer';
import { Monitoring } from './constructs/monitoring';
import { acknowledge, acknowledgeFindings } from './constructs/nag';
import { PortalFunction } from './constructs/portal-function';
import { bindResources, type BoundResources, type GrantTargets } from './constructs/resource-grants';
import { VapidSecret } from './constructs/vapid-secret';
import { TrackerPolicy } from './constructs/tracker-policy';
import { UnitImagesBucket, unitImagesBucketOrigin } from './constructs/unit-images-bucket';
import { WebHosting } from './constructs/web-hosting';
import { queueConsumerBundle, WorkQueues } from './constructs/work-queues';
import { checkJobs, jobs as jobManifest, type JobDef } from './jobs';

/** Function names that are not HTTP capabilities. */
const INGEST = 'ingest';
const JOBS = 'jobs';

export interface TrackingPortalStackProps extends StackProps {
  readonly config: PortalConfig;
  /** Default: shared/routes.ts (tests give their own). */
  readonly routes?: readonly RouteDef[];
  /** Default: shared/iot-rules.ts (tests give their own). */
  readonly iotRules?: readonly IotRuleDef[];
  /**
   * Stand-ins for ingest handlers (tests): the handler path a rule names
   * (`functions/ingest/handle-telemetry.ts`) -> the file to bundle instead. A rule not listed
   * here is bundled with its own file.
   */
  readonly ingestHandlers?: Readonly<Record<string, string>>;
  /** Default: infra/jobs.ts. */
  readonly jobs?: readonly JobDef[];
  /** Default: shared/queues.ts (tests add queues of their own). */
  readonly queues?: readonly QueueDef[];
  /** What each function may use; default: `functionResources` of shared/capability-resources.ts (tests add entries for their own queues). */
  readonly functionResources?: Readonly<Partial<Record<string, FunctionResources>>>;
  /** Memory and timeout per function; default: `functionSettings` of shared/capability-resources.ts. */
  readonly functionSettings?: Readonly<Partial<Record<FunctionName, FunctionSettings>>>;
  /** Default: web/dist. Deployed only when it holds index.html. */
  readonly webDist?: string;
  /** Where the Lambda bundles go; default `<cloud assembly>/.bundles` (cdk.out/.bundles). */
  readonly bundleRoot?: string;
  /** The bundle root is shared by processes that see the same sources (`bundleAll`'s `shared`). */
  readonly sharedBundleRoot?: boolean;
  /** Skips the deploy-time lookup of the IoT data endpoint (context `iotDataEndpoint`). */
  readonly iotDataEndpoint?: string;
}

interface IngestTarget {
  readonly rule: IotRuleDef;
  readonly source: string;
}

/** A handler file that a manifest entry names. */
export interface ManifestHandler {
  /** The entry and its manifest, for messages: `job command-timeouts (infra/jobs.ts)`. */
  readonly entry: string;
  /** Relative to the repository root, or absolute. */
  readonly file: string;
}

export interface HandlerManifests {
  readonly routes: readonly RouteDef[];
  readonly iotRules: readonly IotRuleDef[];
  readonly jobs: readonly JobDef[];
  readonly queues?: readonly QueueDef[];
}

/** The file bundled for a rule: its own handler, or a stand-in given for it. */
function ingestSource(rule: IotRuleDef, standIns: Readonly<Record<string, string>> = {}): string {
  const file = handlerPath(rule.handler);
  return standIns[file] ?? file;
}

/**
 * Every handler file the manifests name, with the entry that names it: what the synth checks
 * (`assertHandlerFiles`) and test/contract/manifests.test.ts imports.
 */
export function manifestHandlers(manifests: HandlerManifests, ingestStandIns?: Readonly<Record<string, string>>): ManifestHandler[] {
  return [
    ...manifests.routes.map((r) => ({ entry: `route ${routeKey(r)} (shared/routes.ts)`, file: handlerPath(r) })),
    ...manifests.iotRules.map((r) => ({ entry: `IoT rule ${r.name} (shared/iot-rules.ts)`, file: ingestSource(r, ingestStandIns) })),
    ...manifests.jobs.map((j) => ({ entry: `job ${j.name} (infra/jobs.ts)`, file: j.file })),
    ...(manifests.queues ?? []).map((q) => ({ entry: `queue ${q.name} (shared/queues.ts)`, file: q.file })),
  ];
}

/** Throws, naming every entry whose handler file does not exist and the file. */
export function assertHandlerFiles(handlers: readonly ManifestHandler[]): void {
  const missing = handlers.filter((h) => !sourceExists(h.file));
  if (missing.length) {
    throw new Error(
      `Manifest entries name handler files that do not exist (each must exist and export \`handler\`):\n  ${missing.map((h) => `${h.entry}: ${h.file}`).join('\n  ')}`,
    );
  }
}

export class TrackingPortalStack extends Stack {
  readonly tables: DataTables;
  readonly functions = new Map<string, PortalFunction>();
  readonly deadLetterQueue: sqs.Queue;
  readonly ingestRules?: IngestRules;
  readonly workQueues: WorkQueues;
  readonly jobSchedules?: JobSchedules;
  readonly trackerPolicy: TrackerPolicy;
  readonly liveAuthorizer: LiveAuthorizer;
  /** The alarms, their topic and the dashboard. */
  readonly monitoring: Monitoring;
  /** The nested stack of each capability group (infra/capability-groups.ts) that has deployed routes. */
  readonly groupStacks = new Map<string, NestedStack>();
  /** Per function: what shared/capability-resources.ts granted it. */
  readonly grants = new Map<FunctionName, BoundResources>();
  /** Per function: what it may use (shared/capability-resources.ts, or the stack's property). */
  private readonly declared: Readonly<Partial<Record<string, FunctionResources>>>;
  /** Per function: what its bundled code uses (infra/bundling/resource-usage.ts). */
  readonly resourceUsage = new Map<FunctionName, ResourceUsage>();

  constructor(scope: Construct, id: string, props: TrackingPortalStackProps) {
    super(scope, id, props);
    const { config } = props;
    const prefix = `${this.stackName}-`;

    // The manifests: every entry is deployed, and one whose handler file is missing stops the synth here.
    const deployedRoutes = (props.routes ?? routeList).filter((r) => !r.embeddedOnly);
    const rules = props.iotRules ?? iotRules;
    const jobList = props.jobs ?? jobManifest;
    const queueDefs = props.queues ?? queueList;
    checkJobs(jobList);
    checkQueues(queueDefs);
    assertHandlerFiles(manifestHandlers({ routes: deployedRoutes, iotRules: rules, jobs: jobList, queues: queueDefs }, props.ingestHandlers));
    this.declared = props.functionResources ?? functionResources;
    const settings = props.functionSettings ?? functionSettings;
    // A setting outside the limits stops the synth here too, before anything is bundled.
    for (const [name, entry] of Object.entries(settings)) resolveFunctionSettings(name as FunctionName, entry);

    // Data.
    this.tables = new DataTables(this, 'Tables', { prefix });

    // Failed deliveries of the asynchronous paths: job invocations and schedules, and what the
    // ingest failure queue could not turn into dead letters (infra/constructs/ingest.ts).
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledge(this.deadLetterQueue, [
      [
        'AwsSolutions-SQS3',
        'This queue is the dead-letter queue of the jobs function, the schedules and the ingest failure queue. Operators inspect and redrive it; a queue behind it would only move the same messages once more.',
      ],
    ]);

    // Identity, API and web front (the functions' environment needs their names).
    const identity = new Identity(this, 'Identity', { poolName: `${this.stackName}-users` });
    const iotEndpoint = new IotDataEndpoint(this, 'IotEndpoint', props.iotDataEndpoint ? { override: props.iotDataEndpoint } : {});
    // `PortalApi` (formerly `HttpApi`): the routes moved into the group stacks with a new API, since
    // one API refuses a route key twice while the old route waits for deletion.
    const api = new PortalHttpApi(this, 'PortalApi', { routeMetrics: config.apiRouteMetrics });
    const web = new WebHosting(this, 'Web', {
      brandDomains: config.brandDomains,
      apiDomainName: api.domainName,
      webDist: props.webDist ?? path.join(REPO_ROOT, 'web', 'dist'),
      ...(config.certificateArn ? { certificateArn: config.certificateArn } : {}),
      mapStyleUrl: geoMapsStyleUrl(this.region, config.mapStyle),
      liveOrigin: `wss://${iotEndpoint.address}`,
      fileOrigins: [unitImagesBucketOrigin(this)],
      selfHostedBasemap: config.selfHostedBasemap,
    });
    const appUrl = config.appUrl ?? `https://${web.distribution.distributionDomainName}`;
    // Unit pictures: uploaded and viewed by the web app's pages only (CORS), through presigned URLs.
    const pictures = new UnitImagesBucket(this, 'UnitImages', {
      allowedOrigins: [
        ...new Set([
          `https://${web.distribution.distributionDomainName}`,
          ...Object.keys(config.brandDomains).map((d) => `https://${d}`),
          ...(config.appUrl ? [config.appUrl.replace(/\/$/, '')] : []),
        ]),
      ],
      logBucket: web.logBucket,
    });

    // What a function may be granted besides its logs; each gets what its entry declares.
    const sesIdentity = (name: string) => this.formatArn({ service: 'ses', resource: 'identity', resourceName: name, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    const grantTargets: { -readonly [K in keyof GrantTargets]: GrantTargets[K] } = {
      tables: this.tables.byName,
      tableNames: this.tables.physicalNames,
      userPoolArn: identity.userPool.userPoolArn,
      mailIdentityArns: [sesIdentity(mailDomain(config.mailFrom)), sesIdentity(mailAddress(config.mailFrom))],
      geoPlacesProviderArn: this.awsProviderArn('geo-places'),
      filesBucket: pictures.bucket,
      // Web Push (docs/decisions/0048-web-push.md): the subject is the address the deployment sends e-mail from.
      vapid: { secretArn: new VapidSecret(this, 'WebPushVapid').secret.secretArn, subject: `mailto:${mailAddress(config.mailFrom)}` },
    };

    // The functions: HTTP capabilities from the route manifest, ingest when there are IoT rules, jobs when there are jobs.
    const byCapability = new Map<Capability, RouteDef[]>();
    for (const route of deployedRoutes) {
      if (route.capability === INGEST || route.capability === JOBS) {
        throw new Error(`route ${route.operationId}: capability ${route.capability} names a non-HTTP function; give the route an HTTP capability`);
      }
      byCapability.set(route.capability, [...(byCapability.get(route.capability) ?? []), route]);
    }
    const ingest: IngestTarget[] = rules.map((rule) => ({ rule, source: ingestSource(rule, props.ingestHandlers) }));

    const requests: BundleRequest[] = [...byCapability].map(([capability, routes]) => ({
      name: capability,
      entry: httpEntry(routes),
      handlers: routes.map((r) => ({ source: handlerPath(r), purpose: `route ${r.method} ${r.path}` })),
    }));
    if (ingest.length) {
      requests.push({
        name: INGEST,
        entry: topicEntry(ingest.map((t) => ({ topicFilter: t.rule.topicFilter, source: t.source }))),
        handlers: ingest.map((t) => ({ source: t.source, purpose: `IoT rule ${t.rule.name}` })),
      });
      requests.push(ingestFailuresBundle());
    }
    if (jobList.length) {
      requests.push({
        name: JOBS,
        entry: jobEntry(jobList.map((j) => ({ name: j.name, source: j.file }))),
        handlers: jobList.map((j) => ({ source: j.file, purpose: `job ${j.name}` })),
      });
    }
    requests.push(...queueDefs.map(queueConsumerBundle));
    // bundleAll checks the files once more, and esbuild fails on a file that does not export `handler`.
    requests.push(liveAuthorizerBundle());
    const bundles = bundleAll(props.bundleRoot ?? path.join(Stage.of(this)?.outdir ?? path.join(REPO_ROOT, 'cdk.out'), '.bundles'), requests, {
      shared: props.sharedBundleRoot === true,
    });

    // Maps in the browser: an API key limited to tiles of the default provider and to our own pages.
    const maps = new MapsKey(this, 'MapsKey', {
      keyName: `${this.stackName}-maps`,
      style: config.mapStyle,
      providerArn: this.awsProviderArn('geo-maps'),
      allowReferers: [
        `https://${web.distribution.distributionDomainName}/*`,
        ...Object.keys(config.brandDomains).map((d) => `https://${d}/*`),
        ...(config.appUrl ? [`${config.appUrl}/*`] : []),
      ],
    });

    const environment: Record<string, string> = {
      RUNTIME: 'aws',
      APP_URL: appUrl,
      USER_POOL_ID: identity.userPool.userPoolId,
      USER_POOL_CLIENT_ID: identity.client.userPoolClientId,
      MAIL_FROM: config.mailFrom,
      IOT_DATA_ENDPOINT: iotEndpoint.address,
      LIVE_AUTHORIZER_NAME: liveAuthorizerName(this.stackName),
      MAP_STYLE_URL: maps.styleUrl,
      // The street map from the basemap bucket, on the web app's own origin; Amazon Location's style then serves satellite only.
      ...(web.basemapBucket ? { BASEMAP_URL } : {}),
      ...(config.smsSenderId ? { SMS_SENDER_ID: config.smsSenderId } : {}),
      LOG_LEVEL: 'INFO',
      POWERTOOLS_SERVICE_NAME: 'tracking-portal',
    };
    // The HTTP functions alone get the origin secret; nothing else is called through CloudFront.
    const httpEnvironment: Record<string, string> = { ...environment, ORIGIN_SECRET: web.api.secretValue };
    this.monitoring = new Monitoring(this, 'Monitoring', { stackName: this.stackName, alarmEmails: config.alarmEmails, smsSpendAlarmUsd: config.smsSpendAlarmUsd });
    const makeFunction = (name: FunctionName, description: string, options: { async?: boolean; http?: RouteDef[]; scope?: Construct } = {}): PortalFunction => {
      const dir = bundles.get(name);
      if (!dir) throw new Error(`no bundle for function ${name}`);
      const fn = new PortalFunction(options.scope ?? this, `Fn-${name}`, {
        name,
        description,
        codeDir: dir,
        environment: options.http ? httpEnvironment : environment,
        settings: settings[name] ?? {},
        ...(options.async ? { deadLetterQueue: this.deadLetterQueue } : {}),
      });
      this.grantDeclared(name, fn, grantTargets, {
        servesMembers: options.http?.some((r) => r.access !== 'public') ?? false,
        servesApiKeys: options.http?.some((r) => r.apiKeyScope !== undefined) ?? false,
      });
      this.monitoring.functionAlarms(name, fn);
      this.functions.set(name, fn);
      return fn;
    };

    // The work queues first, so that every function declaring a queue (or `alerts`) is granted it; then their consumers.
    this.workQueues = new WorkQueues(this, 'WorkQueues', { queues: queueDefs });
    grantTargets.workQueues = this.workQueues;
    for (const def of queueDefs) this.workQueues.consume(def.name, makeFunction(def.name as FunctionName, def.description));

    // Each HTTP capability's function and routes in its group's nested stack.
    const groupOfCapability = new Map([...byCapability.keys()].map((c) => [c, groupOf(c)] as const));
    for (const group of new Set(groupOfCapability.values())) {
      const capabilities = [...groupOfCapability].filter(([, g]) => g === group).map(([c]) => c);
      this.groupStacks.set(group, new NestedStack(this, group, { description: `Tracking portal HTTP capabilities: ${capabilities.join(', ')}` }));
    }
    for (const [capability, routes] of byCapability) {
      const scope = this.groupStacks.get(groupOfCapability.get(capability)!)!;
      makeFunction(capability, `HTTP ${capability}: ${routes.length} route(s)`, { http: routes, scope });
    }
    for (const [group, scope] of this.groupStacks) {
      api.addRoutes(scope, deployedRoutes.filter((r) => groupOfCapability.get(r.capability) === group), (route) => {
        const fn = this.functions.get(route.capability);
        if (!fn) throw new Error(`no function for capability ${route.capability}`);
        return fn.function;
      });
    }

    if (ingest.length) {
      const fn = makeFunction(INGEST, 'Tracker messages from the IoT Core topic rules, in batches of the ingest stream');
      const failures = makeFunction(INGEST_FAILURES, 'IoT rule errors and failed ingest batches into the dead-letters table');
      this.ingestRules = new IngestRules(this, 'IngestRules', {
        rules: ingest.map((t) => t.rule),
        function: fn.function,
        failuresFunction: failures,
        deadLetterQueue: this.deadLetterQueue,
      });
    }

    if (jobList.length) {
      const fn = makeFunction(JOBS, 'Scheduled jobs', { async: true });
      this.jobSchedules = new JobSchedules(this, 'JobSchedules', { jobs: jobList, function: fn.function, deadLetterQueue: this.deadLetterQueue });
    }

    // The browsers' live channel: IoT Core asks this authorizer on every MQTT-over-WebSocket connect.
    const liveCode = bundles.get(LIVE_AUTHORIZER_FUNCTION);
    if (!liveCode) throw new Error('the live authorizer has no bundle');
    this.liveAuthorizer = new LiveAuthorizer(this, 'LiveAuthorizer', {
      authorizerName: liveAuthorizerName(this.stackName),
      codeDir: liveCode,
      environment,
      settings: settings[LIVE_AUTHORIZER_FUNCTION] ?? {},
    });
    this.grantDeclared(LIVE_AUTHORIZER_FUNCTION, this.liveAuthorizer.function, grantTargets, { servesMembers: false });
    this.monitoring.functionAlarms(LIVE_AUTHORIZER_FUNCTION, this.liveAuthorizer.function);

    // The alarms that are not a function's, and the dashboard.
    this.monitoring.watch({
      api,
      ...(this.ingestRules && this.functions.get(INGEST)
        ? { ingest: { function: this.functions.get(INGEST)!.function, stream: this.ingestRules.stream, failureQueue: this.ingestRules.failureQueue } }
        : {}),
      liveAuthorizer: this.liveAuthorizer.function.function,
      deadLetterQueue: this.deadLetterQueue,
      workQueueDeadLetters: new Map([...this.workQueues.queues].map(([name, q]) => [name, q.deadLetterQueue])),
      routeMetrics: config.apiRouteMetrics,
      ...(this.functions.get('vitals') ? { vitalsLogGroup: this.functions.get('vitals')!.logGroup } : {}),
    });

    if (config.createMailIdentity) {
      const mail = new ses.EmailIdentity(this, 'MailIdentity', { identity: ses.Identity.domain(mailDomain(config.mailFrom)) });
      new CfnOutput(this, 'MailDkimRecords', {
        description: 'CNAME records (name=value) that verify the mail domain in SES',
        value: Fn.join(' ', [
          mail.dkimDnsTokenName1, '=', mail.dkimDnsTokenValue1, ';',
          mail.dkimDnsTokenName2, '=', mail.dkimDnsTokenValue2, ';',
          mail.dkimDnsTokenName3, '=', mail.dkimDnsTokenValue3,
        ]),
      });
    }

    // What `npm run provision -- --stack <name>` attaches to each tracker's certificate.
    this.trackerPolicy = new TrackerPolicy(this, 'TrackerPolicy', { policyName: `${this.stackName}-tracker`, rules });
    const inventory = this.tables.byName.get(tables.inventory.name);
    if (!inventory) throw new Error('the inventory table is not deployed');

    this.acknowledgeCdkProviders();

    const outputs: Record<string, [string, string]> = {
      ApiUrl: [api.url, 'HTTP API (the web app reaches it as /api through CloudFront)'],
      AppUrl: [appUrl, 'Public origin of the web app'],
      DistributionDomain: [web.distribution.distributionDomainName, 'CloudFront domain: point the brand domains here'],
      WebBucket: [web.bucket.bucketName, 'Bucket of the web build'],
      ...(web.basemapBucket
        ? { BasemapBucket: [web.basemapBucket.bucketName, `Self-hosted street map: upload ${BASEMAP_ARCHIVE}, fonts/ and sprites/ here (docs/operations.md)`] as [string, string] }
        : {}),
      UserPoolId: [identity.userPool.userPoolId, 'Cognito user pool'],
      UserPoolClientId: [identity.client.userPoolClientId, 'Cognito app client of the API'],
      MapsApiKey: [maps.key.keyName, 'Amazon Location API key name (value: aws location describe-key --key-name <name>)'],
      MapsApiKeyArn: [maps.key.attrKeyArn, 'Amazon Location API key'],
      MapStyle: [config.mapStyle, 'geo-maps v2 style for the web app'],
      DeadLetterQueueUrl: [this.deadLetterQueue.queueUrl, 'Failed job invocations and schedules, and ingest failures that could not be recorded as dead letters'],
      TablePrefix: [prefix, 'Prefix of every DynamoDB table (each function is told the names of its own in TABLES)'],
      IotDataEndpoint: [iotEndpoint.address, 'MQTT endpoint for trackers and the live channel'],
      InventoryTable: [inventory.tableName, 'Tracker inventory (npm run provision)'],
      LiveAuthorizerName: [this.liveAuthorizer.authorizerName, "IoT custom authorizer of the browsers' live channel"],
      TrackerPolicyName: [this.trackerPolicy.policy.ref, "IoT policy attached to each tracker's certificate (npm run provision)"],
      AlarmTopicArn: [this.monitoring.topic.topicArn, 'SNS topic of every alarm (subscribers: context alarmEmails)'],
      DashboardName: [this.monitoring.dashboard!.dashboardName, 'CloudWatch dashboard of the portal'],
    };
    for (const [name, [value, description]] of Object.entries(outputs)) new CfnOutput(this, name, { value, description });
  }

  /** `arn:<partition>:<service>:<region>::provider/default`, the AWS-owned Location resources. */
  private awsProviderArn(service: 'geo-maps' | 'geo-places'): string {
    return this.formatArn({ service, account: '', resource: 'provider', resourceName: 'default', arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
  }

  /**
   * Grants a function what its entry in shared/capability-resources.ts declares, after checking
   * that its bundled code uses nothing more: an undeclared table or port operation fails the
   * synth here rather than the function at run time. What is declared but unused is only warned
   * about (a stand-in handler uses nothing); the contract test holds the real handlers to it.
   */
  private grantDeclared(name: FunctionName, fn: PortalFunction, targets: GrantTargets, options: { servesMembers: boolean; servesApiKeys?: boolean }): void {
    const declared = this.declared[name];
    if (!declared) throw new Error(`function ${name} has no entry in shared/capability-resources.ts: declare the tables and ports it uses`);
    const usage = readResourceUsage(fs.readFileSync(analysisFileOf(fn.codeDir), 'utf8'), options);
    const { undeclared, unused } = compareUsage(usage, declared);
    if (undeclared.length) {
      throw new Error(`function ${name} uses what shared/capability-resources.ts does not grant it:\n  ${undeclared.join('\n  ')}`);
    }
    if (unused.length) {
      Annotations.of(fn).addWarningV2('tracking-portal:unused-grant', `function ${name} is granted what its code does not use: ${unused.join('; ')}`);
    }
    this.resourceUsage.set(name, usage);
    this.grants.set(name, bindResources(fn, declared, targets));
  }

  /**
   * CDK's own singleton Lambda functions (the AwsCustomResource provider, BucketDeployment's
   * handler) are built by aws-cdk-lib; we cannot choose their policies or runtime.
   */
  private acknowledgeCdkProviders(): void {
    const providers = this.node.children.filter((c) => /^(AWS679f53fac002430cb0da5b7982bd2287|Custom::CDKBucketDeployment)/.test(c.node.id));
    if (!providers.length) return;
    acknowledge(providers, [
      ['AwsSolutions-L1', 'CDK-provided custom resource handler: aws-cdk-lib pins its runtime; it is upgraded with aws-cdk-lib, not by us.'],
    ]);
    for (const provider of providers) {
      acknowledgeFindings(provider, [
        {
          rule: 'AwsSolutions-IAM4',
          finding: /^Policy::arn:<AWS::Partition>:iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole$/,
          reason: 'CDK-provided custom resource handler: AWSLambdaBasicExecutionRole only lets it write its own CloudWatch logs.',
        },
        {
          rule: 'AwsSolutions-IAM5',
          finding: /.*/,
          reason: 'CDK-provided BucketDeployment handler: aws-cdk-lib grants it s3:GetObject*/List*/DeleteObject* on the asset and site buckets (objects /*) and CloudFront invalidations; we cannot narrow them.',
        },
      ]);
    }
  }
}
