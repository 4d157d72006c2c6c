/**
 * What a function's code really uses, read from the unminified copy of its bundle
 * (`analysisFileOf`): the same modules Lambda runs, after tree shaking, so code a function
 * imports but never calls does not count. Compared with its entry in
 * shared/capability-resources.ts by the stack (a use that is not declared fails the synth) and by
 * the contract test (a declaration that is not used fails too).
 *
 * Conventions the reading relies on, which the code base follows:
 * - a table is named by `tableName('<manifest key>')` with a literal key;
 * - a port method is called on an expression named after the port: `ports.identity.createUser(`,
 *   `geocoder.reverse(`, `live.publish(`, `getPorts().mailer.send(`, `ports.autoplan.report(`,
 *   `ports.webPush.send(`.
 * Where a table name goes somewhere this reader cannot classify (into a helper, say), it counts
 * as a write, so a mistake errs towards asking for the larger grant.
 */
import ts from 'typescript';
import {
  fileOperations,
  geocoderOperations,
  identityOperations,
  type FileOperation,
  type FunctionResources,
  type GeocoderOperation,
  type IdentityOperation,
  type TableAccess,
} from '../../shared/capability-resources';
import { queueList, type QueueName } from '../../shared/queues';
import { tables, type TableKey } from '../../shared/tables';

const queueNames = new Set<string>(queueList.map((q) => q.name));

export interface ResourceUsage {
  readonly tables: Map<TableKey, TableAccess>;
  readonly identity: Set<IdentityOperation>;
  readonly geocoder: Set<GeocoderOperation>;
  /** FileStore operations (`files.createUpload(`, ...). */
  readonly files: Set<FileOperation>;
  mail: boolean;
  sms: boolean;
  live: boolean;
  devices: boolean;
  /** AlertQueue.enqueue: alarms onto the alert queue. */
  alerts: boolean;
  /** Autoplan.report: the accounts' Autoplan secrets. */
  autoplan: boolean;
  /** WebPush.publicKey or WebPush.send: the VAPID keys' seed secret. */
  webPush: boolean;
  /** WorkQueues.send: the queues of shared/queues.ts named by a literal (`queues.send('trip-addresses', ...)`). */
  readonly queues: Set<QueueName>;
  /** Tables named in a ScanCommand (a read of the table besides). */
  readonly scans: Set<TableKey>;
  /** Which source file each finding comes from (`table users (read-write)` -> files). */
  readonly where: Map<string, Set<string>>;
  /** Table names this reader could not see (not a literal key). */
  readonly problems: string[];
}

/** Modules that implement the ports or name tables generically: what they reach is declared by their callers. */
const SKIPPED = [/^functions\/platform\/adapters\//, /^functions\/platform\/db\.ts$/, /^functions\/platform\/container\.ts$/];
const SESSION_MODULE = 'functions/platform/auth-context.ts';
/** Calls resolveAuth for the routes that are not public; that alone does not make a function read sessions. */
const MIDDLEWARE_MODULE = 'functions/platform/http.ts';
/**
 * The middleware's API keys (their hashes, call log and rate limit): reached only on a route with an
 * `apiKeyScope`, so counted only for the functions serving one; the rate-limit module it calls is
 * counted for them too, and for any function whose own code counts a rate limit.
 */
const API_KEY_MODULE = 'functions/platform/api-key-auth.ts';
const RATE_LIMIT_MODULE = 'functions/platform/rate-limit.ts';
const RATE_LIMIT_CALLS = new Set(['hitRateLimit', 'consumeRateLimit']);

const READ_COMMANDS = new Set(['Get', 'BatchGet', 'Query', 'TransactGet', 'Scan']);
const WRITE_COMMANDS = new Set(['Put', 'Update', 'Delete', 'BatchWrite', 'TransactWrite']);
const TRANSACT_WRITES = new Set(['Put', 'Update', 'Delete']);
const TRANSACT_READS = new Set(['ConditionCheck', 'Get']);

const bare = (name: string) => name.replace(/\d+$/, '');
const isTableKey = (key: string): key is TableKey => Object.hasOwn(tables, key);

/** Splits the bundle at esbuild's `// <path>` lines; a module may come in several pieces. */
export function bundleModules(text: string): { path: string; code: string }[] {
  const out: { path: string; code: string }[] = [];
  const marker = /^\/\/ ([\w@.+-]+(?:\/[\w@.+-]+)*\.(?:[cm]?[jt]sx?|json))$/gm;
  let current: { path: string; start: number } | null = null;
  for (const m of text.matchAll(marker)) {
    if (current) out.push({ path: current.path, code: text.slice(current.start, m.index) });
    current = { path: m[1] ?? '', start: (m.index ?? 0) + m[0].length };
  }
  if (current) out.push({ path: current.path, code: text.slice(current.start) });
  return out;
}

function nameOf(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isIdentifier(node) || ts.isStringLiteral(node)) return node.text;
  return undefined;
}

/** The access of an object literal carrying `TableName`, from where that object goes. */
function accessOfRequest(object: ts.ObjectLiteralExpression): TableAccess {
  const parent = object.parent;
  if (ts.isNewExpression(parent) && ts.isIdentifier(parent.expression)) {
    const command = /^(\w+?)Command$/.exec(bare(parent.expression.text))?.[1];
    if (command && READ_COMMANDS.has(command)) return 'read';
    if (command && WRITE_COMMANDS.has(command)) return 'read-write';
  }
  if (ts.isPropertyAssignment(parent)) {
    const key = nameOf(parent.name) ?? '';
    if (TRANSACT_READS.has(key)) return 'read';
    if (TRANSACT_WRITES.has(key)) return 'read-write';
  }
  return 'read-write';
}

/** `RequestItems: { [table]: ... }` of a BatchGet (read) or BatchWrite (write). */
function accessOfRequestItems(computed: ts.ComputedPropertyName): TableAccess {
  const items = computed.parent.parent;
  const property = items?.parent;
  const request = property?.parent;
  if (items && ts.isObjectLiteralExpression(items) && property && ts.isPropertyAssignment(property) && nameOf(property.name) === 'RequestItems') {
    if (request && ts.isObjectLiteralExpression(request)) return accessOfRequest(request);
  }
  return 'read-write';
}

/** Whether a `tableName(...)` call is the TableName of a ScanCommand. */
function isScanned(call: ts.CallExpression): boolean {
  const parent = call.parent;
  if (!ts.isPropertyAssignment(parent) || nameOf(parent.name) !== 'TableName' || !ts.isObjectLiteralExpression(parent.parent)) return false;
  const command = parent.parent.parent;
  return ts.isNewExpression(command) && ts.isIdentifier(command.expression) && bare(command.expression.text) === 'ScanCommand';
}

/** Where a table name (the call itself or a variable holding it) ends up. */
function accessOfUse(node: ts.Expression): TableAccess | null {
  const parent = node.parent;
  if ((ts.isPropertyAssignment(parent) && parent.initializer === node) || ts.isShorthandPropertyAssignment(parent)) {
    return nameOf(parent.name) === 'TableName' && ts.isObjectLiteralExpression(parent.parent) ? accessOfRequest(parent.parent) : 'read-write';
  }
  if (ts.isComputedPropertyName(parent)) return accessOfRequestItems(parent);
  // Reading an answer by table name (`out.Responses?.[table]`) touches nothing.
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return null;
  return 'read-write';
}

function enclosingScope(node: ts.Node): ts.Node {
  let n: ts.Node = node.parent;
  while (!ts.isSourceFile(n) && !ts.isFunctionLike(n)) n = n.parent;
  return n;
}

function accessOfTableCall(call: ts.CallExpression): TableAccess | null {
  const parent = call.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) {
    const variable = parent.name.text;
    let access: TableAccess | null = null;
    const visit = (n: ts.Node): void => {
      if (ts.isIdentifier(n) && n.text === variable && n !== parent.name) {
        const use = accessOfUse(n);
        if (use === 'read-write' || (use === 'read' && access === null)) access = use;
      }
      n.forEachChild(visit);
    };
    enclosingScope(parent).forEachChild(visit);
    return access;
  }
  return accessOfUse(call);
}

function portOf(callee: ts.Expression): { port: string; method: string } | null {
  if (!ts.isPropertyAccessExpression(callee)) return null;
  const receiver = callee.expression;
  const port = ts.isIdentifier(receiver) ? receiver.text : ts.isPropertyAccessExpression(receiver) ? receiver.name.text : null;
  return port === null ? null : { port: bare(port), method: callee.name.text };
}

function note(usage: ResourceUsage, what: string, path: string): void {
  const files = usage.where.get(what) ?? new Set<string>();
  files.add(path);
  usage.where.set(what, files);
}

/** What one module of a bundle contributes, in source order; it depends on the module's path and code alone. */
interface ModuleReading {
  /** It calls `resolveAuth` (outside the middleware and the session module). */
  readonly resolvesAuth: boolean;
  /** It counts a rate limit (`hitRateLimit`, `consumeRateLimit`). */
  readonly countsRateLimit: boolean;
  readonly findings: ((usage: ResourceUsage) => void)[];
}

/**
 * The readings of the modules seen so far, by path and code: every bundle of a synth carries the
 * same platform and shared modules, which are then parsed once.
 */
const moduleReadings = new Map<string, ModuleReading>();

function readModule(path: string, code: string): ModuleReading {
  const cacheKey = `${path}\0${code}`;
  const known = moduleReadings.get(cacheKey);
  if (known) return known;
  const file = ts.createSourceFile(path, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  let resolvesAuth = false;
  let countsRateLimit = false;
  const findings: ((usage: ResourceUsage) => void)[] = [];
  const found = (what: string, record: (usage: ResourceUsage) => void) =>
    findings.push((usage) => {
      record(usage);
      note(usage, what, path);
    });
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n)) {
      if (ts.isIdentifier(n.expression) && bare(n.expression.text) === 'resolveAuth') resolvesAuth = true;
      if (ts.isIdentifier(n.expression) && RATE_LIMIT_CALLS.has(bare(n.expression.text))) countsRateLimit = true;
      if (ts.isIdentifier(n.expression) && bare(n.expression.text) === 'tableName') {
        const [arg] = n.arguments;
        if (n.arguments.length !== 1 || !arg || !ts.isStringLiteral(arg) || !isTableKey(arg.text)) {
          const problem = `${path}: tableName(${n.arguments.map((a) => a.getText()).join(', ')}) does not name a table of shared/tables.ts by a literal key`;
          findings.push((usage) => usage.problems.push(problem));
        } else {
          const access = accessOfTableCall(n);
          const key = arg.text;
          if (access) {
            found(`table ${key} (${access})`, (usage) => {
              const before = usage.tables.get(key);
              usage.tables.set(key, before === 'read-write' || access === 'read-write' ? 'read-write' : 'read');
            });
          }
          if (isScanned(n)) found(`scan ${key}`, (usage) => usage.scans.add(key));
        }
      }
      const port = portOf(n.expression);
      if (port) {
        const method = port.method;
        if (port.port === 'identity' && (identityOperations as readonly string[]).includes(method)) {
          found(`identity.${method}`, (usage) => usage.identity.add(method as IdentityOperation));
        } else if (port.port === 'geocoder' && (geocoderOperations as readonly string[]).includes(method)) {
          found(`geocoder.${method}`, (usage) => usage.geocoder.add(method as GeocoderOperation));
        } else if (port.port === 'files' && (fileOperations as readonly string[]).includes(method)) {
          found(`files.${method}`, (usage) => usage.files.add(method as FileOperation));
        } else if (method === 'send' && (port.port === 'mailer' || port.port === 'sms' || port.port === 'devices')) {
          const flag = port.port === 'mailer' ? 'mail' : port.port;
          found(`${port.port}.send`, (usage) => {
            usage[flag] = true;
          });
        } else if (port.port === 'live' && method === 'publish') {
          found('live.publish', (usage) => {
            usage.live = true;
          });
        } else if (port.port === 'alerts' && method === 'enqueue') {
          found('alerts.enqueue', (usage) => {
            usage.alerts = true;
          });
        } else if (port.port === 'autoplan' && method === 'report') {
          found('autoplan.report', (usage) => {
            usage.autoplan = true;
          });
        } else if (port.port === 'webPush' && (method === 'send' || method === 'publicKey')) {
          found('webPush', (usage) => {
            usage.webPush = true;
          });
        } else if (port.port === 'queues' && method === 'send') {
          const [arg] = n.arguments;
          if (!arg || !ts.isStringLiteral(arg) || !queueNames.has(arg.text)) {
            const problem = `${path}: queues.send(${arg?.getText() ?? ''}, ...) does not name a queue of shared/queues.ts by a literal`;
            findings.push((usage) => usage.problems.push(problem));
          } else {
            const queue = arg.text as QueueName;
            found(`queue ${queue}`, (usage) => usage.queues.add(queue));
          }
        }
      }
    }
    n.forEachChild(visit);
  };
  file.forEachChild(visit);
  const reading = { resolvesAuth, countsRateLimit, findings };
  moduleReadings.set(cacheKey, reading);
  return reading;
}

/**
 * Reads one analysis bundle. `servesMembers`: the function has a route that is not public, for
 * which the shared middleware reads the session and the user. `servesApiKeys`: it has a route with
 * an `apiKeyScope`, for which the middleware resolves API keys, counts their rate limit and logs
 * their calls.
 */
export function readResourceUsage(bundleText: string, options: { servesMembers: boolean; servesApiKeys?: boolean }): ResourceUsage {
  const usage: ResourceUsage = {
    tables: new Map(),
    identity: new Set(),
    geocoder: new Set(),
    files: new Set(),
    mail: false,
    sms: false,
    live: false,
    devices: false,
    alerts: false,
    autoplan: false,
    webPush: false,
    queues: new Set(),
    scans: new Set(),
    where: new Map(),
    problems: [],
  };
  // Our own code only (handlers outside functions/, such as test stand-ins, included).
  const modules = bundleModules(bundleText)
    .filter((m) => !m.path.startsWith('node_modules/') && !SKIPPED.some((re) => re.test(m.path)))
    .map((m) => ({ path: m.path, reading: readModule(m.path, m.code) }));

  // Whether anything besides the middleware's guard of non-public routes resolves a session.
  const readsSessions = options.servesMembers || modules.some((m) => m.path !== MIDDLEWARE_MODULE && m.path !== SESSION_MODULE && m.reading.resolvesAuth);
  const servesApiKeys = options.servesApiKeys ?? false;
  const countsRateLimits = servesApiKeys || modules.some((m) => m.path !== API_KEY_MODULE && m.path !== RATE_LIMIT_MODULE && m.reading.countsRateLimit);
  for (const { path, reading } of modules) {
    if (path === SESSION_MODULE && !readsSessions) continue;
    if (path === API_KEY_MODULE && !servesApiKeys) continue;
    if (path === RATE_LIMIT_MODULE && !countsRateLimits) continue;
    for (const finding of reading.findings) finding(usage);
  }
  return usage;
}

export interface UsageComparison {
  /** Used but not declared (or written but declared read): the function would fail at run time. */
  readonly undeclared: string[];
  /** Declared but not used: more than the function needs. */
  readonly unused: string[];
}

/** Compares what the code uses with what its entry declares. */
export function compareUsage(usage: ResourceUsage, declared: FunctionResources): UsageComparison {
  const undeclared: string[] = [...usage.problems];
  const unused: string[] = [];
  const where = (what: string) => {
    const files = [...usage.where.entries()].filter(([k]) => k === what || k.startsWith(`${what} (`)).flatMap(([, f]) => [...f]);
    return files.length ? ` (${[...new Set(files)].sort().join(', ')})` : '';
  };

  for (const [key, access] of usage.tables) {
    const granted = declared.tables[key];
    if (!granted) undeclared.push(`table ${key} (${access})${where(`table ${key}`)}`);
    else if (access === 'read-write' && granted === 'read') undeclared.push(`table ${key} is written but declared read${where(`table ${key} (read-write)`)}`);
  }
  for (const [key, granted] of Object.entries(declared.tables) as [TableKey, TableAccess][]) {
    const used = usage.tables.get(key);
    if (!used) unused.push(`table ${key} (${granted})`);
    else if (granted === 'read-write' && used === 'read') unused.push(`table ${key} is declared read-write but only read`);
  }

  const lists = [
    ['identity', usage.identity, declared.identity ?? []],
    ['geocoder', usage.geocoder, declared.geocoder ?? []],
    ['files', usage.files, declared.files ?? []],
  ] as const;
  for (const key of usage.scans) if (!(declared.scans ?? []).includes(key)) undeclared.push(`scan ${key}${where(`scan ${key}`)}`);
  for (const key of declared.scans ?? []) if (!usage.scans.has(key)) unused.push(`scan ${key}`);
  for (const queue of usage.queues) if (!(declared.queues ?? []).includes(queue)) undeclared.push(`queue ${queue}${where(`queue ${queue}`)}`);
  for (const queue of declared.queues ?? []) if (!usage.queues.has(queue)) unused.push(`queue ${queue}`);
  for (const [port, used, granted] of lists) {
    for (const op of used) if (!(granted as readonly string[]).includes(op)) undeclared.push(`${port}.${op}${where(`${port}.${op}`)}`);
    for (const op of granted) if (!(used as Set<string>).has(op)) unused.push(`${port}.${op}`);
  }

  const flags = [
    ['mail', usage.mail, declared.mail === true, 'mailer.send'],
    ['sms', usage.sms, declared.sms === true, 'sms.send'],
    ['live', usage.live, declared.live === true, 'live.publish'],
    ['devices', usage.devices, declared.devices === true, 'devices.send'],
    ['alerts', usage.alerts, declared.alerts === true, 'alerts.enqueue'],
    ['autoplan', usage.autoplan, declared.autoplan === true, 'autoplan.report'],
    ['webPush', usage.webPush, declared.webPush === true, 'webPush'],
  ] as const;
  for (const [name, used, granted, call] of flags) {
    if (used && !granted) undeclared.push(`${name}${where(call)}`);
    if (granted && !used) unused.push(name);
  }
  return { undeclared, unused };
}
