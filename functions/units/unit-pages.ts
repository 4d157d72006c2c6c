/**
 * The units list in pages (docs/decisions/0044-large-unit-lists.md): an account's units read with
 * Query pages of the `byAccountName` (or, by IMEI, `byAccount`) index of its own partition, an
 * ordinary user's granted units read by key; a search filters what is read, and a page ends at
 * `limit` units or when its read budget is spent, with a cursor to go on. The name index keeps no
 * ingest state (shared/tables.ts), so the units of a page by name are read again by key for it.
 * The cursor names only a position (a name and an IMEI), the phase of the search and the search it
 * belongs to: the account of every read comes from the caller, so no cursor can reach another
 * account's units.
 *
 * A search by name order runs in two phases. First the units whose name begins with the search (in
 * any of its usual spellings: as typed in lower case, Capitalised, Each Word Capitalised, UPPER CASE)
 * are read with key conditions on the name index, a few small Queries however large the account;
 * then the rest of the index is read and filtered (every word anywhere in the name, registration
 * number, IMEI, driver, departments or tags), leaving out what the first phase answered.
 */
import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { UnitListSort } from '../../shared/schemas/units';
import { UNIT_LIST_FIELDS } from '../../shared/tables';
import { IMEI_PATTERN } from '../../shared/validators/imei';
import { getUnitItemsByImei } from '../domain/unit/reads';
import { parseUnitItem, type UnitItem, type UnitItemRead } from '../domain/unit/schema';
import type { AuthContext } from '../platform/auth-context';
import { dynamo, tableName } from '../platform/db';
import { decodePageCursor, encodePageCursor, invalidCursor } from '../platform/page-cursor';

type Caller = Pick<AuthContext, 'accountId' | 'unitImeis'>;

/** What the name index keeps of a unit (shared/tables.ts): what the list searches and shows, but not ingest's state. */
const INDEXED = ['imei', 'accountId', 'name', ...UNIT_LIST_FIELDS] as const;
const projectionOf = (attributes: readonly string[]) => ({
  ProjectionExpression: attributes.map((a) => `#${a}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(attributes.map((a) => [`#${a}`, a])),
});
/** What the list shows of a unit, and what parseUnitItem needs: never `stages`, commands or viewers. */
const projection = projectionOf([...INDEXED, 'state']);
const LISTED: UnitItemRead<UnitItem> = { attributes: [...INDEXED, 'state'], parse: parseUnitItem };
const nameIndexProjection = projectionOf(INDEXED);

/** A search reads at most this long for one page when it has found something, and this long when it has not. */
const BUDGET_WITH_MATCHES_MS = 400;
const BUDGET_MS = 2500;
/** Items per Query page while searching (DynamoDB stops at 1 MB before that anyway). */
const SEARCH_READ = 1000;

export interface Position {
  name: string;
  imei: string;
}

/** Where a page starts: the phase of the search and the last unit answered (null: the phase's beginning). */
export interface Resume {
  phase: 'prefix' | 'scan';
  at: Position | null;
}

export const normaliseQuery = (q: string | undefined): string => (q ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean).join(' ');

const bindingOf = (sort: UnitListSort, q: string) => ['units', sort, q];

export const encodeCursor = (sort: UnitListSort, q: string, resume: Resume): string =>
  encodePageCursor(bindingOf(sort, q), [resume.phase, resume.at?.name ?? null, resume.at?.imei ?? null]);

/** Where a cursor resumes; a cursor that is not ours, or of another search or order, is 422 InvalidCursor. */
export function decodeCursor(raw: string, sort: UnitListSort, q: string): Resume {
  const [phase, name, imei, ...rest] = decodePageCursor(raw, bindingOf(sort, q));
  if (rest.length || (phase !== 'prefix' && phase !== 'scan')) throw invalidCursor();
  if (name === null && imei === null && phase === 'scan') return { phase, at: null };
  if (typeof name !== 'string' || name.length === 0 || name.length > 400 || typeof imei !== 'string' || !IMEI_PATTERN.test(imei)) throw invalidCursor();
  return { phase, at: { name, imei } };
}

/** The spellings of a (lower-case) search a name may begin with: as typed, Capitalised, Each Word Capitalised, UPPER CASE. */
export function prefixVariants(q: string): string[] {
  const capital = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return [...new Set([q, capital(q), q.split(' ').map(capital).join(' '), q.toUpperCase()])];
}

/**
 * Whether a unit matches the search: every word appears, ignoring case, in its name, registration
 * number, IMEI, driver or one of the names given (its departments and tags).
 */
export function matcher(q: string): (unit: UnitItem, names: readonly string[]) => boolean {
  const words = q.split(' ').filter(Boolean);
  if (!words.length) return () => true;
  return (unit, names) => {
    const fields = [unit.name, unit.registrationNumber ?? '', unit.imei, unit.driver ?? '', ...names].map((f) => f.toLowerCase());
    return words.every((word) => fields.some((field) => field.includes(word)));
  };
}

/** The order of the index: names (then IMEIs) by code unit, as DynamoDB orders strings for these texts. */
export function compareUnits(sort: UnitListSort): (a: Position, b: Position) => number {
  const byName = sort.startsWith('name');
  const sign = sort.endsWith('desc') ? -1 : 1;
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (a, b) => sign * ((byName ? cmp(a.name, b.name) : 0) || cmp(a.imei, b.imei));
}

export interface PageRequest {
  q: string;
  sort: UnitListSort;
  limit: number;
  after: Resume | null;
  /** The department and tag names of a unit, for the search. */
  namesOf: (unit: UnitItem) => string[];
}

export interface UnitItemsPage {
  units: UnitItem[];
  /** Where the next page starts; null when nothing follows. */
  next: Resume | null;
}

/** One page of the units the caller may see. */
export async function unitPage(caller: Caller, request: PageRequest): Promise<UnitItemsPage> {
  return caller.unitImeis === undefined ? accountPage(caller.accountId, request) : grantedPage(caller, request);
}

const keyOf = (unit: UnitItem): Position => ({ name: unit.name, imei: unit.imei });

async function accountPage(accountId: string, request: PageRequest): Promise<UnitItemsPage> {
  if (!request.sort.startsWith('name')) return scanPage(accountId, request, () => false);
  const page = await namePage(accountId, request);
  return { ...page, units: await withStates(accountId, page.units) };
}

/**
 * The page's units read again by key for ingest's state, which the name index does not keep; in
 * the index's order, leaving out a unit deleted or moved to another account in between.
 */
async function withStates(accountId: string, units: readonly UnitItem[]): Promise<UnitItem[]> {
  const read = new Map((await readUnits(units.map((u) => u.imei))).filter((u) => u.accountId === accountId).map((u) => [u.imei, u]));
  return units.flatMap((u) => {
    const current = read.get(u.imei);
    return current ? [{ ...u, state: current.state }] : [];
  });
}

/** A page by name from the name index (without ingest's state). */
async function namePage(accountId: string, request: PageRequest): Promise<UnitItemsPage> {
  const { q, limit, after, sort } = request;
  if (!q) return scanPage(accountId, request, () => false);
  const variants = prefixVariants(q);
  if (after?.phase !== 'scan') {
    const found = await prefixPage(accountId, variants, sort, limit, after?.at ?? null);
    const last = found.units.at(-1);
    if (last && found.more) return { units: found.units, next: { phase: 'prefix', at: keyOf(last) } };
    if (last) return { units: found.units, next: { phase: 'scan', at: null } };
  }
  const covered = (unit: UnitItem) => variants.some((v) => unit.name.startsWith(v));
  return scanPage(accountId, { ...request, after: after?.phase === 'scan' ? after : null }, covered);
}

/**
 * The first phase of a search: the units whose name begins with one of the spellings, one Query of
 * the name index per spelling (a BETWEEN on the sort key, resumed at the same position), merged.
 */
async function prefixPage(accountId: string, variants: readonly string[], sort: UnitListSort, limit: number, at: Position | null): Promise<{ units: UnitItem[]; more: boolean }> {
  const desc = sort.endsWith('desc');
  const order = compareUnits(sort);
  const reads = await Promise.all(
    variants.map(async (v) => {
      let from = v;
      let to = `${v}\uffff`;
      let start: Record<string, unknown> | undefined;
      if (at) {
        if (desc ? at.name < from : at.name > to) return { items: [], more: false };
        if (desc ? at.name <= to : at.name >= from) {
          if (desc) to = at.name;
          else from = at.name;
          start = { accountId, name: at.name, imei: at.imei };
        }
      }
      const page: QueryCommandOutput = await dynamo().send(
        new QueryCommand({
          TableName: tableName('units'),
          IndexName: 'byAccountName',
          KeyConditionExpression: '#accountId = :a AND #name BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':a': accountId, ':from': from, ':to': to },
          ...nameIndexProjection,
          ScanIndexForward: !desc,
          ExclusiveStartKey: start,
          Limit: limit + 1,
        }),
      );
      return { items: (page.Items ?? []).map(parseUnitItem), more: page.LastEvaluatedKey !== undefined };
    }),
  );
  const merged = [...new Map(reads.flatMap((r) => r.items).map((u) => [u.imei, u])).values()].sort(order);
  return { units: merged.slice(0, limit), more: merged.length > limit || reads.some((r) => r.more) };
}

/** Reads the index in order from the cursor, keeping the units that match and that `skip` does not leave out. */
async function scanPage(accountId: string, { q, sort, limit, after, namesOf }: PageRequest, skip: (unit: UnitItem) => boolean): Promise<UnitItemsPage> {
  const started = Date.now();
  const byName = sort.startsWith('name');
  const matches = matcher(q);
  const units: UnitItem[] = [];
  const at = after?.at;
  let start: Record<string, unknown> | undefined = at ? { accountId, imei: at.imei, ...(byName ? { name: at.name } : {}) } : undefined;
  const resume = (position: Position): Resume => ({ phase: 'scan', at: position });
  for (;;) {
    const page: QueryCommandOutput = await dynamo().send(
      new QueryCommand({
        TableName: tableName('units'),
        IndexName: byName ? 'byAccountName' : 'byAccount',
        KeyConditionExpression: '#accountId = :a',
        ExpressionAttributeValues: { ':a': accountId },
        ...(byName ? nameIndexProjection : projection),
        ScanIndexForward: !sort.endsWith('desc'),
        ExclusiveStartKey: start,
        Limit: q ? SEARCH_READ : limit - units.length,
      }),
    );
    const items = (page.Items ?? []).map(parseUnitItem);
    for (let i = 0; i < items.length; i++) {
      const unit = items[i] as UnitItem;
      if (skip(unit) || !matches(unit, namesOf(unit))) continue;
      units.push(unit);
      if (units.length === limit) {
        const more = i < items.length - 1 || page.LastEvaluatedKey !== undefined;
        return { units, next: more ? resume(keyOf(unit)) : null };
      }
    }
    const lastRead = items.at(-1);
    if (!page.LastEvaluatedKey || !lastRead) return { units, next: null };
    start = page.LastEvaluatedKey;
    // Only a search has a budget: without one every unit read is answered, up to `limit`.
    if (q && Date.now() - started > (units.length ? BUDGET_WITH_MATCHES_MS : BUDGET_MS)) return { units, next: resume(keyOf(lastRead)) };
  }
}

/** An ordinary user's units: the granted ones read by key, in the list's order, from the cursor on. */
async function grantedPage(caller: Caller, { q, sort, limit, after, namesOf }: PageRequest): Promise<UnitItemsPage> {
  const matches = matcher(q);
  const order = compareUnits(sort);
  const granted = (await readUnits(caller.unitImeis ?? []))
    .filter((u) => u.accountId === caller.accountId && matches(u, namesOf(u)))
    .sort(order);
  const at = after?.at;
  const from = at ? granted.findIndex((u) => order(u, at) > 0) : 0;
  const rest = from < 0 ? [] : granted.slice(from);
  const units = rest.slice(0, limit);
  return { units, next: rest.length > limit ? { phase: 'scan', at: keyOf(units.at(-1) as UnitItem) } : null };
}

/** Units by IMEI, only what the list shows (with ingest's state, which the name index lacks). */
const readUnits = (imeis: readonly string[]): Promise<UnitItem[]> => getUnitItemsByImei(imeis, LISTED);

/** The whole list without paging (callers that ask for no page): null when there are more than `max`. */
export async function wholeList(caller: Caller, max: number): Promise<UnitItem[] | null> {
  const noNames = () => [];
  if (caller.unitImeis !== undefined) {
    if (caller.unitImeis.length > max) return null;
    return (await grantedPage(caller, { q: '', sort: 'name.asc', limit: max, after: null, namesOf: noNames })).units;
  }
  // Read from the IMEI index, which keeps the state, and put in name order here: every unit is read anyway.
  const page = await scanPage(caller.accountId, { q: '', sort: 'imei.asc', limit: max + 1, after: null, namesOf: noNames }, () => false);
  return page.units.length > max ? null : page.units.sort(compareUnits('name.asc'));
}
