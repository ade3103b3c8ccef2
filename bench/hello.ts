/**
 * The HTTP baseline: a bare Fastify hello-world in its own process, the most this machine's Node
 * and Fastify answer without any work behind the route. PORT from the environment.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.get('/healthz', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
