// A test reporter for run-tests: it writes one line per failed test (file, name, first line of the
// error) and one per top-level test's duration to the file it is given as destination. run-tests
// prints the failures again once every phase has run, so the end of a long CI log names what
// failed, and the files that took longest, so the test loop's long poles are known.
import { relative } from 'node:path';

export default async function* failures(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail' && event.type !== 'test:pass') continue;
    const { name, details, nesting } = event.data;
    // Named by its source: the runner runs the compiled copy in .test-build/.
    const file = event.data.file
      ? relative('.', event.data.file)
          .replace(/^\.test-build\//, '')
          .replace(/\.js$/, '.ts')
      : '?';
    // A suite made by a helper (test/support/postgres.ts) is located there: its name says which.
    const where = file.startsWith('test/support/') ? `${file} (${name})` : file;
    if (nesting === 0) yield `time\t${where}\t${details?.duration_ms ?? 0}\n`;
    // A suite fails when a test in it fails; the test's own line already says which.
    if (event.type !== 'test:fail' || details?.type === 'suite') continue;
    const error = details?.error;
    const cause = error?.cause ?? error;
    const message = String(cause?.message ?? cause ?? '').split('\n')[0];
    yield `fail\t${file} :: ${name} :: ${message}\n`;
  }
}
