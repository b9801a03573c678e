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
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import type { Kysely } from 'kysely';
import { ApiError, notFound } from '../http/errors';
import { isTrusted } from './clients';
import { appResource } from './machine';
import type { OidcDatabase } from './tables';
import type { Database } from '../db/tables';
import type { Ctx } from '../context';
import { sessionCreatedAt } from '../auth/sessions';

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
  accountId: string;
  signedInAt: number;
}

/** The console session `sessionId` as the signed-in person `accountId` answering an interaction.
 *  The session's age is taken on the console's clock (ctx.now), the moment on the provider's. */
export async function consoleSignIn(ctx: Ctx, sessionId: string, accountId: string): Promise<ConsoleSignIn> {
  const createdAt = await sessionCreatedAt(ctx.db, sessionId);
  return { sessionId, accountId, signedInAt: createdAt === undefined ? 0 : Date.now() - (ctx.now() - createdAt) };
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

/** Records the user's answer; answers where the browser goes next (back to the provider). Allowing
 *  from a session older than the app asked ends that session and answers 401 (sign in again). */
export async function finishInteraction(provider: Provider, db: Kysely<Database>, uid: string, signIn: ConsoleSignIn, allow: boolean): Promise<string> {
  const interaction = await interactionOf(provider, uid);
  const { accountId } = signIn;
  if (allow && !freshEnough(interaction, signIn, Date.now())) {
    await db.deleteFrom('sessions').where('id', '=', signIn.sessionId).execute();
    throw new ApiError(401, SIGN_IN_AGAIN);
  }
  if (!allow) {
    interaction.result = { error: 'access_denied', error_description: 'The user denied the request' };
  } else {
    const clientId = String(interaction.params.client_id ?? '');
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    // A grant belongs to one account: another user signing in starts a fresh one.
    const grant = existing && existing.accountId === accountId ? existing : new provider.Grant({ accountId, clientId });
    grant.addOIDCScope(scopesOf(interaction.params.scope).join(' '));
    const details = interaction.prompt.details as { missingOIDCClaims?: string[] };
    if (details.missingOIDCClaims?.length) grant.addOIDCClaims(details.missingOIDCClaims);
    if (interaction.params.resource === appResource(clientId)) {
      const keys = new Set((await db.selectFrom('privileges').select('key').where('appId', '=', clientId).execute()).map((row) => row.key));
      grant.addResourceScope(
        appResource(clientId),
        scopesOf(interaction.params.scope)
          .filter((scope) => keys.has(scope))
          .join(' '),
      );
    }
    const grantId = await grant.save();
    interaction.result = { login: { accountId, ts: Math.floor(signIn.signedInAt / 1000) }, consent: { grantId } };
  }
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}
