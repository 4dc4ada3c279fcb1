/** A command line used wrongly (exit code 2), as opposed to a failed operation (exit code 1). */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
