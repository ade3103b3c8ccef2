/**
 * The sandbox pages' shared stylesheet, GET /sandbox/assets/sandbox.css, only outside production
 * (the pages themselves belong to sandbox-kyc and sandbox-pay).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { SANDBOX_CSS_PATH } from './page.ts';

const CSS = readFileSync(new URL('./sandbox.css', import.meta.url), 'utf8');

export default function sandboxPagesRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.production) return;
  app.get(SANDBOX_CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=3600').type('text/css; charset=utf-8').send(CSS),
  );
}
