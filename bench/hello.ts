/**
 * The HTTP baseline: a bare Fastify hello-world in its own process, the most this machine's Node
 * and Fastify answer without any work behind the route. PORT from the environment. Given
 * DATABASE_URL, also `/round-trip` (GET, and POST with a small JSON body): one parameterised
 * statement to PostgreSQL per request, the least a route that reads or writes money can cost.
 */
import Fastify from 'fastify';
import pg from 'pg';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.get('/healthz', async () => ({ status: 'ok' }));
if (process.env.DATABASE_URL) {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  // Named, as the server's statements are: parsed and planned once per connection.
  const roundTrip = async (value: string) =>
    (await pool.query({ name: 'round_trip', text: 'SELECT $1::text AS echo, now() AS at', values: [value] }))
      .rows[0];
  app.get('/round-trip', async (request) => ({ status: 'success', result: await roundTrip(request.url) }));
  app.post('/round-trip', async (request) => ({
    status: 'success',
    result: await roundTrip(JSON.stringify(request.body)),
  }));
  app.addHook('onClose', () => pool.end());
}
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
