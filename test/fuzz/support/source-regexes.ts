/**
 * Finds every regular expression written in `src/` (tests excluded) with the TypeScript parser:
 * regex literals, `new RegExp(...)` calls, and anchored pattern strings (`'^...$'`, the JSON
 * Schema `pattern`s). Comments and strings that merely mention a regex are not matched.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** One regular expression as it stands in a source file. */
export interface FoundRegex {
  kind: 'literal' | 'constructor' | 'pattern-string';
  /** The literal text (`/.../flags`), the constructor call, or the pattern string's value. */
  text: string;
  /** `path:line`. */
  where: string;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) {
      out.push(path);
    }
  }
  return out;
}

// A string that reads as an anchored regular expression: what JSON Schema `pattern`s look like.
const ANCHORED = /^\^.*\$$/s;

/** Every regular expression in the `.ts` files under `root`. */
export function findSourceRegexes(root = 'src'): FoundRegex[] {
  const found: FoundRegex[] = [];
  for (const file of sourceFiles(root).sort()) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const where = (node: ts.Node): string =>
      `${relative('.', file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        found.push({ kind: 'literal', text: node.getText(), where: where(node) });
      } else if (
        (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
        node.expression.getText() === 'RegExp'
      ) {
        found.push({ kind: 'constructor', text: node.getText(), where: where(node) });
      } else if (ts.isStringLiteral(node) && ANCHORED.test(node.text)) {
        found.push({ kind: 'pattern-string', text: node.text, where: where(node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** A regex literal's text (`/body/flags`) as a RegExp. */
export function fromLiteral(literal: string): RegExp {
  const end = literal.lastIndexOf('/');
  return new RegExp(literal.slice(1, end), literal.slice(end + 1));
}
