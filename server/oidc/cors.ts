// Which web pages may call the provider from the browser (CORS): the origins of an app's registered
// redirect URIs, nothing else. At the token and revocation endpoints only a public client's origins
// (a single-page app; a confidential client calls them from its server), at userinfo the origins of
// the access token's app; discovery and the JWKS, which no client calls with its id, answer the
// origins of any app that is a client. Any other Origin gets no CORS headers (and the client
// endpoints refuse the call). The console's own API keeps its own CORS list (server/app.ts).
import type { Kysely } from 'kysely';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import type { OidcDatabase } from './tables';
import { Status } from '../../src/core/enums';
import { ClientType } from '../../src/core/schemas/sso';
import { callbackUrls } from './clients';

const originOf = (uri: string) => URL.parse(uri)?.origin;

/** oidc-provider's clientBasedCORS: for the endpoints that know their client. */
export function clientBasedCORS(koa: KoaContextWithOIDC, origin: string, client: Client): boolean {
  if (origin === 'null') return false;
  if (koa.oidc.route !== 'userinfo' && client.clientAuthMethod !== 'none') return false;
  return (client.redirectUris ?? []).some((uri) => originOf(uri) === origin);
}

/** The routes (and their preflights) that oidc-provider opens to every origin. */
const OPEN_ROUTES = new Set(['discovery', 'cors.discovery', 'jwks', 'cors.jwks']);

/** Discovery and the JWKS answer CORS only to the origins of the apps' redirect URIs (enabled apps
 *  with a client, public or with a secret); read at each cross-origin request. */
export function openEndpointsCORS(db: Kysely<OidcDatabase>) {
  const registered = async (origin: string) => {
    const rows = await db
      .selectFrom('apps')
      .innerJoin('oidcClients', 'oidcClients.appId', 'apps.id')
      .select('apps.callbackUrl')
      .where('apps.status', '=', Status.Enable)
      .where((where) => where.or([where('oidcClients.clientType', '=', ClientType.Public), where('oidcClients.secret', 'is not', null)]))
      .execute();
    return rows.some((row) => callbackUrls(row.callbackUrl).some((uri) => originOf(uri) === origin));
  };
  return async (koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    const origin = koa.get('Origin');
    if (!origin || !OPEN_ROUTES.has(koa.oidc?.route ?? '') || (origin !== 'null' && (await registered(origin)))) return;
    for (const header of Object.keys(koa.response.headers)) {
      if (header.toLowerCase().startsWith('access-control-')) koa.remove(header);
    }
  };
}
