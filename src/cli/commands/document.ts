/** `erx validate`, `erx encode`, `erx decode`: the CHMED16A document on the command line. */
import type { Command } from 'commander';
import { encodeChmed, validatePrescription } from '../../chmed16a/index.js';
import { readDocument } from '../../document/index.js';
import { parseLink, readForeignLink } from '../../link/index.js';
import { argOrFile, readJsonFile } from '../read-input.js';
import { CliUsageError } from '../usage-error.js';
import { terminalJson, terminalText } from '../terminal-text.js';

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
    .description(
      'print the JSON of a link, a CHMED16A0/1 or CHMED23A string, or @file holding either; ' +
        'a CHMED23A document split over several codes: each part as an argument, in any order',
    )
    .argument('<input...>', 'link | CHMED16A… | CHMED23A… | @file, or CHMED23A parts')
    .action((inputs: string[]) => {
      if (inputs.length > 1) {
        const { doc } = readDocument(inputs.map((input) => argOrFile(input).trim()));
        process.stdout.write(`${terminalJson(doc, 2)}\n`);
        return;
      }
      const text = argOrFile(inputs[0]!).trim();
      // Another service's link (SPEC.md §3): its document is shown, with who issued it.
      const foreign = readForeignLink(text);
      const chmed = foreign?.chmed ?? (text.includes('#') ? parseLink(text).chmed : text);
      const { doc } = readDocument([chmed]);
      if (foreign !== undefined) {
        process.stderr.write(
          `issued by ${terminalText(foreign.host)}, not by this service: not verifiable here\n`,
        );
      }
      process.stdout.write(`${terminalJson(doc, 2)}\n`);
    });
}
