// An app's own API as a resource server, named `urn:iam-console:app:<app id>`: the default resource
// of its client_credentials requests (machine clients, for apps that switched them on, see
// clients.ts), and, for an app that switched JWT access tokens on, a resource its people's tokens may
// be asked for too (`resource` at the authorization and token requests; the person's token carries,
// of the privilege keys asked, those the person holds when it is issued). Its scopes are the keys of the app's privileges and
// its tokens have the app as their audience: opaque (stored, so introspection and revocation work),
// or, with JWT access tokens on, JWTs signed with the provider's key that the app verifies itself
// (not stored: they live 5 minutes and cannot be revoked or introspected). No other resource is
// accepted, and person tokens without `resource` stay opaque tokens for userinfo and the menu.
import type { Kysely } from 'kysely';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { oidcLibrary } from './library';
import type { OidcDatabase } from './tables';
import type { Database } from '../db/tables';
import { MAX_PRIVILEGES, rolesClaims } from './app-claims';
import { compiledStatement } from '../db/statement';

export const appResource = (appId: string) => `urn:iam-console:app:${appId}`;

const isMachineRequest = (koa: KoaContextWithOIDC) => koa.oidc.route === 'token' && koa.oidc.params?.grant_type === 'client_credentials';

/** JWT access tokens live this long: they cannot be revoked, so their life is short. */
const JWT_ACCESS_TOKEN_TTL = 300;

export function machineResources(db: Kysely<OidcDatabase>) {
  // Read on every client_credentials grant: compiled once (prepared on PostgreSQL).
  const prepared = compiledStatement<{ appId: string }>({ preparedOnPostgres: true });
  const jwtSetting = prepared((slot) => db.selectFrom('oidcClients').select('jwtAccessTokens').where('appId', '=', slot('appId')));
  const privilegeKeys = prepared((slot) =>
    db.selectFrom('privileges').select('key').distinct().where('appId', '=', slot('appId')).orderBy('key').limit(MAX_PRIVILEGES),
  );
  return {
    enabled: true,
    defaultResource: async (koa: KoaContextWithOIDC) => (isMachineRequest(koa) && koa.oidc.client ? appResource(koa.oidc.client.clientId) : undefined),
    useGrantedResource: async () => false,
    getResourceServerInfo: async (koa: KoaContextWithOIDC, resource: string, client: { clientId: string }) => {
      if (resource !== appResource(client.clientId)) throw new (await oidcLibrary()).errors.InvalidTarget();
      const [settings] = (await db.executeQuery(jwtSetting({ appId: client.clientId }))).rows;
      const jwt = settings?.jwtAccessTokens === 1;
      if (!jwt && !isMachineRequest(koa)) throw new (await oidcLibrary()).errors.InvalidTarget();
      const keys = (await db.executeQuery(privilegeKeys({ appId: client.clientId }))).rows;
      const scope = keys.map((row) => row.key).join(' ');
      return jwt
        ? {
            scope,
            audience: client.clientId,
            accessTokenFormat: 'jwt' as const,
            accessTokenTTL: JWT_ACCESS_TOKEN_TTL,
            jwt: { sign: { alg: 'RS256' as const } },
          }
        : { scope, audience: client.clientId, accessTokenFormat: 'opaque' as const };
    },
  };
}

/** The scopes of a person's JWT access token are the privilege keys the app asked for and the
 *  person holds in it now (a machine token keeps the app's keys it asked for). */
export function onlyHeldPrivileges(db: Kysely<Database>) {
  return async (_koa: KoaContextWithOIDC, token: { accountId?: string; clientId?: string }, jwt: { payload: { scope?: string } }) => {
    if (!token.accountId || !token.clientId) return;
    const held = new Set((await rolesClaims(db, token.accountId, token.clientId)).privileges);
    const scope = (jwt.payload.scope ?? '')
      .split(' ')
      .filter((key) => held.has(key))
      .join(' ');
    jwt.payload.scope = scope || undefined;
  };
}

const GRANT_NOT_ALLOWED = 'requested grant type is not allowed for this client';

/** A client asking a grant it is not allowed (client_credentials, for an app that did not switch it
 *  on) is answered OAuth's `unauthorized_client`, not oidc-provider's generic `invalid_request`. */
export async function unauthorizedGrantType(koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const body = koa.body as { error?: string; error_description?: string } | undefined;
  if (koa.oidc?.route === 'token' && body?.error === 'invalid_request' && body.error_description === GRANT_NOT_ALLOWED) {
    koa.body = { ...body, error: 'unauthorized_client' };
  }
}
