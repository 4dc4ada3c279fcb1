/**
 * floor-verify: a bare Fastify route that reads the body as text, parses the link and verifies
 * its Ed25519 signature, nothing else: the least any verify of a link can cost. The public keys
 * come from the link key ring of the data directory given, read once (no per-call ring refresh).
 *
 *   node --import tsx bench/floors/verify-server.ts <link-keys dir>   (PORT, default 0)
 */
import Fastify from 'fastify';
import { LinkKeyring, parseLink, verifyLinkSignature } from '../../src/link/index.js';
import type { LinkVerificationKeys } from '../../src/link/index.js';

const directory = process.argv[2];
if (directory === undefined) throw new Error('usage: verify-server.ts <link-keys dir>');
const ring = LinkKeyring.open(directory);
const keys = ring.keysCurrentAt(ring.current().createdAt);
const fixed: LinkVerificationKeys = { keysCurrentAt: () => keys };

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
app.post<{ Body: string }>('/verify', async (request) => ({
  valid: verifyLinkSignature(parseLink(request.body), fixed),
}));
const url = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`floor-verify listening on ${url}\n`);
process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
