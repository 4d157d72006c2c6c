/**
 * Export jobs against DynamoDB Local and the embedded file store (in a directory): starting one
 * (identical requests at once make one job), and the report-export queue's work run with a small
 * real producer (the request as CSV) standing in for the report's build and render: the file
 * stored, progress written at most every 10 %, a second delivery running nothing, a failure
 * storing nothing and failing the job with its key.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuthContext } from '../platform/auth-context';
import { getPorts, overridePorts } from '../platform/container';
import { dynamo, tableName } from '../platform/db';
import { ForbiddenError } from '../platform/errors';
import { createLocalFileStore } from '../platform/adapters/embedded/file-store';
import { useLocalTables } from '../../test/support/local-tables';
import { reportExportRequestSchema } from '../../shared/schemas/report-exports';
import * as repository from './export-repository';
import { downloadUrl, listExports, startExport } from './export-service';
import { runExport, type ExportProducer } from './export-run';
import { toReportJob } from './export-request';

vi.mock('./export-repository', async (importOriginal) => {
  const original = await importOriginal<typeof repository>();
  return { ...original, setProgress: vi.fn(original.setProgress) };
});

const dir = mkdtempSync(join(tmpdir(), 'exports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// In the future: DynamoDB Local deletes items whose TTL attribute (epoch seconds) has passed.
const now = Date.parse('2037-03-02T09:00:00Z');
const sent: { queue: string; message: unknown }[] = [];
const files = createLocalFileStore({ secret: 's'.repeat(48), dir, now: () => new Date(now) });

beforeAll(async () => {
  await useLocalTables();
  overridePorts({
    clock: { now: () => new Date(now) },
    files,
    queues: { send: async (queue, message) => void sent.push({ queue, message }) },
    mailer: { send: async () => {} },
  });
});

async function newCaller(fields: Partial<AuthContext> = {}): Promise<AuthContext> {
  const caller: AuthContext = {
    userId: `u-${randomUUID()}`,
    accountId: `a-${randomUUID()}`,
    sessionId: 's',
    sessionExpiresAt: 0,
    username: `user-${randomUUID()}`,
    isAdmin: true,
    isSupport: false,
    subsiteId: 2,
    lang: 'sv',
    unitImeis: undefined,
    featureProfileId: undefined,
    ...fields,
  };
  await dynamo().send(
    new PutCommand({
      TableName: tableName('users'),
      Item: { userId: caller.userId, accountId: caller.accountId, username: caller.username, email: `${caller.username}@example.se`, firstName: 'Ada', lastName: 'Driver', lang: 'sv', subsiteId: 2, isAdmin: caller.isAdmin, isSupport: false, enableTwoFactorAuth: false },
    }),
  );
  return caller;
}

const request = (fields: Record<string, unknown> = {}) => reportExportRequestSchema.parse({ kind: 'tripLog', from: '2037-02-01', to: '2037-02-28', format: 'csv', ...fields });

/** The test's producer: the request as CSV, in ten pieces with progress after each. */
const csvProducer: ExportProducer = async (job, out, progress) => {
  out.write('kind,from,to,imeis,lang,brand,user\n');
  for (let i = 1; i <= 100; i++) {
    if (i === 100) out.write(`${job.request.kind},${job.request.from},${job.request.to},${(job.request.imeis ?? []).join(' ')},${job.lang},${job.brand},${job.caller.userId}\n`);
    progress(i / 100);
    await new Promise((resolve) => setImmediate(resolve));
  }
  out.end();
  return { rows: 1 };
};

async function fileText(key: string): Promise<string | null> {
  const head = await files.readHead(key, 10_000);
  return head ? Buffer.from(head.head).toString('utf8') : null;
}

describe('starting an export', () => {
  it('makes one job of identical requests sent at once, and a new one once it is done', async () => {
    const caller = await newCaller();
    sent.length = 0;
    const same = [request({ imeis: '356938074000017,356938074000009' }), request({ imeis: '356938074000009,356938074000017' })];
    const jobs = await Promise.all([...same, ...same, ...same].map((r) => startExport(caller, r, 'Europe/Stockholm', getPorts(), now)));
    expect(new Set(jobs.map((j) => j.id)).size).toBe(1);
    expect(sent).toEqual([{ queue: 'report-export', message: { userId: caller.userId, jobId: jobs[0]!.id } }]);
    expect(jobs[0]).toMatchObject({ status: 'queued', lang: 'sv', brand: 2, params: { imeis: ['356938074000009', '356938074000017'] } });

    // Another format, zone or filter is another request.
    const other = await startExport(caller, request({ format: 'pdf' }), 'Europe/Stockholm', getPorts(), now);
    expect(other.id).not.toBe(jobs[0]!.id);

    await runExport({ userId: caller.userId, jobId: jobs[0]!.id }, getPorts(), csvProducer);
    const again = await startExport(caller, same[0]!, 'Europe/Stockholm', getPorts(), now);
    expect(again.id).not.toBe(jobs[0]!.id);
  });

  it('starts again when the queue refused the message, and when the job was lost long ago', async () => {
    const caller = await newCaller();
    const refusing = { queues: { send: async () => Promise.reject(new Error('queue down')) } };
    await expect(startExport(caller, request(), 'Europe/Stockholm', refusing, now)).rejects.toThrow('queue down');
    const [failed] = await listExports(caller, getPorts(), now);
    expect(failed).toMatchObject({ status: 'failed', error: 'ReportExportFailed' });
    const fresh = await startExport(caller, request(), 'Europe/Stockholm', getPorts(), now);
    expect(fresh.status).toBe('queued');
    // Queued longer than every receive of its message could last: lost, so the request starts anew.
    const later = await startExport(caller, request(), 'Europe/Stockholm', getPorts(), now + 5 * 3_600_000);
    expect(later.id).not.toBe(fresh.id);
  });
});

describe('the report-export queue', () => {
  it('streams the file into the store, writes progress at most every 10 %, and a second delivery does nothing', async () => {
    const caller = await newCaller();
    const job = await startExport(caller, request({ imeis: '356938074000017' }), 'Europe/Stockholm', getPorts(), now);
    const produce = vi.fn(csvProducer);
    vi.mocked(repository.setProgress).mockClear();
    const message = { userId: caller.userId, jobId: job.id };
    // Delivered twice at once: one runs it.
    const results = await Promise.all([runExport(message, getPorts(), produce), runExport(message, getPorts(), produce)]);
    expect(results.sort()).toEqual(['done', 'skipped']);
    expect(produce).toHaveBeenCalledTimes(1);
    const written = vi.mocked(repository.setProgress).mock.calls.map(([, p]) => p);
    expect(written.length).toBeGreaterThanOrEqual(8);
    expect(written.length).toBeLessThanOrEqual(10);
    written.slice(1).forEach((p, i) => expect(p - written[i]!).toBeGreaterThanOrEqual(0.1 - 1e-9));

    const done = (await repository.getJob(caller.userId, job.id, { consistent: true }))!;
    expect(done).toMatchObject({ status: 'done', progress: 1, rows: 1, fileKey: `reports/${job.id}` });
    expect(await fileText(`reports/${job.id}`)).toBe(`kind,from,to,imeis,lang,brand,user\ntripLog,2037-02-01,2037-02-28,356938074000017,sv,2,${caller.userId}\n`);
    expect(toReportJob(done, 'Europe/Stockholm')).toMatchObject({ status: 'done', url: `/api/v1/user/reports/exports/${job.id}/download`, expiresAt: '2037-04-01T11:00:00.000+02:00' });

    // Redelivered after it was done: nothing runs again.
    expect(await runExport(message, getPorts(), produce)).toBe('skipped');
    expect(produce).toHaveBeenCalledTimes(1);

    // The portal link's target: a 5-minute URL saved under the report's name.
    const url = await downloadUrl(caller, job.id, getPorts(), now);
    const served = await files.serve(url.slice('/api/v1/files/'.length), new Date(now + 299_000));
    expect(served).toMatchObject({ contentType: 'text/csv; charset=utf-8', disposition: 'attachment; filename="tripLog-2037-02-01-2037-02-28.csv"' });
    expect(await files.serve(url.slice('/api/v1/files/'.length), new Date(now + 300_000))).toBeNull();
    const stranger = await newCaller();
    await expect(downloadUrl(stranger, job.id, getPorts(), now)).rejects.toMatchObject({ status: 404 });
  });

  it('fails the job with the refusal key or ReportExportFailed, and stores nothing of a half-written file', async () => {
    const caller = await newCaller();
    const refused = await startExport(caller, request({ kind: 'theft' }), 'Europe/Stockholm', getPorts(), now);
    const refusing: ExportProducer = async () => {
      throw new ForbiddenError('ReportNotAllowed');
    };
    expect(await runExport({ userId: caller.userId, jobId: refused.id }, getPorts(), refusing)).toBe('failed');
    expect(await repository.getJob(caller.userId, refused.id)).toMatchObject({ status: 'failed', error: 'ReportNotAllowed' });

    const broken = await startExport(caller, request({ kind: 'summary' }), 'Europe/Stockholm', getPorts(), now);
    const halfway: ExportProducer = async (_job, out, progress) => {
      out.write('a,b\n1,2\n');
      progress(0.5);
      throw new Error('the renderer ran out of memory');
    };
    expect(await runExport({ userId: caller.userId, jobId: broken.id }, getPorts(), halfway)).toBe('failed');
    expect(await repository.getJob(caller.userId, broken.id)).toMatchObject({ status: 'failed', error: 'ReportExportFailed' });
    expect(await fileText(`reports/${broken.id}`)).toBeNull();
    expect(readdirSync(join(dir, 'reports')).filter((name) => name.includes(broken.id))).toEqual([]);
    await expect(downloadUrl(caller, broken.id, getPorts(), now)).rejects.toMatchObject({ status: 409, key: 'ReportExportNotReady' });
    // A failed job is not run again by a redelivery.
    expect(await runExport({ userId: caller.userId, jobId: broken.id }, getPorts(), csvProducer)).toBe('skipped');
  });

  it("fails the job of a user who no longer exists, and forgets expired jobs with their files", async () => {
    const caller = await newCaller();
    const job = await startExport(caller, request({ kind: 'benefitValue' }), 'Europe/Stockholm', getPorts(), now);
    await dynamo().send(new PutCommand({ TableName: tableName('users'), Item: { userId: caller.userId, accountId: 'another-account', username: 'x', email: 'x@example.se', firstName: 'X', lastName: 'Y', lang: 'en', subsiteId: 0, isAdmin: true, isSupport: false, enableTwoFactorAuth: false } }));
    expect(await runExport({ userId: caller.userId, jobId: job.id }, getPorts(), csvProducer)).toBe('failed');
    expect(await repository.getJob(caller.userId, job.id)).toMatchObject({ status: 'failed', error: 'ReportOwnerGone' });

    const owner = await newCaller();
    const kept = await startExport(owner, request(), 'Europe/Stockholm', getPorts(), now);
    await runExport({ userId: owner.userId, jobId: kept.id }, getPorts(), csvProducer);
    expect(await fileText(`reports/${kept.id}`)).not.toBeNull();
    const thirtyDaysLater = now + 30 * 86_400_000;
    expect(await listExports(owner, getPorts(), thirtyDaysLater - 1000)).toHaveLength(1);
    expect(await listExports(owner, getPorts(), thirtyDaysLater)).toEqual([]);
    expect(await fileText(`reports/${kept.id}`)).toBeNull();
    expect(await repository.getJob(owner.userId, kept.id)).toBeNull();
  });
});
