// The HTTP-POST binding's page: a form that the browser posts to the app (its registered assertion
// consumer or logout service) with the message, submitted by one inline script whose hash alone
// the page's Content-Security-Policy allows, and by a button when scripts are off. form-action
// names the app's origin only (every other answer keeps the strict policy of server/app.ts).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { answerLanguage, localizeMessage } from '../http/language';

const SUBMIT = 'document.forms[0].submit();';
const SUBMIT_HASH = `'sha256-${createHash('sha256').update(SUBMIT).digest('base64')}'`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function sendPostPage(
  request: FastifyRequest,
  reply: FastifyReply,
  url: string,
  fields: Record<string, string | null>,
  title = 'Signing you in to the app',
): FastifyReply {
  const language = answerLanguage(request.headers['accept-language']);
  const text = (message: string) => escapeHtml(localizeMessage(message, language));
  const inputs = Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const page = `<!DOCTYPE html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text(title)}</title></head>
<body>
<form method="post" action="${escapeHtml(url)}">${inputs}<p>${text(title)}</p><noscript><button type="submit">${text('Continue')}</button></noscript></form>
<script>${SUBMIT}</script>
</body>
</html>`;
  return reply
    .header(
      'content-security-policy',
      `default-src 'none'; script-src ${SUBMIT_HASH}; form-action ${new URL(url).origin}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page);
}
