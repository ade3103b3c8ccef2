/**
 * Documents:
 *   GET /v2/wallet/transaction/:id/receipt[?format=pdf]   the receipt of one of the user's operations
 *   GET /v2/wallet/statement?account&date_from&date_to&format=csv|pdf   a statement, streamed
 *   GET /verify/:code                                      the public page that confirms a receipt
 * The verify page needs no sign-in; it is limited per client address in the database's rate limits.
 */
import { readFileSync } from 'node:fs';
import type { AnswerOf } from '@e-wallet/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { languageOf } from '../../http/errors.ts';
import { opaqueIds } from '../../http/opaque-id.ts';
import { route } from '../../http/route.ts';
import { operatorOf } from '../../policy/operator.ts';
import { addressKey, hit } from '../limits/index.ts';
import { statementCsv } from './csv.ts';
import { receiptPdf, statementPdf } from './pdf.ts';
import {
  ownReceiptFacts,
  receiptAnswer,
  statementHead,
  statementLines,
  verifiedReceiptFacts,
  verifyUrl,
} from './service.ts';
import { textsOf } from './texts.ts';
import { readReceiptCode } from './verify-code.ts';
import { notFoundPage, VERIFY_CSS_PATH, verifiedPage } from './verify-page.ts';

const CSS = readFileSync(new URL('./verify.css', import.meta.url), 'utf8');

/** A file answer: the route's handler sends it itself and answers the reply (never serialized). */
function sent<N extends 'documentReceipt' | 'statement'>(reply: FastifyReply): AnswerOf<N> {
  return reply as unknown as AnswerOf<N>;
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .header('X-Robots-Tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(html);
}

export default function documentsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const ids = opaqueIds(ctx.config);
  route(app, ctx, 'documentReceipt', async ({ auth, params, query, language, reply }) => {
    const facts = await ownReceiptFacts(ctx.db, auth.userId, params.id, language, ids);
    if (query.format !== 'pdf') return receiptAnswer(ctx, facts);
    const pdf = await receiptPdf(
      facts,
      verifyUrl(ctx, facts),
      operatorOf(ctx.config.BRAND, language),
      language,
    );
    reply
      .type('application/pdf')
      .header('Content-Disposition', `attachment; filename="receipt-${facts.transferId}.pdf"`)
      .send(pdf);
    return sent<'documentReceipt'>(reply);
  });

  route(app, ctx, 'statement', async ({ auth, query, language, reply }) => {
    const head = await statementHead(ctx.db, auth.userId, query);
    const lines = statementLines(ctx.db, head);
    const name = `statement-${head.dateFrom}-${head.dateTo}.${query.format}`;
    reply.header('Content-Disposition', `attachment; filename="${name}"`);
    if (query.format === 'csv') {
      reply.type('text/csv; charset=utf-8').send(statementCsv(head, lines, language));
    } else {
      reply
        .type('application/pdf')
        .send(statementPdf(head, lines, operatorOf(ctx.config.BRAND, language), language));
    }
    return sent<'statement'>(reply);
  });

  app.get(VERIFY_CSS_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=3600').type('text/css; charset=utf-8').send(CSS),
  );

  app.get<{ Params: { code: string } }>(
    '/verify/:code',
    { schema: { hide: true } },
    async (request, reply) => {
      const language = languageOf(request);
      const operator = operatorOf(ctx.config.BRAND, language);
      const limit = await hit(
        ctx.db,
        `verify:address:${addressKey(request.ip)}`,
        60,
        ctx.config.VERIFY_PER_ADDRESS_PER_MINUTE,
        ctx.clock.now(),
      );
      if (!limit.allowed) {
        reply.header('Retry-After', String(limit.retryAfterSeconds));
        return sendPage(reply, 429, notFoundPage(operator, language, textsOf(language).tooMany));
      }
      const named = readReceiptCode(ctx.config, request.params.code);
      const facts = named ? await verifiedReceiptFacts(ctx.db, named.transferId, named.side, language) : null;
      if (!facts) return sendPage(reply, 404, notFoundPage(operator, language));
      return sendPage(reply, 200, verifiedPage(facts, operator, language));
    },
  );
}
