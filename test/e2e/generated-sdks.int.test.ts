/**
 * Clients generated from the live `/openapi.json` by the generators integrators use
 * (openapi-typescript + openapi-fetch, @hey-api/openapi-ts, orval) each compile under
 * `tsc --strict --noUncheckedIndexedAccess` with a sample integration (create, verify as a
 * pharmacist, dispense with an `Idempotency-Key` and retry it, read the feed), and that sample
 * runs against this erx: the pharmacist's verify through each SDK is the variant with the
 * transactions, the retry answers the first dispensation, and the feed shows it. The document's
 * nested objects are named and open: a typed `Patient` with `City` and a `Pos` with `DtFrom`
 * compile, as erx accepts both (SPEC.md §4).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { createClient as heyApi } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import { generate as orval } from 'orval';
import { tsImport } from 'tsx/esm/api';
import ts from 'typescript';
import { clientTypesOf } from '../../scripts/client-types-of.js';
import { samplePrescription } from '../support/fixtures.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/** What every sample answers, for the assertions here. */
interface Outcome {
  variant: 'full' | 'short';
  eventTypes: string[];
  firstEventId: string;
  retriedEventId: string;
  feedHas: boolean;
}

type Integration = (
  baseUrl: string,
  doctor: string,
  pharmacist: string,
  document: unknown,
  key: string,
) => Promise<Outcome>;

/** The part of every sample that needs no SDK: its answer to the test. */
const OUTCOME = `
export interface Outcome {
  variant: 'full' | 'short';
  eventTypes: string[];
  firstEventId: string;
  retriedEventId: string;
  feedHas: boolean;
}
`;

const OPENAPI_FETCH = `
import createClient from 'openapi-fetch';
import type { components, paths } from './erx-api';
${OUTCOME}
type Prescription = components['schemas']['Prescription'];
export const patient: components['schemas']['Patient'] = { FName: 'Anna', LName: 'Muster', BDt: '1968-05-21', City: 'Bern' };
export const pos: components['schemas']['Pos'] = { D: [1, 0, 1, 0], DtFrom: '2025-03-14' };

export async function integration(baseUrl: string, doctor: string, pharmacist: string, document: Prescription, key: string): Promise<Outcome> {
  const prescriber = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer acs:' + doctor } });
  const pharmacy = createClient<paths>({ baseUrl, headers: { authorization: 'Bearer acs:' + pharmacist } });
  const created = await prescriber.POST('/ePrescription/create', {
    params: { query: { 'output-format': 'data' } },
    body: document,
  });
  if (created.data === undefined || typeof created.data !== 'object') throw new Error('create: ' + JSON.stringify(created.error));
  const link: string = created.data.SignedPrescriptionData;
  const id: string = created.data.prescription_id;
  const dispense = () => pharmacy.POST('/ePrescription/dispense/{id}', {
    params: { path: { id }, query: { force: false }, header: { 'Idempotency-Key': key } },
  });
  const first = await dispense();
  const again = await dispense();
  if (first.data === undefined || again.data === undefined) throw new Error('dispense: ' + JSON.stringify(first.error));
  const verified = await pharmacy.POST('/ePrescription/verify', { body: link });
  if (verified.data === undefined) throw new Error('verify: ' + JSON.stringify(verified.error));
  const result = verified.data;
  const feed = await pharmacy.GET('/ePrescription/events', { params: { query: { limit: 500 } } });
  const items = feed.data?.events ?? [];
  return {
    variant: 'tampering_detection_result' in result ? 'full' : 'short',
    eventTypes: 'events' in result ? result.events.map((e) => e.type) : [],
    firstEventId: first.data.id,
    retriedEventId: again.data.id,
    feedHas: items.some((item) => item.event.id === first.data?.id),
  };
}
`;

const HEY_API = `
import { createClient } from './hey/client';
import { createPrescription, dispensePrescription, listEvents, verifyPrescription } from './hey/sdk.gen';
import type { Patient, Pos, Prescription } from './hey/types.gen';
export const patient: Patient = { FName: 'Anna', LName: 'Muster', BDt: '1968-05-21', City: 'Bern' };
export const pos: Pos = { D: [1, 0, 1, 0], DtFrom: '2025-03-14' };
${OUTCOME}
export async function integration(baseUrl: string, doctor: string, pharmacist: string, document: Prescription, key: string): Promise<Outcome> {
  const prescriber = createClient({ baseUrl, auth: () => 'acs:' + doctor });
  const pharmacy = createClient({ baseUrl, auth: () => 'acs:' + pharmacist });
  const created = await createPrescription({ client: prescriber, query: { 'output-format': 'data' }, body: document });
  if (created.data === undefined || typeof created.data !== 'object') throw new Error('create: ' + JSON.stringify(created.error));
  const { SignedPrescriptionData: link, prescription_id: id } = created.data;
  const dispense = () => dispensePrescription({ client: pharmacy, path: { id }, headers: { 'Idempotency-Key': key } });
  const first = await dispense();
  const again = await dispense();
  if (first.data === undefined || again.data === undefined) throw new Error('dispense: ' + JSON.stringify(first.error));
  const verified = await verifyPrescription({ client: pharmacy, body: link });
  if (verified.data === undefined) throw new Error('verify: ' + JSON.stringify(verified.error));
  const result = verified.data;
  const feed = await listEvents({ client: pharmacy, query: { limit: 500 } });
  const items = feed.data?.events ?? [];
  return {
    variant: 'tampering_detection_result' in result ? 'full' : 'short',
    eventTypes: 'events' in result ? result.events.map((e) => e.type) : [],
    firstEventId: first.data.id,
    retriedEventId: again.data.id,
    feedHas: items.some((item) => item.event.id === first.data?.id),
  };
}
`;

const ORVAL = `
import { createPrescription, dispensePrescription, listEvents, verifyPrescription } from './orval/erx';
import type { Patient, Pos, Prescription } from './orval/erx';
export const patient: Patient = { FName: 'Anna', LName: 'Muster', BDt: '1968-05-21', City: 'Bern' };
export const pos: Pos = { D: [1, 0, 1, 0], DtFrom: '2025-03-14' };
${OUTCOME}
export async function integration(_baseUrl: string, doctor: string, pharmacist: string, document: Prescription, key: string): Promise<Outcome> {
  const as = (token: string) => ({ headers: { authorization: 'Bearer acs:' + token } });
  const created = await createPrescription(document, { 'output-format': 'data' }, as(doctor));
  if (created.status !== 200 || typeof created.data !== 'object' || !('prescription_id' in created.data)) throw new Error('create: ' + created.status);
  const { SignedPrescriptionData: link, prescription_id: id } = created.data;
  const dispense = () => dispensePrescription(id, undefined, undefined, {
    headers: { authorization: 'Bearer acs:' + pharmacist, 'Idempotency-Key': key },
  });
  const first = await dispense();
  const again = await dispense();
  if (first.status !== 200 || again.status !== 200) throw new Error('dispense: ' + first.status);
  const verified = await verifyPrescription(link, as(pharmacist));
  if (verified.status !== 200) throw new Error('verify: ' + verified.status);
  const result = verified.data;
  const feed = await listEvents({ limit: 500 }, as(pharmacist));
  const items = feed.status === 200 ? feed.data.events : [];
  return {
    variant: 'tampering_detection_result' in result ? 'full' : 'short',
    eventTypes: 'events' in result ? result.events.map((e) => e.type) : [],
    firstEventId: first.data.id,
    retriedEventId: again.data.id,
    feedHas: items.some((item) => item.event.id === first.data.id),
  };
}
`;

/** Type-checks the `.ts` files under `dir` as an integrator's strict project would. */
function typeErrors(dir: string, roots: string[]): string[] {
  const program = ts.createProgram({
    rootNames: roots.map((name) => join(dir, name)),
    options: {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
      skipLibCheck: true,
    },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file?.fileName ?? ''}:${d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
}

describe('clients generated from /openapi.json by the common generators', () => {
  let server: TestServer;
  let dir: string;
  let specFile: string;
  let spec: Parameters<typeof openapiTS>[0];

  before(async () => {
    server = await startTestServer();
    spec = (await server.request('GET', '/openapi.json')).json as typeof spec;
    // Inside the project, so the generated code resolves `openapi-fetch` from its node_modules.
    const cache = join(process.cwd(), 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    dir = mkdtempSync(join(cache, 'erx-sdks-'));
    specFile = join(dir, 'openapi.json');
    writeFileSync(specFile, JSON.stringify(spec));
  });

  after(async () => {
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  /** Compiles `sample` beside the generated client, then runs it against erx. */
  async function compileAndRun(name: string, sample: string): Promise<Outcome> {
    writeFileSync(join(dir, `${name}.ts`), sample);
    assert.deepEqual(typeErrors(dir, [`${name}.ts`]), [], `${name} compiles strictly`);
    const { integration } = (await tsImport(
      pathToFileURL(join(dir, `${name}.ts`)).href,
      import.meta.url,
    )) as {
      integration: Integration;
    };
    const key = `sdk-${name}-${Date.now()}`;
    return integration(
      server.url,
      server.doctor.token,
      server.pharmacist.token,
      samplePrescription(),
      key,
    );
  }

  function assertOutcome(outcome: Outcome): void {
    assert.equal(outcome.variant, 'full', 'a pharmacist’s verify is the variant with transactions');
    assert.deepEqual(outcome.eventTypes, ['create', 'full_dispense']);
    assert.equal(outcome.retriedEventId, outcome.firstEventId, 'the retry answers the first call');
    assert.ok(outcome.feedHas, 'the feed shows the dispensation');
  }

  it('openapi-typescript with openapi-fetch', async () => {
    writeFileSync(join(dir, 'erx-api.ts'), astToString(await openapiTS(structuredClone(spec))));
    assertOutcome(await compileAndRun('openapi-fetch-sample', OPENAPI_FETCH));
  });

  it('@hey-api/openapi-ts with its fetch client', async () => {
    await heyApi({
      input: specFile,
      output: join(dir, 'hey'),
      plugins: ['@hey-api/typescript', '@hey-api/sdk', '@hey-api/client-fetch'],
      logs: { level: 'silent' },
    });
    assertOutcome(await compileAndRun('hey-api-sample', HEY_API));
  });

  it('orval with its fetch client', async () => {
    await orval({
      input: { target: specFile },
      output: {
        target: join(dir, 'orval', 'erx.ts'),
        client: 'fetch',
        mode: 'single',
        baseUrl: server.url,
      },
    });
    assertOutcome(await compileAndRun('orval-sample', ORVAL));
  });

  it('the shipped client’s types are those of the live document (npm run build writes them)', async () => {
    const committed = readFileSync('client/api-types.ts', 'utf8');
    assert.equal(committed, await clientTypesOf(structuredClone(spec)));
  });
});
