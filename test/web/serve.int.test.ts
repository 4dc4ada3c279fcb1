/**
 * How the service serves its web page (SPEC.md §3, §9): the patient view at the prescription
 * address, the staff screens at `/app/`, hashed assets, a strict Content-Security-Policy on the
 * page only, and the API's own answers unchanged (unknown paths still 404 in the seed §7 shape).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findWebBuild } from '../../src/http/web.js';
import { startTestServer, useTestServer } from '../support/server.js';

if (findWebBuild() === undefined) throw new Error('the web page is not built: run `npm run build`');

function directives(csp: string | null): Map<string, string> {
  assert.ok(csp, 'a Content-Security-Policy header');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name = '', ...values] = d.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

describe('web page serving', () => {
  const server = useTestServer({ ownPrescriptionUrl: true });

  for (const path of ['/rx/', '/app/']) {
    test(`${path} is HTML under a strict CSP`, async () => {
      const answer = await server.request('GET', path);
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(answer.headers.get('cache-control'), 'no-cache');
      const csp = directives(answer.headers.get('content-security-policy'));
      assert.equal(csp.get('default-src'), "'self'");
      assert.equal(csp.get('script-src'), "'self'");
      assert.equal(csp.get('style-src'), "'self'");
      assert.equal(csp.get('connect-src'), "'self'");
      assert.equal(csp.get('frame-ancestors'), "'none'");
      assert.equal(csp.get('object-src'), "'none'");
      for (const [name, value] of csp) {
        assert.doesNotMatch(
          value,
          /https?:|\*|unsafe-/,
          `${name} allows nothing external or unsafe`,
        );
      }
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('x-frame-options'), 'DENY');
      assert.equal(answer.headers.get('referrer-policy'), 'no-referrer');
      assert.match(answer.headers.get('permissions-policy') ?? '', /camera=\(self\)/);
      // No inline script and nothing from another origin in the document itself.
      assert.doesNotMatch(answer.text, /<script(?![^>]*\ssrc=)[^>]*>/);
      assert.doesNotMatch(answer.text, /(src|href)="(https?:)?\/\//);
    });
  }

  test('assets are served with long-lived caching; unknown ones are a seed-shaped 404', async () => {
    const html = (await server.request('GET', '/app/')).text;
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')));
    for (const asset of assets) {
      const answer = await server.request('GET', asset);
      assert.equal(answer.status, 200, asset);
      assert.match(answer.headers.get('cache-control') ?? '', /immutable/);
    }
    const missing = await server.request('GET', '/assets/nope.js');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.error_code, 'not_found');
    assert.equal(missing.json.cause.StatusCode, 404);
  });

  test('redirects: / to the staff screens, paths without their slash to the slash', async () => {
    for (const [from, to, status] of [
      ['/', '/app/', 302],
      ['/app', '/app/', 301],
      ['/rx', '/rx/', 301],
    ] as const) {
      const answer = await fetch(server.url + from, { redirect: 'manual' });
      assert.equal(answer.status, status, from);
      assert.equal(answer.headers.get('location'), to, from);
    }
  });

  test('the API keeps its answers: no page headers, unknown paths 404 as JSON', async () => {
    const health = await server.request('GET', '/healthz');
    assert.equal(health.status, 200);
    assert.equal(health.headers.get('content-security-policy'), null);
    const unknown = await server.request('GET', '/nope');
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(unknown.json.error_code, 'not_found');
    const verify = await server.request('POST', '/ePrescription/verify', {
      body: 'not a link',
      contentType: 'text/plain',
    });
    assert.equal(verify.status, 400);
    assert.equal(verify.json.error_code, 'bad_request');
    const spec = await server.request('GET', '/openapi.json');
    const paths = Object.keys(spec.json.paths as Record<string, unknown>);
    assert.ok(!paths.some((p) => p === '/app/' || p === '/rx/' || p.startsWith('/assets')));
  });
});

describe('web page at another prescription address', () => {
  test('the patient view follows the path of ERX_PRESCRIPTION_URL', async () => {
    const server = await startTestServer({
      env: { ERX_PRESCRIPTION_URL: 'https://erx.example.ch/p/' },
    });
    try {
      assert.equal((await server.request('GET', '/p/')).status, 200);
      assert.equal((await server.request('GET', '/rx/')).status, 404);
      assert.equal((await server.request('GET', '/app/')).status, 200);
    } finally {
      await server.close();
    }
  });
});
