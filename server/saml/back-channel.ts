// SAML Single Logout over the SOAP binding (SAML bindings §3.2): the back-channel that reaches an
// app without a browser. The LogoutRequests queued when a person's sessions end (sessions.ts) are
// signed here, posted by the outbox worker (server/channels/outbox.ts) to the app's registered SOAP
// service through the outbound address guard, without waiting on each post, and retried with a
// growing wait like the OpenID Connect logout tokens (server/oidc/backchannel.ts). Each request
// sent (delivered, or given up after the last attempt) is recorded in the audit log.
import type { Ctx } from '../context';
import { outboundFetch, outboundPolicy } from '../http/outbound-address';
import { backoffMs, CLAIM_LEASE_MS, LOGOUT_ATTEMPTS, logoutDispatcher } from '../oidc/backchannel';
import type { Dispatcher } from '../channels/dispatcher';
import { childOf, NS, parseXml, SamlError } from './xml';
import { logoutRequestFor, recordLogoutSent, type LogoutTarget } from './logout-requests';

const SOAP_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
const POST_TIMEOUT_MS = 5_000;
const MAX_ANSWER_BYTES = 64 * 1024;

const soapEnvelope = (message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP_ENVELOPE}"><soap:Body>${message.replace(/^<\?xml[^>]*\?>/, '')}</soap:Body></soap:Envelope>`;

/** The app's LogoutResponse in the SOAP answer must answer our request and say Success. */
function checkAnswer(text: string, requestId: string): void {
  const envelope = parseXml(text).documentElement;
  const body = envelope.namespaceURI === SOAP_ENVELOPE ? childOf(envelope, SOAP_ENVELOPE, 'Body') : undefined;
  const response = body && childOf(body, NS.protocol, 'LogoutResponse');
  if (!response) throw new SamlError('The answer is not a SOAP LogoutResponse');
  if (response.getAttribute('InResponseTo') !== requestId) throw new SamlError('The LogoutResponse answers another request');
  const status = childOf(childOf(response, NS.protocol, 'Status') ?? response, NS.protocol, 'StatusCode')?.getAttribute('Value');
  if (status !== 'urn:oasis:names:tc:SAML:2.0:status:Success') throw new SamlError(`The app answered ${status ?? 'no status'}`);
}

async function post(ctx: Ctx, target: LogoutTarget): Promise<void> {
  const { xml, id } = await logoutRequestFor(ctx, target);
  const response = await outboundFetch(target.sloUrl, {
    method: 'POST',
    timeoutMs: POST_TIMEOUT_MS,
    maxResponseBytes: MAX_ANSWER_BYTES,
    ...outboundPolicy(ctx.config),
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: 'http://www.oasis-open.org/committees/security' },
    body: soapEnvelope(xml),
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  checkAnswer(await response.text(), id);
}

/** Takes a due delivery for this process (one claimant wins); answers it with its app's service. */
async function claim(ctx: Ctx, id: string, now: number) {
  const claimed = await ctx.db
    .updateTable('samlLogoutDeliveries')
    .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1), nextAttemptAt: now + CLAIM_LEASE_MS }))
    .where('id', '=', id)
    .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return undefined;
  return ctx.db
    .selectFrom('samlLogoutDeliveries')
    .leftJoin('samlServiceProviders', 'samlServiceProviders.appId', 'samlLogoutDeliveries.appId')
    .select([
      'samlLogoutDeliveries.id',
      'samlLogoutDeliveries.appId',
      'userId',
      'nameId',
      'samlLogoutDeliveries.nameIdFormat',
      'sessionIndex',
      'attempts',
      'samlServiceProviders.sloUrl',
      'samlServiceProviders.sloBinding',
    ])
    .where('samlLogoutDeliveries.id', '=', id)
    .executeTakeFirst();
}

/** Posts one claimed LogoutRequest: delivered (or no longer wanted: the app left SOAP logout) it is
 *  deleted; a failed one waits for its next attempt, and after the last one it is given up. */
async function deliver(ctx: Ctx, id: string): Promise<void> {
  const row = await claim(ctx, id, ctx.now());
  if (!row) return;
  const remove = () => ctx.db.deleteFrom('samlLogoutDeliveries').where('id', '=', row.id).execute();
  if (!row.sloUrl || row.sloBinding !== 'SOAP') return void (await remove());
  const target: LogoutTarget = { ...row, sloUrl: row.sloUrl };
  try {
    await post(ctx, target);
    await ctx.audit.change(async () => {
      await remove();
      await recordLogoutSent(ctx, target, 'SOAP', true);
    });
  } catch (error) {
    const text = `SAML back-channel logout to ${row.sloUrl} failed: ${(error as Error).message}`;
    if (row.attempts >= LOGOUT_ATTEMPTS) {
      console.warn(`${text}; given up after ${row.attempts} attempts`);
      return void (await ctx.audit.change(async () => {
        await remove();
        await recordLogoutSent(ctx, target, 'SOAP', false);
      }));
    }
    await ctx.db
      .updateTable('samlLogoutDeliveries')
      .set({ status: 'queued', error: text.slice(0, 500), nextAttemptAt: ctx.now() + backoffMs(row.attempts) })
      .where('id', '=', row.id)
      .execute();
  }
}

/** The dispatcher of the LogoutRequests, one post at a time per app as for the logout tokens;
 *  `finished` is told when a post ends (its app may have more due). */
export function samlLogoutDispatcher(ctx: Ctx, finished: () => void): Dispatcher {
  const due = async (busyApps: string[], limit: number) => {
    const now = ctx.now();
    let query = ctx.db
      .selectFrom('samlLogoutDeliveries')
      .select(['id', 'appId'])
      .where((eb) => eb.or([eb('nextAttemptAt', 'is', null), eb('nextAttemptAt', '<=', now)]));
    if (busyApps.length) query = query.where('appId', 'not in', busyApps);
    return query.orderBy('createdAt').orderBy('id').limit(limit).execute();
  };
  return logoutDispatcher(due, (id) => deliver(ctx, id), finished);
}
