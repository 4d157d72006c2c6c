/**
 * The size of an item as DynamoDB bills it (Developer Guide, "Item sizes and formats"): the UTF-8
 * length of each attribute name plus its value's size. A string is its UTF-8 length, a number about
 * one byte per two significant digits plus one, a boolean or null one byte, binary its length, a
 * list or map 3 bytes plus one byte per element plus the elements (a map's names included), a set
 * the sum of its members. Write units are per started KB, strongly consistent read units per
 * started 4 KB.
 */
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

function numberSize(n: number | bigint): number {
  const digits = String(n).replace(/^-/, '').replace('.', '').replace(/e.*$/i, '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberSize(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...(value as Set<unknown>)].reduce<number>((s, v) => s + valueSize(v), 0);
  if (Array.isArray(value)) return 3 + value.reduce<number>((s, v) => s + 1 + valueSize(v), 0);
  if (typeof value === 'object') {
    // lib-dynamodb's NumberValue keeps a number's text.
    if ('value' in value && Object.keys(value).length === 1 && typeof (value as { value: unknown }).value === 'string') {
      return numberSize(Number((value as { value: string }).value));
    }
    return 3 + Object.entries(value).reduce((s, [k, v]) => s + 1 + utf8(k) + valueSize(v), 0);
  }
  return 0;
}

/** Bytes of a whole item: its attribute names and values. */
export function itemSize(item: Readonly<Record<string, unknown>>): number {
  return Object.entries(item).reduce((s, [k, v]) => s + utf8(k) + valueSize(v), 0);
}
