/**
 * The web page (SPEC.md §2 "web page", §3, §9): the patient view at the path of the configured
 * prescription address, the pharmacy counter and prescriber desk at `/app/`, and their bundled
 * assets under `/assets/`, built by `npm run build` into `dist/web/`. Security headers and the
 * strict Content-Security-Policy apply to these routes only; the API keeps its own answers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where the staff screens are served. */
const STAFF_PATH = '/app/';

/** Where the bundled scripts, styles and icon are served. */
const ASSETS_PATH = '/assets/';

// Nothing from another origin and no inline script or style (SPEC.md §9). `data:` images are the
// QR codes the desk renders in the page; the camera preview is a MediaStream, not a URL.
const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  mediaSrc: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Not `upgrade-insecure-requests`: on a plain-http address (a local install, the tests) it
  // would send the page's own requests to https.
  upgradeInsecureRequests: null,
};

// The counter may use the camera of its own page; nothing else is needed.
const PERMISSIONS_POLICY = 'camera=(self), microphone=(), geolocation=(), payment=(), usb=()';

/** The built page: its folder and its two HTML documents. */
export interface WebBuild {
  readonly root: string;
  readonly staffHtml: string;
  readonly patientHtml: string;
}

// From `src/http/` (run by tsx) the build is `../../dist/web`; from `dist/src/http/` (the
// compiled server) it is `../../web`. The manifest written by the bundler marks a finished build.
const CANDIDATES = ['../../dist/web/', '../../web/'];

/** Finds the built page next to this module, or undefined when it has not been built. */
export function findWebBuild(): WebBuild | undefined {
  for (const candidate of CANDIDATES) {
    const root = fileURLToPath(new URL(candidate, import.meta.url));
    if (!existsSync(`${root}.vite/manifest.json`)) continue;
    return {
      root,
      staffHtml: readFileSync(`${root}index.html`, 'utf8'),
      patientHtml: readFileSync(`${root}rx/index.html`, 'utf8'),
    };
  }
  return undefined;
}

/** The path the patient view answers at: that of the prescription address (SPEC.md §3). */
function patientPath(prescriptionUrl: string): string {
  return new URL(prescriptionUrl).pathname || '/';
}

/**
 * Registers the web page on `app`. Without a build (the bundler has not run) nothing is
 * registered and a warning is logged: the API works without the page.
 */
export async function installWebPage(
  app: FastifyInstance,
  prescriptionUrl: string,
  build: WebBuild | undefined = findWebBuild(),
): Promise<void> {
  if (build === undefined) {
    app.log.warn('web page not built (npm run build); serving the API only');
    return;
  }
  const patient = patientPath(prescriptionUrl);
  await app.register(async (web) => {
    // Registered inside this plugin, helmet's hooks cover the web routes only.
    await web.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
    });
    web.addHook('onRequest', async (_request, reply) => {
      reply.header('permissions-policy', PERMISSIONS_POLICY);
    });

    await web.register(fastifyStatic, {
      root: `${build.root}assets`,
      prefix: ASSETS_PATH,
      // Every file name carries a content hash: cache for a year, never revalidate.
      immutable: true,
      maxAge: '365d',
      index: false,
      list: false,
      dotfiles: 'deny',
      // One route per built file; anything else falls through to the API's 404.
      wildcard: false,
    });

    const hidden = { schema: { hide: true } };
    const page = (html: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    const moved =
      (to: string, code: 301 | 302) => async (_r: FastifyRequest, reply: FastifyReply) =>
        reply.redirect(to, code);

    web.get(patient, hidden, page(build.patientHtml));
    // A link typed without its trailing slash; the browser keeps the fragment across redirects.
    if (patient.length > 1 && patient.endsWith('/')) {
      web.get(patient.slice(0, -1), hidden, moved(patient, 301));
    }
    if (patient === STAFF_PATH) {
      app.log.warn({ patient }, 'the prescription address takes the staff path; no staff screens');
      return;
    }
    web.get(STAFF_PATH, hidden, page(build.staffHtml));
    web.get(STAFF_PATH.slice(0, -1), hidden, moved(STAFF_PATH, 301));
    if (patient !== '/') web.get('/', hidden, moved(STAFF_PATH, 302));
  });
}
