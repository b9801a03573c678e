// Machine clients (the client_credentials grant, for apps that switched it on, see clients.ts).
// oidc-provider gives a client_credentials token scopes only through a resource server: each app is
// its own, named `urn:iam-console:app:<app id>`, the default resource of its client_credentials
// requests. Its scopes are the keys of the app's privileges; the token is opaque (stored, so
// introspection and revocation work) with the app as its audience. No other resource is accepted,
// and person tokens keep having none.
import type { Kysely } from 'kysely';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { oidcLibrary } from './library';
import type { Database } from '../db/tables';
import { MAX_PRIVILEGES } from './app-claims';

export const appResource = (appId: string) => `urn:iam-console:app:${appId}`;

const isMachineRequest = (koa: KoaContextWithOIDC) => koa.oidc.route === 'token' && koa.oidc.params?.grant_type === 'client_credentials';

export function machineResources(db: Kysely<Database>) {
  return {
    enabled: true,
    defaultResource: async (koa: KoaContextWithOIDC) => (isMachineRequest(koa) && koa.oidc.client ? appResource(koa.oidc.client.clientId) : undefined),
    useGrantedResource: async () => false,
    getResourceServerInfo: async (koa: KoaContextWithOIDC, resource: string, client: { clientId: string }) => {
      if (!isMachineRequest(koa) || resource !== appResource(client.clientId)) throw new (await oidcLibrary()).errors.InvalidTarget();
      const keys = await db.selectFrom('privileges').select('key').distinct().where('appId', '=', client.clientId)
        .orderBy('key').limit(MAX_PRIVILEGES).execute();
      return { scope: keys.map((row) => row.key).join(' '), audience: client.clientId, accessTokenFormat: 'opaque' as const };
    },
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
