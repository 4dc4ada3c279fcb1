/**
 * The retry contract's table: the README's "Retries" section holds the rows the module generates
 * (cells compared without the alignment padding), and statuses outside the table fall to their
 * class.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { retryContractTable, retryRuleFor } from '../api/retry-contract.js';

/** The table's rows as trimmed cells, the separator row left out. */
function cells(table: string): string[][] {
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|-]+\|$/.test(line))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}

describe('retry contract', () => {
  it('is the table of the README section "Retries"', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.split('\n## Retries\n')[1]?.split('\n## ')[0] ?? '';
    assert.deepEqual(cells(section), cells(retryContractTable()));
  });

  it('reads a status outside the table as its class', () => {
    assert.equal(retryRuleFor(422).retry, 'no');
    assert.equal(retryRuleFor(507).retry, 'once');
    assert.equal(retryRuleFor('no_answer').wait, 'backoff');
  });
});
