/**
 * Exchange between one's own accounts:
 *   GET  /v2/wallet/exchange/rates   the rates and when they were read
 *   POST /v2/wallet/exchange/quote   a quote that holds 30 seconds
 *   POST /v2/wallet/exchange         the quote moved, with the PIN and an Idempotency-Key
 * The rates are read from the provider when the server is ready and then by the `rates-refresh` job.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import { defineRatesJobs, exchangeMoney, quoteExchange, ratesOf, refreshRatesOnce } from './service.ts';

export default function exchangeRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(app, ctx, 'exchangeRates', () => ratesOf(ctx));
  route(app, ctx, 'exchangeQuote', ({ auth, body }) => quoteExchange(ctx, auth.userId, body));
  route(app, ctx, 'exchange', ({ auth, body, idempotencyKey, language }) =>
    exchangeMoney(ctx, auth.userId, body, { idempotencyKey, language }),
  );

  defineRatesJobs(ctx);
  app.addHook('onReady', async () => {
    const first = refreshRatesOnce(ctx);
    // The sandbox answers at once; a real source is not waited for (the stored rates serve meanwhile).
    if (ctx.rates.id === 'sandbox') await first;
  });
}
