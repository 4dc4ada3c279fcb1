/** Progress goes to stderr, so stdout carries only the table or the one JSON object. */

/** Writes one progress line to stderr, prefixed with the seconds since the bench started. */
export function progress(message: string): void {
  const seconds = (performance.now() / 1000).toFixed(1).padStart(6);
  process.stderr.write(`[${seconds}s] ${message}\n`);
}
