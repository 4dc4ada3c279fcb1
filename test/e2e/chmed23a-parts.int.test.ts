/**
 * A CHMED23A prescription too large for one QR code (docs/decisions.md "One signed link over
 * several QR codes"): create answers the link and its part links, each fitting a QR code; verify
 * takes the parts in any order (a JSON array, or one part on each line) as the link in one piece,
 * and names missing and repeated parts; a QR image (PNG or SVG) holds every part's code, in
 * order, with `k/N` under each.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitsQrCode } from '../../src/qr/fits.js';
import { largeChmed23Prescription } from '../support/chmed23a-fixtures.js';
import { useTestServer } from '../support/server.js';
import { readStackedCodes } from '../support/stacked-codes.js';

describe('CHMED23A on several QR codes: create answers the parts, verify takes them', () => {
  const server = useTestServer();
  let link = '';
  let parts: string[] = [];

  it('create answers the link and its part links, each fitting a QR code', async () => {
    const answer = await server.request('POST', '/ePrescription/create?output-format=data', {
      token: server.doctor.token,
      body: JSON.stringify(largeChmed23Prescription()),
      contentType: 'application/json',
    });
    assert.equal(answer.status, 200, answer.text);
    link = answer.json.SignedPrescriptionData as string;
    parts = answer.json.SignedPrescriptionParts as string[];
    assert.equal(fitsQrCode(link), false);
    assert.ok(Array.isArray(parts) && parts.length >= 2, answer.text);
    assert.ok(parts.every(fitsQrCode));
    parts.forEach((part, i) =>
      assert.match(part, new RegExp(`#CHMED23A\\.${i + 1}/${parts.length}\\.`)),
    );
  });

  it('a PNG or SVG answer holds the code of every part, in order, k/N under each', async () => {
    const doc = largeChmed23Prescription();
    const png = await server.request('POST', '/ePrescription/create?output-format=qrcode', {
      token: server.doctor.token,
      body: JSON.stringify(doc),
      contentType: 'application/json',
    });
    assert.equal(png.status, 200, png.text);
    assert.equal(png.headers.get('content-type'), 'image/png');
    const codes = readStackedCodes(png.bytes, parts.length);
    assert.deepEqual(
      codes.map((code) => code.replace(/^.*#CHMED23A\.(\d+\/\d+)\..*$/, '$1')),
      parts.map((_, i) => `${i + 1}/${parts.length}`),
    );
    const whole = await server.request('POST', '/ePrescription/verify', {
      body: JSON.stringify(codes.reverse()),
      contentType: 'application/json',
    });
    assert.equal(whole.json.valid, true, whole.text);
    const svg = await server.request('POST', '/ePrescription/create?output-format=svg&size=300', {
      token: server.doctor.token,
      body: JSON.stringify(largeChmed23Prescription()),
      contentType: 'application/json',
    });
    assert.equal(svg.status, 200, svg.text);
    assert.equal(svg.headers.get('content-type'), 'image/svg+xml');
    assert.deepEqual(
      [...svg.text.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]),
      parts.map((_, i) => `${i + 1}/${parts.length}`),
    );
  });

  it('verify takes the parts in any order, as a JSON array or one on each line', async () => {
    const whole = await server.request('POST', '/ePrescription/verify', { body: link });
    assert.equal(whole.status, 200, whole.text);
    assert.equal(whole.json.valid, true);
    const reversed = [...parts].reverse();
    const asArray = await server.request('POST', '/ePrescription/verify', {
      body: JSON.stringify(reversed),
      contentType: 'application/json',
    });
    assert.deepEqual(asArray.json, whole.json);
    const asLines = await server.request('POST', '/ePrescription/verify', {
      body: `${reversed.join('\r\n')}\n`,
      contentType: 'text/plain',
    });
    assert.deepEqual(asLines.json, whole.json);
  });

  it('verify names missing and repeated parts with 400', async () => {
    const missing = await server.request('POST', '/ePrescription/verify', {
      body: JSON.stringify(parts.slice(1)),
      contentType: 'application/json',
    });
    assert.equal(missing.status, 400, missing.text);
    assert.deepEqual(missing.json.params, { missing: [1], total: parts.length });
    const alone = await server.request('POST', '/ePrescription/verify', { body: parts[0]! });
    assert.equal(alone.status, 400, alone.text);
    assert.match(alone.json.message, /missing/);
    const twice = await server.request('POST', '/ePrescription/verify', {
      body: JSON.stringify([...parts, parts[0]]),
      contentType: 'application/json',
    });
    assert.equal(twice.status, 400, twice.text);
    assert.match(twice.json.message, /^Part 1 of \d+ was given more than once\.$/);
  });
});
