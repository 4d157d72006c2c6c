/**
 * Generates demo history (demo-history.ts generateUnitHistory) on a worker thread, so that the
 * runtime's event loop keeps serving while some 56,000 records are computed at start.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { generateHistories, type GenerateRequest } from './demo-history';

parentPort?.postMessage(generateHistories(workerData as GenerateRequest));
