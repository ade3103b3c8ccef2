/**
 * What every sandbox provider page shares: plain HTML with no script and no inline style (the CSP
 * is default-src 'self'), the stylesheet at /sandbox/assets/sandbox.css, escaping, and the answer
 * headers (never cached).
 */
import type { FastifyReply } from 'fastify';

export const SANDBOX_CSS_PATH = '/sandbox/assets/sandbox.css';

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );
}

/** A whole page: `badge` names which test provider this is; `body` is already escaped HTML. */
export function sandboxPage(badge: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="ru">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${SANDBOX_CSS_PATH}">
</head>
<body>
<main class="sandbox">
<p class="badge">${escapeHtml(badge)}</p>
${body}
</main>
</body>
</html>
`;
}

export function sendHtml(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
}
