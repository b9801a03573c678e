// Web Browser SSO. An SP's AuthnRequest (HTTP-Redirect or HTTP-POST) is checked here and kept as a
// pending sign-in; the browser goes on to the console's SAML page (src/react/screens/samlAuthorize),
// where the route guard has the person sign in first and the page asks their consent (a trusted
// app is allowed without asking, as for OpenID Connect). The answer is a signed Response posted to
// the app's registered assertion consumer service. IdP-initiated sign-in (the portal's "Your apps")
// makes the same pending sign-in without a request.
//
// What the request demands (SAML core §3.4.1.1), as OpenID Connect's prompt does
// (server/oidc/interactions.ts): ForceAuthn="true" is answered only from a console sign-in made
// after the request (allowing from an older session ends it, and the sign-in page brings the person
// back); IsPassive="true" never shows a page: the browser signed in, with the app trusted or its
// consent remembered, is answered at once, anything else with the NoPassive status. Its
// NameIDPolicy's Format is given when this server can give it, else answered InvalidNameIDPolicy
// (name-id.ts).
//
// What is refused, and how: a message that cannot be read, from an unknown issuer, or naming an
// assertion consumer service that is not registered is refused here (never redirected: there is
// no trustworthy place to send it); a readable request from a known app that is disabled, with a
// wrong destination, an IssueInstant out of range, a replayed ID or a missing/bad signature is
// answered to the app's registered service as a SAML Response with the error StatusCode.
import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { childOf, NS, SamlError } from './xml';
import { buildResponse, CLOCK_SKEW_MS, decodeMessage, headerOf, readRequest, sentTo, type RequestHeader, type SamlStatus } from './messages';
import type { ProtocolParams } from './bindings-query';
import { verifiedRoot, verifyRedirectSignature, signElement } from './signatures';
import { idpEndpoints, SAML_SIGN_IN_PAGE } from './endpoints';
import { linkPath } from '../http/link-path';
import { getSamlRequestAnswer } from '../../src/core/contract/saml';
import { publishedKeys } from './keys';
import { indexOf, NAME_ID_URNS } from './sp-metadata';
import { nameIdIn, requestedFormat } from './name-id';
import type { NameIdFormat } from '../../src/core/schemas/saml';
import { toSamlProvider } from '../services/saml-providers';
import { rolesClaims, tenantClaims } from '../oidc/app-claims';
import { isTrusted } from '../oidc/clients';
import { oidcDb } from '../oidc/tables';
import { maySignIn } from '../oidc/read-ahead';
import { ApiError, notFound } from '../http/errors';
import { endSessionForFreshSignIn, SIGN_IN_AGAIN } from '../oidc/interactions';
import type { SamlServiceProviderTable } from '../db/tables';
import { Status } from '../../src/core/enums';
import { mayOpenFromPortal } from './app-access';
import { encryptAssertion } from './encryption';
import { consentFingerprint, consentRemembered, forgetConsent, rememberConsent } from './consent';
import { sessionCreatedAt } from '../auth/sessions';

/** How long a sign-in waits for the person. */
const PENDING_TTL_MS = 10 * 60_000;
/** How long a used message ID is remembered (longer than any IssueInstant we accept). */
const SEEN_TTL_MS = 2 * CLOCK_SKEW_MS + 60_000;

/** A Response to post to the app: its assertion consumer service, the message and RelayState. */
export interface PostToApp {
  acsUrl: string;
  samlResponse: string;
  relayState: string | null;
}

export type Outcome = { kind: 'page'; location: string } | { kind: 'post'; post: PostToApp };

export interface Incoming {
  binding: 'redirect' | 'post';
  message: string;
  relayState: string | null;
  /** HTTP-Redirect: the query's protocol parameters, raw and decoded (what its signature covers). */
  query?: ProtocolParams;
  /** SAMLResponse (an answer to our LogoutRequest) rather than SAMLRequest. */
  kind?: 'request' | 'response';
}

const spByEntityId = (ctx: Ctx, entityId: string) => ctx.db.selectFrom('samlServiceProviders').selectAll().where('entityId', '=', entityId).executeTakeFirst();

/** Reads a protocol message from an SP: its header, checked against the SP's certificate when the
 *  SP signs (always when it asked to: wantRequestsSigned). Answers the SP and the (signed) header. */
export async function readFromSp(ctx: Ctx, incoming: Incoming, kind: 'AuthnRequest' | 'LogoutRequest' | 'LogoutResponse') {
  const xml = decodeMessage(incoming.message, incoming.binding);
  let header: RequestHeader = readRequest(xml, kind);
  const sp = await spByEntityId(ctx, header.issuer);
  if (!sp) throw new SamlError('The issuer is not a registered app');
  const signed = incoming.binding === 'redirect' ? Boolean(incoming.query?.Signature) : Boolean(childOf(header.root, NS.dsig, 'Signature'));
  if (sp.wantRequestsSigned || (signed && sp.signingCert)) {
    if (!sp.signingCert) throw new SamlError('The app has no signing certificate', 'RequestDenied');
    try {
      if (incoming.binding === 'redirect')
        verifyRedirectSignature(incoming.query ?? {}, kind === 'LogoutResponse' ? 'SAMLResponse' : 'SAMLRequest', sp.signingCert);
      else header = headerOf(verifiedRoot(xml, sp.signingCert), kind);
    } catch (error) {
      // `refused`: why, told to the app in the StatusMessage of its answer.
      if (error instanceof SamlError) return { sp, header, refused: error.message, signed: false };
      throw error;
    }
    // `signed`: the message was verified against the app's certificate.
    return { sp, header, refused: undefined, signed: true };
  }
  return { sp, header, refused: undefined, signed: false };
}

/** Each message ID of an SP is accepted once. */
export async function firstUse(ctx: Ctx, issuer: string, id: string): Promise<boolean> {
  const now = ctx.now();
  await ctx.db.deleteFrom('samlMessageIds').where('expiresAt', '<', now).execute();
  const key = createHash('sha256').update(`${issuer}\n${id}`).digest('base64url');
  const inserted = await ctx.db
    .insertInto('samlMessageIds')
    .values({ id: key, expiresAt: now + SEEN_TTL_MS })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The app's HTTP-POST services, each with its index (the metadata's, else its position as given). */
const acsList = (sp: SamlServiceProviderTable) =>
  toSamlProvider(sp)
    .acsUrls.map((acs, position) => ({ ...acs, index: acs.index ?? position }))
    .filter((acs) => acs.binding === 'HTTP-POST');

/** The registered service the request names (by URL or metadata index), or the first one; never another. */
function chosenAcs(sp: SamlServiceProviderTable, root: Element): string {
  const registered = acsList(sp);
  const url = root.getAttribute('AssertionConsumerServiceURL');
  // (xmldom answers '' for an absent attribute: presence is asked with hasAttribute.)
  const named = indexOf(root.getAttribute('AssertionConsumerServiceIndex'));
  const found = url
    ? registered.find((acs) => acs.url === url)
    : root.hasAttribute('AssertionConsumerServiceIndex')
      ? registered.find((acs) => named !== undefined && acs.index === named)
      : registered[0];
  if (!found) throw new SamlError('The assertion consumer service is not registered for this app');
  const binding = root.getAttribute('ProtocolBinding');
  if (binding && binding !== 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST') throw new SamlError('Responses are sent with the HTTP-POST binding only');
  return found.url;
}

/** A signed error Response for the app (what it can be told: the status and, `message`, why). */
async function refusal(
  ctx: Ctx,
  sp: SamlServiceProviderTable,
  acsUrl: string,
  inResponseTo: string | null,
  relayState: string | null,
  second: string | undefined,
  code: SamlStatus['code'] = 'Requester',
  message?: string,
): Promise<Outcome> {
  const [key] = await publishedKeys(ctx.db, ctx.now());
  const { xml, responseId } = buildResponse({ issuer: idpEndpoints(ctx).entityId, recipient: acsUrl, inResponseTo, now: ctx.now() }, { code, second, message });
  return { kind: 'post', post: { acsUrl, samlResponse: Buffer.from(signElement(xml, responseId, key!)).toString('base64'), relayState } };
}

/** A disabled app signs nobody in (as its OpenID Connect client is no client: server/oidc/clients.ts). */
async function appEnabled(ctx: Ctx, appId: string): Promise<boolean> {
  const app = await ctx.db.selectFrom('apps').select('status').where('id', '=', appId).executeTakeFirst();
  return app?.status === Status.Enable;
}

/** An xs:boolean attribute of the request ("true" or "1"). */
const flag = (root: Element, name: string) => ['true', '1'].includes(root.getAttribute(name)?.trim() ?? '');

/** Whether the console session `sessionId` began at or after `moment` (a sign-in that late). */
async function signedInSince(ctx: Ctx, sessionId: string, moment: number): Promise<boolean> {
  const createdAt = await sessionCreatedAt(ctx.db, sessionId);
  return createdAt !== undefined && createdAt >= moment;
}

/** Whether a ForceAuthn request still waits for the person to sign in again. */
const needsFreshSignIn = async (ctx: Ctx, actor: Actor, row: { freshAfter: number | null }) =>
  row.freshAfter !== null && !(await signedInSince(ctx, actor.sessionId, row.freshAfter));

/** `person`: who is signed in to the console in this browser, if anyone (a passive request is
 *  answered from it); `ip`: the browser's address, for the audit record of such an answer. */
export async function receiveAuthnRequest(ctx: Ctx, incoming: Incoming, person: Actor | undefined, ip: string): Promise<Outcome> {
  const { sp, header, refused, signed } = await readFromSp(ctx, incoming, 'AuthnRequest');
  const acsUrl = chosenAcs(sp, header.root);
  const deny = (second: string, code?: SamlStatus['code'], message?: string) => refusal(ctx, sp, acsUrl, header.id, incoming.relayState, second, code, message);
  if (refused) return deny('RequestDenied', 'Requester', refused);
  if (!(await appEnabled(ctx, sp.appId))) return deny('RequestDenied');
  const now = ctx.now();
  if (!sentTo(header, signed, idpEndpoints(ctx).ssoUrl)) return deny('RequestDenied');
  if (Math.abs(now - header.issueInstant) > CLOCK_SKEW_MS) return deny('RequestDenied');
  if (!(await firstUse(ctx, sp.entityId, header.id))) return deny('RequestDenied');
  const nameIdPolicy = requestedFormat(header.root);
  if (nameIdPolicy.refused) return deny('InvalidNameIDPolicy', 'Requester', nameIdPolicy.refused);
  const forceAuthn = flag(header.root, 'ForceAuthn');
  // Passive: no page may be shown, so nobody to sign in (again) and no consent to ask.
  const passive = flag(header.root, 'IsPassive');
  if (passive && (!person || forceAuthn || !(await allowedWithoutAsking(ctx, person, sp.appId)))) return deny('NoPassive', 'Responder');
  const id = randomBytes(24).toString('base64url');
  await ctx.db
    .insertInto('samlRequests')
    .values({
      id,
      appId: sp.appId,
      requestId: header.id,
      acsUrl,
      relayState: incoming.relayState,
      answer: passive ? 'allow' : null,
      answeredBy: passive ? person!.id : null,
      expiresAt: now + PENDING_TTL_MS,
      freshAfter: forceAuthn ? now : null,
      nameIdFormat: nameIdPolicy.format,
    })
    .execute();
  if (passive) return { kind: 'post', post: await issueResponse(ctx, person!, id, ip) };
  return { kind: 'page', location: `${SAML_SIGN_IN_PAGE}?request=${id}` };
}

/** IdP-initiated: the person opens the app from the portal; the app's first service gets the Response. */
export async function launch(ctx: Ctx, actor: Actor, appId: string): Promise<{ redirectURL: string }> {
  const sp = await ctx.db.selectFrom('samlServiceProviders').selectAll().where('appId', '=', appId).executeTakeFirst();
  const acs = sp && acsList(sp)[0];
  if (!sp || !acs || !(await appEnabled(ctx, appId)) || !(await mayOpenFromPortal(ctx, actor, appId))) throw notFound('App');
  const id = randomBytes(24).toString('base64url');
  await ctx.db
    .insertInto('samlRequests')
    .values({
      id,
      appId,
      requestId: null,
      acsUrl: acs.url,
      relayState: null,
      answer: null,
      answeredBy: actor.id,
      expiresAt: ctx.now() + PENDING_TTL_MS,
      freshAfter: null,
      nameIdFormat: null,
    })
    .execute();
  return { redirectURL: `${SAML_SIGN_IN_PAGE}?request=${id}` };
}

async function pending(ctx: Ctx, id: string) {
  const row = await ctx.db.selectFrom('samlRequests').selectAll().where('id', '=', id).where('expiresAt', '>', ctx.now()).executeTakeFirst();
  if (!row) throw notFound('Sign-in request');
  return row;
}

/** What the app would be told about the person (the remembered consent's fingerprint). */
async function fingerprintFor(ctx: Ctx, actor: Actor, appId: string): Promise<string | undefined> {
  const sp = await ctx.db.selectFrom('samlServiceProviders').select(['entityId', 'nameIdFormat']).where('appId', '=', appId).executeTakeFirst();
  return sp && consentFingerprint(sp.entityId, sp.nameIdFormat, await attributesOf(ctx, actor.user, appId));
}

/** Whether the person already allowed the app to be told the same (remembered consent). */
async function consentStands(ctx: Ctx, actor: Actor, appId: string): Promise<boolean> {
  const fingerprint = await fingerprintFor(ctx, actor, appId);
  return fingerprint !== undefined && (await consentRemembered(ctx, actor.id, appId, fingerprint));
}

/** A trusted app, or one whose consent stands, is allowed without asking. */
const allowedWithoutAsking = async (ctx: Ctx, actor: Actor, appId: string) =>
  (await consentStands(ctx, actor, appId)) || (await isTrusted(oidcDb(ctx.db), appId));

/** The page's question: allowed without asking (`trusted`), and whether the app asks for a fresh
 *  sign-in first (`signInAgain`: the page offers "Sign in again"). */
export async function requestDetails(ctx: Ctx, actor: Actor, id: string) {
  const row = await pending(ctx, id);
  const app = await ctx.db.selectFrom('apps').select('name').where('id', '=', row.appId).executeTakeFirstOrThrow();
  const remembered = await consentStands(ctx, actor, row.appId);
  return {
    appId: row.appId,
    appName: app.name,
    trusted: remembered || (await isTrusted(oidcDb(ctx.db), row.appId)),
    remembered,
    signInAgain: await needsFreshSignIn(ctx, actor, row),
  };
}

/** Records the person's answer; the browser then opens the answer page (which posts to the app).
 *  Allowing a ForceAuthn request from a session older than it ends that session and answers 401
 *  (sign in again), as OpenID Connect's prompt=login does. */
export async function answerRequest(ctx: Ctx, actor: Actor, id: string, allow: boolean, ip: string) {
  const row = await pending(ctx, id);
  if (row.answeredBy && row.answeredBy !== actor.id) throw notFound('Sign-in request');
  if (allow && (await needsFreshSignIn(ctx, actor, row))) {
    await endSessionForFreshSignIn(ctx, { person: actor.user, sessionId: actor.sessionId, ip, via: 'saml', app: row.appId });
  }
  const fingerprint = await fingerprintFor(ctx, actor, row.appId);
  await ctx.audit.change(async () => {
    await ctx.db
      .updateTable('samlRequests')
      .set({ answer: allow ? 'allow' : 'deny', answeredBy: actor.id })
      .where('id', '=', id)
      .execute();
    const audited = { actor, app: row.appId, ip };
    if (allow && fingerprint) await rememberConsent(ctx, audited, fingerprint);
    else await forgetConsent(ctx, audited);
  });
  return { redirectURL: linkPath(getSamlRequestAnswer, { params: { id } }) };
}

/** The person's attributes in this app: the same names, e-mail, tenant, roles and privileges its
 *  OpenID Connect tokens carry (server/oidc/app-claims.ts). Names are the table of docs/saml.md. */
async function attributesOf(ctx: Ctx, user: Actor['user'], appId: string): Promise<Record<string, string[]>> {
  const { roles, privileges } = await rolesClaims(ctx.db, user.id, appId);
  const { tenant, user_type } = await tenantClaims(ctx.db, user);
  return {
    uid: [user.id],
    username: [user.username],
    name: [user.realName],
    email: user.email ? [user.email] : [],
    phone: user.mobilePhone ? [user.mobilePhone] : [],
    tenantId: tenant ? [tenant.id] : [],
    tenant: tenant ? [tenant.name] : [],
    userType: user_type ? [user_type] : [],
    roles,
    privileges,
  };
}

/** The answer page's Response: the pending sign-in is used once; a sign-in recorded in the audit
 *  log. The Response is built before the pending sign-in is used up; if it cannot be built (an
 *  encryption certificate stored before such keys were refused, say), the app is told with the
 *  Responder status and the failure is audited, instead of the request vanishing behind a 500. */
export async function issueResponse(ctx: Ctx, actor: Actor, id: string, ip: string): Promise<PostToApp> {
  const row = await pending(ctx, id);
  if (row.answeredBy !== actor.id) throw new ApiError(409, 'Answer the sign-in request first');
  // Allowed, then opened from an older session of the same person: a ForceAuthn request still waits.
  if (row.answer === 'allow' && (await needsFreshSignIn(ctx, actor, row))) throw new ApiError(401, SIGN_IN_AGAIN);
  const sp = await ctx.db.selectFrom('samlServiceProviders').selectAll().where('appId', '=', row.appId).executeTakeFirst();
  if (!sp) throw notFound('App');
  const refuse = async (second: string | undefined, code: SamlStatus['code'], message?: string) => {
    await useUp(ctx, id);
    return ((await refusal(ctx, sp, row.acsUrl, row.requestId, row.relayState, second, code, message)) as { post: PostToApp }).post;
  };
  const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', actor.id).executeTakeFirst();
  if (row.answer !== 'allow' || !maySignIn(user) || !(await appEnabled(ctx, sp.appId))) return refuse('RequestDenied', 'Responder');
  // The format the request asked for, else the app's setting.
  const format = (row.nameIdFormat ?? sp.nameIdFormat) as NameIdFormat;
  const given = nameIdIn(format, sp.appId, actor.user);
  if ('refused' in given) return refuse('InvalidNameIDPolicy', 'Requester', given.refused);
  const { nameId } = given;
  const now = ctx.now();
  const sessionIndex = `_${randomBytes(20).toString('hex')}`;
  let samlResponse: string;
  try {
    samlResponse = await signedAssertion(ctx, actor, sp, row, { nameId, nameIdFormat: NAME_ID_URNS[format] }, sessionIndex);
  } catch (error) {
    console.error('SAML response for app', sp.appId, error);
    await ctx.audit.standalone({
      action: 'app.sign_in',
      actor,
      target: { type: 'app', id: sp.appId },
      ip,
      success: false,
      detail: { protocol: 'saml', reason: 'response_failed' },
    });
    return refuse(undefined, 'Responder');
  }
  await ctx.audit.change(async () => {
    await useUp(ctx, id);
    await ctx.db
      .insertInto('samlSessions')
      .values({ sessionIndex, appId: sp.appId, userId: actor.id, nameId, nameIdFormat: format, consoleSessionId: actor.sessionId, createdAt: now })
      .execute();
    await ctx.audit.record({
      action: 'app.sign_in',
      actor,
      target: { type: 'app', id: sp.appId },
      ip,
      detail: { protocol: 'saml', initiatedBy: row.requestId ? 'app' : 'portal' },
    });
  });
  return { acsUrl: row.acsUrl, samlResponse, relayState: row.relayState };
}

/** Takes the pending sign-in `id` (once: a second answer page finds none). */
async function useUp(ctx: Ctx, id: string): Promise<void> {
  const taken = await ctx.db.deleteFrom('samlRequests').where('id', '=', id).executeTakeFirst();
  if (Number(taken.numDeletedRows) !== 1) throw notFound('Sign-in request');
}

/** The Success Response for the person, signed (and encrypted) as the app is registered, base64. */
async function signedAssertion(
  ctx: Ctx,
  actor: Actor,
  sp: SamlServiceProviderTable,
  row: { acsUrl: string; requestId: string | null },
  subject: { nameId: string; nameIdFormat: string },
  sessionIndex: string,
): Promise<string> {
  const now = ctx.now();
  const session = await ctx.db.selectFrom('sessions').select('createdAt').where('id', '=', actor.sessionId).executeTakeFirst();
  const { xml, responseId, assertionId } = buildResponse(
    { issuer: idpEndpoints(ctx).entityId, recipient: row.acsUrl, inResponseTo: row.requestId, now },
    { code: 'Success' },
    {
      audience: sp.entityId,
      ...subject,
      sessionIndex,
      authnInstant: session?.createdAt ?? now,
      attributes: await attributesOf(ctx, actor.user, sp.appId),
    },
  );
  const [key] = await publishedKeys(ctx.db, now);
  let signed = sp.signAssertion ? signElement(xml, assertionId!, key!) : xml;
  if (sp.encryptAssertions && sp.encryptionCert)
    signed = await encryptAssertion(signed, assertionId!, sp.encryptionCert, toSamlProvider(sp).assertionEncryption);
  if (sp.signResponse) signed = signElement(signed, responseId, key!);
  return Buffer.from(signed).toString('base64');
}
