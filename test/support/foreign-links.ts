/**
 * Links and CHMED16A strings other issuers published (test/fixtures/foreign-links/links.json,
 * each with its source), and the published QR code image beside them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where a fixture was taken from: a public repository, a commit, a file. */
export interface FixtureSource {
  repository: string;
  commit: string;
  path: string;
}

/** A published link of another issuer, with what erx must read from it. */
export interface ForeignLinkFixture {
  name: string;
  source: FixtureSource;
  note: string;
  link: string;
  host: string;
  issuer: string | null;
  issuedAt: number | null;
  /** The document's `Id`. */
  id: string;
  /** How many medicaments the document lists. */
  medicaments: number;
}

/** A published bare CHMED16A string. */
export interface ChmedStringFixture {
  name: string;
  source: FixtureSource;
  note: string;
  text: string;
  /** The whole document, when the fixture states it. */
  json: Record<string, unknown> | null;
  /** The document's `Id`, when it has one. */
  id: string | null;
}

const FOLDER = new URL('../fixtures/foreign-links/', import.meta.url);

const fixtures = JSON.parse(readFileSync(new URL('links.json', FOLDER), 'utf8')) as {
  links: ForeignLinkFixture[];
  strings: ChmedStringFixture[];
};

/** The published links of other issuers. */
export const FOREIGN_LINKS: readonly ForeignLinkFixture[] = fixtures.links;

/** The published bare CHMED16A strings. */
export const CHMED_STRINGS: readonly ChmedStringFixture[] = fixtures.strings;

/** HIN's published example QR code (the first of {@link FOREIGN_LINKS}), as a PNG file. */
export const FOREIGN_QR_PNG = fileURLToPath(new URL('erx-ch-medication-plan.png', FOLDER));
