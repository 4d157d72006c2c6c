/**
 * What My trips keeps on the phone, in IndexedDB (through `idb`), one database per user
 * (`my-trips-<userId>`): the last trips read per unit with the time they were read (`trips`,
 * `meta`), the units the user may see, and the outbox of changes not yet accepted (`outbox`, in
 * the order they were made). Log-out clears the trips and units of every user on the phone
 * (`clearStoredReads`); an outbox stays with its user until it is sent or discarded, and only that
 * user's pages open it.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Trip } from '../../../../shared/schemas/trips';
import type { OutboxChange, OutboxEntry, Refusal } from './outbox';

export interface StoredUnit {
  imei: string;
  name: string;
  registrationNumber: string | null;
  lastSeen: string | null;
}

interface MyTripsDb extends DBSchema {
  trips: { key: string; value: Trip; indexes: { imei: string } };
  meta: { key: string; value: { key: string; value: unknown } };
  outbox: { key: number; value: OutboxEntry };
}

const DB_PREFIX = 'my-trips-';
const VERSION = 1;

function upgrade(db: IDBPDatabase<MyTripsDb>): void {
  if (!db.objectStoreNames.contains('trips')) db.createObjectStore('trips', { keyPath: 'id' }).createIndex('imei', 'imei');
  if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta', { keyPath: 'key' });
  if (!db.objectStoreNames.contains('outbox')) db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
}

const databases = new Map<string, Promise<IDBPDatabase<MyTripsDb>>>();
function db(userId: string): Promise<IDBPDatabase<MyTripsDb>> {
  let open = databases.get(userId);
  if (!open) {
    open = openDB<MyTripsDb>(`${DB_PREFIX}${userId}`, VERSION, { upgrade });
    databases.set(userId, open);
  }
  return open;
}

// Changes of the store, for the pages showing it (this tab; other tabs hear them on the channel).
type Listener = () => void;
const listeners = new Set<Listener>();
const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('my-trips');
function changed(): void {
  for (const listener of listeners) listener();
  channel?.postMessage('changed');
}
channel?.addEventListener('message', () => {
  for (const listener of listeners) listener();
});
export function onStoreChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function storedUnits(userId: string): Promise<StoredUnit[] | null> {
  const row = await (await db(userId)).get('meta', 'units');
  return (row?.value as StoredUnit[] | undefined) ?? null;
}

export async function storeUnits(userId: string, units: readonly StoredUnit[]): Promise<void> {
  await (await db(userId)).put('meta', { key: 'units', value: units });
}

export interface StoredTrips {
  trips: Trip[];
  /** When they were read from the server (epoch ms), null when never. */
  syncedAt: number | null;
}

export async function storedTrips(userId: string, imei: string): Promise<StoredTrips> {
  const database = await db(userId);
  const [trips, synced] = await Promise.all([database.getAllFromIndex('trips', 'imei', imei), database.get('meta', `synced:${imei}`)]);
  return { trips: trips.sort((a, b) => (a.startTime < b.startTime ? 1 : -1)), syncedAt: (synced?.value as number | undefined) ?? null };
}

/** Replaces a unit's stored trips with those just read. */
export async function storeTrips(userId: string, imei: string, trips: readonly Trip[], at: number): Promise<void> {
  const tx = (await db(userId)).transaction(['trips', 'meta'], 'readwrite');
  const store = tx.objectStore('trips');
  for (const key of await store.index('imei').getAllKeys(imei)) await store.delete(key);
  for (const trip of trips) await store.put(trip);
  await tx.objectStore('meta').put({ key: `synced:${imei}`, value: at });
  await tx.done;
  changed();
}

/** One trip as the server answered it (after an accepted edit). */
export async function storeTrip(userId: string, trip: Trip): Promise<void> {
  await (await db(userId)).put('trips', trip);
  changed();
}

export async function outboxEntries(userId: string): Promise<OutboxEntry[]> {
  return (await db(userId)).getAll('outbox');
}

/** Adds a change at the end of the outbox, with a new idempotency key. */
export async function enqueue(userId: string, change: OutboxChange, now: number): Promise<void> {
  const entry = { id: crypto.randomUUID(), createdAt: now, change } as Omit<OutboxEntry, 'seq'>;
  await (await db(userId)).add('outbox', entry as OutboxEntry);
  changed();
}

export async function removeEntry(userId: string, seq: number): Promise<void> {
  await (await db(userId)).delete('outbox', seq);
  changed();
}

export async function markRefused(userId: string, seq: number, refusal: Refusal): Promise<void> {
  const database = await db(userId);
  const entry = await database.get('outbox', seq);
  if (entry) await database.put('outbox', { ...entry, refusal });
  changed();
}

/** Log-out: every user's stored trips and units go; outboxes stay with their users (see above). */
export async function clearStoredReads(): Promise<void> {
  const names = typeof indexedDB.databases === 'function' ? (await indexedDB.databases()).map((d) => d.name ?? '') : [];
  for (const name of names.filter((n) => n.startsWith(DB_PREFIX))) {
    const userId = name.slice(DB_PREFIX.length);
    const database = await db(userId);
    const tx = database.transaction(['trips', 'meta'], 'readwrite');
    await Promise.all([tx.objectStore('trips').clear(), tx.objectStore('meta').clear(), tx.done]);
  }
  changed();
}
