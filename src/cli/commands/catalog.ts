/** `erx catalog import FILE`: the product catalogue, straight in the store. */
import type { Command } from 'commander';
import { describeImport, replaceCatalog } from '../../catalog/import-catalog.js';
import { readArticleListFile } from '../../catalog/read-article-list.js';
import { loadConfig } from '../../config/index.js';
import { openStore } from '../../server/open-store.js';

/** Registers the catalogue commands on `program`. */
export function registerCatalogCommands(program: Command): void {
  const catalog = program
    .command('catalog')
    .description(
      'the product catalogue: names for GTINs at the desk, the counter and the patient view',
    );

  catalog
    .command('import')
    .description(
      "replace the catalogue with Refdata's article list (Refdata.Articles.xml, unzipped, or the older ARTICLE/ITEM file); in one transaction, so a failed import keeps the old catalogue",
    )
    .argument('<file>', 'the article list (XML)')
    .action(async (file: string) => {
      // Read whole before the store is opened: a wrong file touches nothing.
      const list = await readArticleListFile(file);
      const store = await openStore(loadConfig());
      try {
        process.stdout.write(`${describeImport(await replaceCatalog(store.catalog, list))}\n`);
      } finally {
        await store.close();
      }
    });
}
