/**
 * Runs the HTTP fuzz loop in a process of its own and prints its report as the last line of
 * output. The suite runs the loop here rather than inside the test runner: the runner's async
 * bookkeeping about doubles the cost of every request, and the bounded mode has a time budget.
 * Options come from the environment the test sets: ERX_FUZZ_REQUESTS, ERX_FUZZ_SEED,
 * ERX_FUZZ_SOCKET_EVERY, ERX_FUZZ_SHARD and ERX_FUZZ_SHARDS.
 */
import { REPORT_MARKER, runHttpFuzz } from './http-fuzz-loop.js';

const report = await runHttpFuzz({
  requests: Number(process.env.ERX_FUZZ_REQUESTS),
  seed: Number(process.env.ERX_FUZZ_SEED),
  socketEvery: Number(process.env.ERX_FUZZ_SOCKET_EVERY),
  shard: Number(process.env.ERX_FUZZ_SHARD),
  shards: Number(process.env.ERX_FUZZ_SHARDS),
});
process.stdout.write(`\n${REPORT_MARKER}${JSON.stringify(report)}\n`);
