/** `erx validate`, `erx encode`, `erx decode`: the CHMED16A document on the command line. */
import type { Command } from 'commander';
import { decodeChmed, encodeChmed, validatePrescription } from '../../chmed16a/index.js';
import { parseLink } from '../../link/index.js';
import { argOrFile, readJsonFile } from '../read-input.js';
import { CliUsageError } from '../usage-error.js';

/** Registers the document commands on `program`. */
export function registerDocumentCommands(program: Command): void {
  program
    .command('validate')
    .description('check a prescription document (JSON) against the CHMED16A rules')
    .argument('<file.json>', 'the prescription document')
    .action((file: string) => {
      const violations = validatePrescription(readJsonFile(file));
      if (violations.length === 0) {
        process.stdout.write(`${file}: valid\n`);
        return;
      }
      for (const v of violations) process.stdout.write(`${v.path || '/'}: ${v.message}\n`);
      process.stdout.write(`${file}: ${violations.length} violation(s)\n`);
      process.exitCode = 1;
    });

  program
    .command('encode')
    .description('print the CHMED16A1 form (base64 of gzip) of a JSON document')
    .argument('<file.json>', 'the prescription document')
    .action((file: string) => {
      const doc = readJsonFile(file);
      if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
        throw new CliUsageError(`${file} must hold a JSON object`);
      }
      process.stdout.write(`${encodeChmed(doc)}\n`);
    });

  program
    .command('decode')
    .description('print the JSON of a link, a CHMED16A0/1 string, or @file holding either')
    .argument('<input>', 'link | CHMED16A… | @file')
    .action((input: string) => {
      const text = argOrFile(input).trim();
      const chmed = text.includes('#') ? parseLink(text).chmed : text;
      process.stdout.write(`${JSON.stringify(decodeChmed(chmed), null, 2)}\n`);
    });
}
