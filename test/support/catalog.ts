/**
 * The product catalogue in tests: `erx catalog import` run as the operator runs it (the CLI from
 * the sources, in a process of its own) on the store of a running test server, and the GTINs of
 * the invented sample list (test/fixtures/catalog).
 */
import { execFile } from 'node:child_process';
import type { ListeningServer } from './server.js';
import { ERX_CLI } from './modules.js';

/** The sample list of the current form (Refdata.Articles.xml). */
export const CATALOG_SAMPLE = 'test/fixtures/catalog/articles-sample.xml';

/** The sample list of the older form (ARTICLE/ITEM, with Pharmacodes). */
export const CATALOG_OLDER_SAMPLE = 'test/fixtures/catalog/article-out-sample.xml';

/** GTINs of the sample and their German and French names. */
export const SAMPLE_ARTICLES = {
  febridol16: {
    gtin: '7680991010016',
    de: 'FEBRIDOL Tabl 500 mg 16 Stk',
    fr: 'FEBRIDOL cpr 500 mg 16 pce',
  },
  dormival: {
    gtin: '7680991030014',
    de: 'DORMIVAL Kaps 10 mg 30 Stk',
    fr: 'DORMIVAL caps 10 mg 30 pce',
  },
} as const;

/** What the command printed and how it exited. */
export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `erx catalog import <file>` on the store of `server` (its data dir or its database). */
export function importCatalog(server: ListeningServer, file: string): Promise<CliRun> {
  const url = server.runtime.config.databaseUrl;
  const env: NodeJS.ProcessEnv = { ...process.env, ERX_DATA_DIR: server.dataDir };
  if (url !== undefined) env.ERX_DATABASE_URL = url;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...ERX_CLI, 'catalog', 'import', file],
      { env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ status, stdout, stderr });
      },
    );
  });
}
