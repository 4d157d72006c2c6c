/**
 * Set up before every test file (vitest.config.ts): when the file ends, after its own hooks
 * (vitest runs the last hooks of a file in the reverse order of their registration), its tables
 * in DynamoDB Local are deleted (test/support/file-dynamo.ts).
 */
import { afterAll } from 'vitest';
import { dropFileTables } from './file-dynamo';

afterAll(dropFileTables);
