/**
 * The running test file's own database (a setupFiles entry of the api project): a copy of the
 * run's demo-seeded template, made before the file loads and dropped after its last test, so test
 * files run in parallel — each sees the demo data and its own writes, never another file's.
 * `testDatabaseUrl()` (test/databases.ts) answers its URL.
 */
import { afterAll, inject } from 'vitest';
import { cloneDatabase, dropDatabase, setFileDatabaseUrl, uniqueDatabaseName, withDatabase } from './databases.ts';

const serverUrl = inject('serverUrl');
const name = uniqueDatabaseName('esm_test_file');
await cloneDatabase(serverUrl, inject('templateDatabase'), name);
setFileDatabaseUrl(withDatabase(serverUrl, name));

// registered first, so it runs after the file's own afterAll hooks (they close their pools first;
// FORCE ends any connection a test left open)
afterAll(() => dropDatabase(serverUrl, name));
