// Sign-in and consent for the provider, answered by the console's oauth/authorize page: it reads
// what the app asks for, and the signed-in user allows or denies. The browser then goes back to the
// provider (returnTo), which checks its own resume cookie, so only the browser that began the flow
// can finish it. A trusted app's request is allowed without the page when the person is signed in
// to the console (provider.ts), and the page allows it by itself after a sign-in. An app that asks
// for a token for its own API (its resource, see machine.ts) is granted the keys of its privileges
// it asks as scopes (its tokens then carry only those the person holds).
//
// The ID token's auth_time is when the person really signed in to the console (their session's
// start), not the moment of the answer. An app asking for a fresh sign-in (prompt=login, or a
// max_age the session is older than) is not allowed from an older session: the page asks the
// person to sign in again, and allowing it ends that session, so the console's sign-in page
// comes next and brings them back here.
//
// An interaction is answered once (a second answer goes where the first went). Both are changes
// with their audit record: a consent that adds to what the app may read
// (`app.consent`, not recorded when the app already had it all) and a session ended for being too
// old (`logout`).
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { Grant } from 'oidc-provider';
import { ApiError, notFound } from '../http/errors';
import { isTrusted } from './clients';
import { appResource } from './machine';
import type { OidcDatabase } from './tables';
import type { UserRow } from '../auth/actor';
import type { Ctx } from '../context';
import { sessionCreatedAt } from '../auth/sessions';
import { lockByName } from '../db/named-lock';

const scopesOf = (scope: unknown): string[] => (typeof scope === 'string' ? scope.split(' ').filter(Boolean) : []);

async function interactionOf(provider: Provider, uid: string) {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw notFound('Authorization request');
  return interaction;
}

/** The console session answering an interaction: whose it is, and when they signed in (ms, on the
 *  provider's clock). */
export interface ConsoleSignIn {
  sessionId: string;
  /** The signed-in person (the grant's account), as audit records name them. */
  person: Pick<UserRow, 'id' | 'username' | 'tenantId'>;
  signedInAt: number;
}

/** The console session `sessionId` of `person` answering an interaction. The session's age is
 *  taken on the console's clock (ctx.now), the moment on the provider's. */
export async function consoleSignIn(ctx: Ctx, sessionId: string, person: ConsoleSignIn['person']): Promise<ConsoleSignIn> {
  const createdAt = await sessionCreatedAt(ctx.db, sessionId);
  return { sessionId, person, signedInAt: createdAt === undefined ? 0 : Date.now() - (ctx.now() - createdAt) };
}

/** Whether the sign-in is as fresh as the app asked: after the app's request with prompt=login,
 *  within max_age seconds otherwise (a sign-in after the request is always fresh enough). */
export function freshEnough(interaction: Interaction, signIn: ConsoleSignIn, now: number): boolean {
  const afterRequest = signIn.signedInAt >= (interaction.iat ?? Math.floor(now / 1000)) * 1000;
  const prompts = String(interaction.params.prompt ?? '').split(' ');
  const maxAge = interaction.params.max_age === undefined ? undefined : Number(interaction.params.max_age);
  if (prompts.includes('login') && !afterRequest) return false;
  return maxAge === undefined || afterRequest || now - signIn.signedInAt <= maxAge * 1000;
}

export const SIGN_IN_AGAIN = 'This app asks you to sign in again';

/** An app (OpenID Connect or SAML) asked for a fresher sign-in than `sessionId`'s, and its person
 *  allowed it: the session ends, recorded as a `logout`, and the answer is 401 (sign in again). */
export async function endSessionForFreshSignIn(
  ctx: Ctx,
  ended: { person: ConsoleSignIn['person']; sessionId: string; ip: string; via: 'oidc' | 'saml'; app: string },
): Promise<never> {
  const { person, sessionId, ip, via, app } = ended;
  await ctx.audit.change(async () => {
    await ctx.sessions.revoke(sessionId);
    await ctx.audit.record({
      action: 'logout',
      actor: person,
      target: { type: 'session', id: sessionId },
      tenantId: person.tenantId,
      ip,
      detail: { via, reason: 'app_asked_fresh_sign_in', app },
    });
  });
  throw new ApiError(401, SIGN_IN_AGAIN);
}

export async function interactionDetails(provider: Provider, db: Kysely<OidcDatabase>, uid: string, signIn: ConsoleSignIn) {
  const interaction = await interactionOf(provider, uid);
  const clientId = String(interaction.params.client_id ?? '');
  const client = await provider.Client.find(clientId);
  if (!client) throw notFound('App');
  return {
    uid,
    clientId,
    clientName: client.clientName ?? clientId,
    scopes: scopesOf(interaction.params.scope),
    prompt: interaction.prompt.name,
    trusted: await isTrusted(db, clientId),
    signInAgain: !freshEnough(interaction, signIn, Date.now()),
  };
}

/** What a grant lets its app read: OpenID scopes, claims and the app's own API scopes. */
const grantedOf = (grant: Grant | undefined) => ({
  scopes: scopesOf(grant?.getOIDCScope()),
  claims: grant?.getOIDCClaims() ?? [],
  apiScopes: grant ? scopesOf(grant.getResourceScope(appResource(String(grant.clientId)))) : [],
});

/** What the person allows an app: the OpenID scopes and the app's own API scopes its request
 *  asks (`scope`, `resource`), and the `claims` it asks beyond them. */
export interface Allowed {
  clientId: string;
  params: Interaction['params'];
  claims: string[];
}

/** Allows `allowed` to `person` in the grant `existing` (theirs) or a new one, saved with its
 *  `app.consent` record when it adds to what the app may read; answers the grant's id. */
export async function allowApp(
  provider: Provider,
  ctx: Ctx,
  allowed: Allowed,
  existing: Grant | undefined,
  person: ConsoleSignIn['person'],
  ip: string,
): Promise<string> {
  const { clientId, params } = allowed;
  // A grant belongs to one account: another user signing in starts a fresh one.
  const kept = existing && existing.accountId === person.id ? existing : undefined;
  const before = grantedOf(kept);
  const grant = kept ?? new provider.Grant({ accountId: person.id, clientId });
  grant.addOIDCScope(scopesOf(params.scope).join(' '));
  if (allowed.claims.length) grant.addOIDCClaims(allowed.claims);
  if (params.resource === appResource(clientId)) {
    const keys = new Set((await ctx.db.selectFrom('privileges').select('key').where('appId', '=', clientId).execute()).map((row) => row.key));
    grant.addResourceScope(
      appResource(clientId),
      scopesOf(params.scope)
        .filter((scope) => keys.has(scope))
        .join(' '),
    );
  }
  const after = grantedOf(grant);
  const added = {
    scopes: after.scopes.filter((scope) => !before.scopes.includes(scope)),
    claims: after.claims.filter((claim) => !before.claims.includes(claim)),
    apiScopes: after.apiScopes.filter((scope) => !before.apiScopes.includes(scope)),
  };
  const adds = added.scopes.length || added.claims.length || added.apiScopes.length;
  // Nothing new (a trusted app's silent sign-in, again): the grant stays as it is.
  if (kept && !adds) return kept.jti;
  const grantId = await grant.save();
  if (adds) {
    await ctx.audit.record({
      action: 'app.consent',
      actor: person,
      target: { type: 'app', id: clientId },
      tenantId: person.tenantId,
      ip,
      detail: { protocol: 'oidc', ...added },
    });
  }
  return grantId;
}

/** The answer that allows `interaction`: its grant (allowApp) and the console sign-in as the login. */
async function allowedResult(provider: Provider, ctx: Ctx, interaction: Interaction, signIn: ConsoleSignIn, ip: string): Promise<Interaction['result']> {
  const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  const details = interaction.prompt.details as { missingOIDCClaims?: string[] };
  const allowed = { clientId: String(interaction.params.client_id ?? ''), params: interaction.params, claims: details.missingOIDCClaims ?? [] };
  const grantId = await allowApp(provider, ctx, allowed, existing, signIn.person, ip);
  return { login: { accountId: signIn.person.id, ts: Math.floor(signIn.signedInAt / 1000) }, consent: { grantId } };
}

/** Records the user's answer; answers where the browser goes next (back to the provider). Allowing
 *  from a session older than the app asked ends that session and answers 401 (sign in again). An
 *  interaction is answered once: a second answer (a double click, a retrying client, a burst)
 *  changes nothing and goes where the first went. */
export async function finishInteraction(provider: Provider, ctx: Ctx, uid: string, signIn: ConsoleSignIn, allow: boolean, ip: string): Promise<string> {
  const asked = await interactionOf(provider, uid);
  if (allow && !asked.result && !freshEnough(asked, signIn, Date.now())) {
    const app = String(asked.params.client_id ?? '');
    await endSessionForFreshSignIn(ctx, { person: signIn.person, sessionId: signIn.sessionId, ip, via: 'oidc', app });
  }
  return ctx.audit.change(async () => {
    // Read again under the lock, in the change: another answer may have come first.
    await lockByName(ctx, `oidc interaction ${uid}`);
    const interaction = await interactionOf(provider, uid);
    if (interaction.result) return interaction.returnTo;
    interaction.result = allow
      ? await allowedResult(provider, ctx, interaction, signIn, ip)
      : { error: 'access_denied', error_description: 'The user denied the request' };
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    return interaction.returnTo;
  });
}
