/**
 * The tracking portal on AWS, built from the manifests in shared/: one Lambda function per
 * capability behind an HTTP API, the DynamoDB tables, IoT Core rules into the ingest function,
 * Cognito, SES/SNS, Amazon Location, scheduled jobs and the web app on S3 + CloudFront.
 * Each function gets only the tables and resources its entry in shared/capability-resources.ts
 * declares (docs/decisions/0013); API requests are accepted only through CloudFront (0012).
 * docs/architecture.md has the picture; docs/decisions/0002 and 0003 the choices questioned most.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Annotations, ArnFormat, CfnOutput, Duration, Fn, Stack, Stage, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { functionResources, type FunctionName } from '../shared/capability-resources';
import { iotRules, type IotRuleDef } from '../shared/iot-rules';
import { handlerPath, routeList, type Capability, type RouteDef } from '../shared/routes';
import { tables } from '../shared/tables';
import { REPO_ROOT, analysisFileOf, bundleAll, httpEntry, jobEntry, sourceExists, topicEntry, type BundleRequest } from './bundling/bundle';
import { compareUsage, readResourceUsage, type ResourceUsage } from './bundling/resource-usage';
import { mailAddress, mailDomain, type PortalConfig } from './config';
import { DataTables } from './constructs/data-tables';
import { PortalHttpApi } from './constructs/http-api';
import { Identity } from './constructs/identity';
import { IngestRules } from './constructs/ingest';
import { IotDataEndpoint } from './constructs/iot-endpoint';
import { MapsKey, geoMapsStyleUrl } from './constructs/maps-key';
import { LIVE_AUTHORIZER_FUNCTION, LiveAuthorizer, liveAuthorizerBundle, liveAuthorizerName } from './constructs/live-authorizer';
import { acknowledge, acknowledgeFindings } from './constructs/nag';
import { PortalFunction } from './constructs/portal-function';
import { bindResources, type BoundResources, type GrantTargets } from './constructs/resource-grants';
import { TrackerPolicy } from './constructs/tracker-policy';
import { WebHosting } from './constructs/web-hosting';
import { checkJobs, jobs as jobManifest, type JobDef } from './jobs';

/** Function names that are not HTTP capabilities. */
const INGEST = 'ingest';
const JOBS = 'jobs';

export interface TrackingPortalStackProps extends StackProps {
  readonly config: PortalConfig;
  /**
   * Ingest handlers to bundle, by the handler path a rule of shared/iot-rules.ts names
   * (`functions/ingest/handle-telemetry.ts`) -> the file to bundle for it. Default: every rule
   * whose handler file exists. A rule without a handler gets no topic rule yet.
   */
  readonly ingestHandlers?: Readonly<Record<string, string>>;
  /** Default: infra/jobs.ts. A job whose file does not exist is skipped. */
  readonly jobs?: readonly JobDef[];
  /** Default: web/dist. Deployed only when it holds index.html. */
  readonly webDist?: string;
  /** Where the Lambda bundles go; default `<cloud assembly>/.bundles` (cdk.out/.bundles). */
  readonly bundleRoot?: string;
  /** Skips the deploy-time lookup of the IoT data endpoint (context `iotDataEndpoint`). */
  readonly iotDataEndpoint?: string;
}

interface IngestTarget {
  readonly rule: IotRuleDef;
  readonly source: string;
}

export class TrackingPortalStack extends Stack {
  readonly tables: DataTables;
  readonly functions = new Map<string, PortalFunction>();
  readonly deadLetterQueue: sqs.Queue;
  readonly ingestRules?: IngestRules;
  readonly trackerPolicy: TrackerPolicy;
  readonly liveAuthorizer: LiveAuthorizer;
  /** Per function: what shared/capability-resources.ts granted it. */
  readonly grants = new Map<FunctionName, BoundResources>();
  /** Per function: what its bundled code uses (infra/bundling/resource-usage.ts). */
  readonly resourceUsage = new Map<FunctionName, ResourceUsage>();

  constructor(scope: Construct, id: string, props: TrackingPortalStackProps) {
    super(scope, id, props);
    const { config } = props;
    const prefix = `${this.stackName}-`;

    // Data.
    this.tables = new DataTables(this, 'Tables', { prefix });

    // Failed deliveries of every asynchronous path: IoT rule errors, failed ingest and job invocations.
    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    acknowledge(this.deadLetterQueue, [
      [
        'AwsSolutions-SQS3',
        'This queue is the dead-letter queue of the IoT rules, the ingest/jobs functions and the schedules. Operators inspect and redrive it; a queue behind it would only move the same messages once more.',
      ],
    ]);
    // IoT Core assumes this role to write a rule's failed message to the dead-letter queue.
    const ruleErrorRole = new iam.Role(this, 'IotRuleErrorRole', {
      assumedBy: new iam.ServicePrincipal('iot.amazonaws.com', { conditions: { StringEquals: { 'aws:SourceAccount': this.account } } }),
      description: 'IoT topic rules: error action to the dead-letter queue',
    });
    this.deadLetterQueue.grantSendMessages(ruleErrorRole);

    // Identity, API and web front (the functions' environment needs their names).
    const identity = new Identity(this, 'Identity', { poolName: `${this.stackName}-users` });
    const iotEndpoint = new IotDataEndpoint(this, 'IotEndpoint', props.iotDataEndpoint ? { override: props.iotDataEndpoint } : {});
    const api = new PortalHttpApi(this, 'HttpApi');
    const web = new WebHosting(this, 'Web', {
      brandDomains: config.brandDomains,
      apiDomainName: api.domainName,
      webDist: props.webDist ?? path.join(REPO_ROOT, 'web', 'dist'),
      ...(config.certificateArn ? { certificateArn: config.certificateArn } : {}),
      mapStyleUrl: geoMapsStyleUrl(this.region, config.mapStyle),
      liveOrigin: `wss://${iotEndpoint.address}`,
    });
    const appUrl = config.appUrl ?? `https://${web.distribution.distributionDomainName}`;

    // What a function may be granted besides its logs; each gets what its entry declares.
    const sesIdentity = (name: string) => this.formatArn({ service: 'ses', resource: 'identity', resourceName: name, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
    const grantTargets: GrantTargets = {
      tables: this.tables.byName,
      tableNames: this.tables.physicalNames,
      userPoolArn: identity.userPool.userPoolArn,
      mailIdentityArns: [sesIdentity(mailDomain(config.mailFrom)), sesIdentity(mailAddress(config.mailFrom))],
      geoPlacesProviderArn: this.awsProviderArn('geo-places'),
    };

    // The functions: HTTP capabilities from the route manifest, ingest and jobs when they have handlers.
    const deployedRoutes = routeList.filter((r) => !r.embeddedOnly);
    const byCapability = new Map<Capability, RouteDef[]>();
    for (const route of deployedRoutes) {
      if (route.capability === INGEST || route.capability === JOBS) {
        throw new Error(`route ${route.operationId}: capability ${route.capability} names a non-HTTP function; give the route an HTTP capability`);
      }
      byCapability.set(route.capability, [...(byCapability.get(route.capability) ?? []), route]);
    }
    const ingest = this.ingestTargets(props.ingestHandlers);
    const jobList = this.presentJobs(props.jobs ?? jobManifest);

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
    }
    if (jobList.length) {
      requests.push({
        name: JOBS,
        entry: jobEntry(jobList.map((j) => ({ name: j.name, source: j.file }))),
        handlers: jobList.map((j) => ({ source: j.file, purpose: `job ${j.name}` })),
      });
    }
    // Throws a BundlingError naming any missing handler file before esbuild runs.
    requests.push(liveAuthorizerBundle());
    const bundles = bundleAll(props.bundleRoot ?? path.join(Stage.of(this)?.outdir ?? path.join(REPO_ROOT, 'cdk.out'), '.bundles'), requests);

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
      LOG_LEVEL: 'INFO',
      POWERTOOLS_SERVICE_NAME: 'tracking-portal',
    };
    // The HTTP functions alone get the origin secret; nothing else is called through CloudFront.
    const httpEnvironment: Record<string, string> = { ...environment, ORIGIN_SECRET: web.api.secretValue };
    const makeFunction = (name: FunctionName, description: string, options: { async?: boolean; http?: RouteDef[] } = {}): PortalFunction => {
      const dir = bundles.get(name);
      if (!dir) throw new Error(`no bundle for function ${name}`);
      const fn = new PortalFunction(this, `Fn-${name}`, {
        name,
        description,
        codeDir: dir,
        environment: options.http ? httpEnvironment : environment,
        ...(options.async ? { deadLetterQueue: this.deadLetterQueue } : {}),
      });
      this.grantDeclared(name, fn, grantTargets, { servesMembers: options.http?.some((r) => r.access !== 'public') ?? false });
      this.functions.set(name, fn);
      return fn;
    };

    for (const [capability, routes] of byCapability) {
      makeFunction(capability, `HTTP ${capability}: ${routes.length} route(s)`, { http: routes });
    }
    api.addRoutes(deployedRoutes, (route) => {
      const fn = this.functions.get(route.capability);
      if (!fn) throw new Error(`no function for capability ${route.capability}`);
      return fn.function;
    });

    if (ingest.length) {
      const fn = makeFunction(INGEST, 'Tracker messages from the IoT Core topic rules', { async: true });
      this.ingestRules = new IngestRules(this, 'IngestRules', {
        rules: ingest.map((t) => t.rule),
        function: fn.function,
        deadLetterQueue: this.deadLetterQueue,
        errorRole: ruleErrorRole,
      });
    }

    if (jobList.length) {
      const fn = makeFunction(JOBS, 'Scheduled jobs', { async: true });
      for (const job of jobList) {
        new events.Rule(this, `Job-${job.name}`, {
          description: job.description,
          schedule: events.Schedule.expression(job.schedule),
          targets: [
            new targets.LambdaFunction(fn.function, {
              event: events.RuleTargetInput.fromObject({ job: job.name }),
              retryAttempts: 2,
              maxEventAge: Duration.hours(1),
              deadLetterQueue: this.deadLetterQueue,
            }),
          ],
        });
      }
    }

    // The browsers' live channel: IoT Core asks this authorizer on every MQTT-over-WebSocket connect.
    const liveCode = bundles.get(LIVE_AUTHORIZER_FUNCTION);
    if (!liveCode) throw new Error('the live authorizer has no bundle');
    this.liveAuthorizer = new LiveAuthorizer(this, 'LiveAuthorizer', {
      authorizerName: liveAuthorizerName(this.stackName),
      codeDir: liveCode,
      environment,
    });
    this.grantDeclared(LIVE_AUTHORIZER_FUNCTION, this.liveAuthorizer.function, grantTargets, { servesMembers: false });

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
    this.trackerPolicy = new TrackerPolicy(this, 'TrackerPolicy', { policyName: `${this.stackName}-tracker`, rules: iotRules });
    const inventory = this.tables.byName.get(tables.inventory.name);
    if (!inventory) throw new Error('the inventory table is not deployed');

    this.acknowledgeCdkProviders();

    const outputs: Record<string, [string, string]> = {
      ApiUrl: [api.url, 'HTTP API (the web app reaches it as /api through CloudFront)'],
      AppUrl: [appUrl, 'Public origin of the web app'],
      DistributionDomain: [web.distribution.distributionDomainName, 'CloudFront domain: point the brand domains here'],
      WebBucket: [web.bucket.bucketName, 'Bucket of the web build'],
      UserPoolId: [identity.userPool.userPoolId, 'Cognito user pool'],
      UserPoolClientId: [identity.client.userPoolClientId, 'Cognito app client of the API'],
      MapsApiKey: [maps.key.keyName, 'Amazon Location API key name (value: aws location describe-key --key-name <name>)'],
      MapsApiKeyArn: [maps.key.attrKeyArn, 'Amazon Location API key'],
      MapStyle: [config.mapStyle, 'geo-maps v2 style for the web app'],
      DeadLetterQueueUrl: [this.deadLetterQueue.queueUrl, 'Failed IoT rule deliveries, ingest and job invocations'],
      TablePrefix: [prefix, 'Prefix of every DynamoDB table (each function is told the names of its own in TABLES)'],
      IotDataEndpoint: [iotEndpoint.address, 'MQTT endpoint for trackers and the live channel'],
      InventoryTable: [inventory.tableName, 'Tracker inventory (npm run provision)'],
      LiveAuthorizerName: [this.liveAuthorizer.authorizerName, "IoT custom authorizer of the browsers' live channel"],
      TrackerPolicyName: [this.trackerPolicy.policy.ref, "IoT policy attached to each tracker's certificate (npm run provision)"],
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
  private grantDeclared(name: FunctionName, fn: PortalFunction, targets: GrantTargets, options: { servesMembers: boolean }): void {
    const declared = functionResources[name];
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

  private ingestTargets(explicit?: Readonly<Record<string, string>>): IngestTarget[] {
    const out: IngestTarget[] = [];
    const waiting: string[] = [];
    for (const rule of iotRules) {
      const file = handlerPath(rule.handler);
      const source = explicit ? explicit[file] : sourceExists(file) ? file : undefined;
      if (source) out.push({ rule, source });
      else waiting.push(`${rule.name} (${file})`);
    }
    if (waiting.length) Annotations.of(this).addInfo(`IoT rules not deployed until their handler exists: ${waiting.join(', ')}`);
    return out;
  }

  private presentJobs(list: readonly JobDef[]): JobDef[] {
    checkJobs(list);
    return list.filter((job) => {
      if (sourceExists(job.file)) return true;
      Annotations.of(this).addInfo(`job ${job.name} not deployed yet: ${job.file} does not exist`);
      return false;
    });
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
