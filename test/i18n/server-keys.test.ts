/**
 * Every message key the server can answer has a text in every language: the keys come from the
 * server's own code, not from a list kept by hand. They are the values of each `*MessageKeys`
 * export of shared/schemas, the literal keys the handlers throw (`new NotFoundError('Key')`,
 * `new ValidationError({ field: ['Key'] })`, `new DetailedError(422, 'Key', …)`), and the
 * `message` / `error` keys the shared zod schemas refuse with. A key the browser could only show as
 * 'Something went wrong' fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resources } from '../../shared/i18n/index';
import { languages } from '../../shared/schemas/common';

const root = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.(test|d)\.ts$/.test(name) ? [path] : [];
  });
}

const KEY = /^[A-Z][A-Za-z0-9]*\.?$/;

/** Literal message keys in thrown domain errors and in zod refusals. */
export function literalServerKeys(source: string): string[] {
  const keys: string[] = [];
  const patterns = [
    // new NotFoundError('Key'), new ForbiddenError('Key'), new ConflictError('Key'), new TooManyRequestsError(s, 'Key')
    /new (?:NotFound|Forbidden|Conflict)Error\(\s*'([^']+)'/g,
    /new TooManyRequestsError\([^,()]+,\s*'([^']+)'/g,
    /new DetailedError\(\s*\d+,\s*'([^']+)'/g,
    // new ValidationError({ field: ['Key', …] }, 'Key')
    /new ValidationError\(\{[^}]*\}(?:,\s*'([^']+)')?/g,
    // zod: .refine(…, { message: 'Key' }), z.string({ error: 'Key' })
    /\b(?:message|error):\s*'([A-Z][A-Za-z0-9]*)'/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      if (match[1]) keys.push(match[1]);
      if (match[0].startsWith('new ValidationError')) for (const inner of match[0].matchAll(/'([^']+)'/g)) keys.push(inner[1] as string);
    }
  }
  return keys.filter((k) => KEY.test(k));
}

/** The values of every `*MessageKeys` export (objects and arrays of keys). */
async function exportedServerKeys(): Promise<string[]> {
  const keys: string[] = [];
  for (const file of sourceFiles(join(root, 'shared', 'schemas'))) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (!/MessageKeys$/.test(name) || typeof value !== 'object' || value === null) continue;
      for (const key of Object.values(value)) if (typeof key === 'string') keys.push(key);
    }
  }
  return keys;
}

describe('server message keys', () => {
  it('finds the keys of thrown errors and zod refusals', () => {
    const source = `throw new NotFoundError('AccountNotFound'); new ValidationError({ phone: ['MakeSurePhoneNunIsCorrect'] });
      new DetailedError(422, 'InvalidEmail2FA', 'x'); new TooManyRequestsError(LOCKOUT, 'TooManyAttempts'); z.string().refine(f, { message: 'InvalidDate' });
      new ValidationError({ start_date: [keys.X] }, 'AlreadyBooked'); new ForbiddenError(keys.Y);`;
    expect([...new Set(literalServerKeys(source))].sort()).toEqual(
      ['AccountNotFound', 'AlreadyBooked', 'InvalidDate', 'InvalidEmail2FA', 'MakeSurePhoneNunIsCorrect', 'TooManyAttempts'].sort(),
    );
  });

  it('every key the server can answer has a text in en, sv and no', async () => {
    const keys = new Set(await exportedServerKeys());
    for (const dir of ['functions', join('shared', 'schemas'), join('shared', 'validators')]) {
      for (const file of sourceFiles(join(root, dir))) for (const key of literalServerKeys(readFileSync(file, 'utf8'))) keys.add(key);
    }
    // Sanity: the derivation found the keys it must (a broken pattern would find none).
    expect(keys.size).toBeGreaterThan(200);
    expect(keys).toContain('TrackerIsLocked');
    for (const lang of languages) {
      const texts = resources[lang] as Record<string, string>;
      expect([...keys].filter((key) => !texts[key]).sort(), `keys without a text in ${lang}`).toEqual([]);
    }
  });
});
