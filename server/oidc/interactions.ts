// Sign-in and consent for the provider, answered by the console's oauth/authorize page: it reads
// what the app asks for, and the signed-in user allows or denies. The browser then goes back to the
// provider (returnTo), which checks its own resume cookie, so only the browser that began the flow
// can finish it. A trusted app's request is allowed without the page when the person is signed in
// to the console (provider.ts), and the page allows it by itself after a sign-in. An app that asks
// for a token for its own API (its resource, see machine.ts) is granted the keys of its privileges
// it asks as scopes (its tokens then carry only those the person holds).
import type Provider from 'oidc-provider';
import type { Kysely } from 'kysely';
import { notFound } from '../http/errors';
import { isTrusted } from './clients';
import { appResource } from './machine';
import type { OidcDatabase } from './tables';
import type { Database } from '../db/tables';

const scopesOf = (scope: unknown): string[] => (typeof scope === 'string' ? scope.split(' ').filter(Boolean) : []);

async function interactionOf(provider: Provider, uid: string) {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) throw notFound('Authorization request');
  return interaction;
}

export async function interactionDetails(provider: Provider, db: Kysely<OidcDatabase>, uid: string) {
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
  };
}

/** Records the user's answer; answers where the browser goes next (back to the provider). */
export async function finishInteraction(provider: Provider, db: Kysely<Database>, uid: string, accountId: string, allow: boolean): Promise<string> {
  const interaction = await interactionOf(provider, uid);
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
    interaction.result = { login: { accountId }, consent: { grantId } };
  }
  await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
  return interaction.returnTo;
}
