// A test reporter that appends one line per failed test (file, name, first line of the error) to
// the file it is given as destination; run-tests prints those lines again once every phase has
// run, so the end of a long CI log names what failed.
export default async function* failures(source) {
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, details } = event.data;
    // A suite fails when a test in it fails; the test's own line already says which.
    if (details?.type === 'suite') continue;
    const error = details?.error;
    const cause = error?.cause ?? error;
    const message = String(cause?.message ?? cause ?? '').split('\n')[0];
    yield `${file ?? '?'} :: ${name} :: ${message}\n`;
  }
}
