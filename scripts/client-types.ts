/**
 * Writes `client/api-types.ts`, the types of the shipped client (`erx/client`), from the
 * OpenAPI document erx serves: a runtime is opened on a scratch data directory, asked for
 * `/openapi.json`, and closed. Run by `npm run build`; a test holds the committed file current.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientTypesOf } from './client-types-of.js';
import { loadConfig } from '../src/config/index.js';
import { MIN_SECRET_COST } from '../src/auth/secret-hash.js';
import { openRuntime } from '../src/server/runtime.js';

const dataDir = mkdtempSync(join(tmpdir(), 'erx-openapi-'));
try {
  const runtime = await openRuntime(
    loadConfig({ ERX_DATA_DIR: dataDir, ERX_METRICS_ADDR: 'off', ERX_LOG_LEVEL: 'silent' }),
    // The scratch clients' secrets are thrown away with the directory: the cheapest hashes do.
    { secretCost: MIN_SECRET_COST },
  );
  try {
    const answer = await runtime.app.inject({ method: 'GET', url: '/openapi.json' });
    if (answer.statusCode !== 200) throw new Error(`/openapi.json answered ${answer.statusCode}`);
    writeFileSync('client/api-types.ts', await clientTypesOf(answer.json()));
  } finally {
    await runtime.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
