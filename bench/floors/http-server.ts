/**
 * floor-http: a bare Fastify route answering a constant JSON object, in its own process. What any
 * erx route costs beyond this is erx's own work.
 *
 *   node --import tsx bench/floors/http-server.ts   (PORT, default 0)
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/floor', async () => ({ ok: true }));
const url = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`floor-http listening on ${url}\n`);
process.once('SIGTERM', () => void app.close().finally(() => process.exit(0)));
