// Runs the static checks of `npm test` (typecheck, lint, import cycles, format) two at a time:
// each is single-threaded, and the machines erx is tested on have two cores. Each check's output
// is printed whole when it ends; the exit status is non-zero when any check failed.
// Usage: node scripts/checks.mjs
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'cycles', 'format:check'];
const AT_ONCE = 2;

function run(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`== ${name}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${seconds} s`);
      if (output.trim() !== '') console.log(output.trimEnd());
      resolve(code === 0);
    });
  });
}

const queue = [...CHECKS];
const results = [];
async function worker() {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    results.push(await run(name));
  }
}
await Promise.all(Array.from({ length: AT_ONCE }, worker));
process.exit(results.every(Boolean) ? 0 : 1);
