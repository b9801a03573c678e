// Which web pages may call the provider from the browser (CORS): the origins of an app's registered
// redirect URIs, nothing else. At the token and revocation endpoints only a public client's origins
// (a single-page app; a confidential client calls them from its server), at userinfo the origins of
// the access token's app; discovery, the JWKS and the preflights, which carry no client id, answer
// the origins of the apps that could call them. Any other Origin (and `null`) gets no CORS headers
// (and the client endpoints refuse the call). The console's own API keeps its own CORS list (server/app.ts).
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

/** Whose origins may call a route that oidc-provider opens to every origin: discovery and the JWKS,
 *  and the preflights (OPTIONS) of the client endpoints, which carry no client id to check: any
 *  app's origins where any app calls (discovery, JWKS, userinfo), a public client's origins where only
 *  a public client calls from a browser (token, revocation, pushed authorization requests), nobody's
 *  at introspection (a public client may not introspect: public-clients.ts). */
const OPEN_ROUTES = new Map<string, 'any' | 'public' | 'none'>([
  ['discovery', 'any'],
  ['cors.discovery', 'any'],
  ['jwks', 'any'],
  ['cors.jwks', 'any'],
  ['cors.userinfo', 'any'],
  ['cors.token', 'public'],
  ['cors.revocation', 'public'],
  ['cors.pushed_authorization_request', 'public'],
  ['cors.introspection', 'none'],
  ['cors.device_authorization', 'none'],
]);

/** Those routes answer CORS only to the origins of the apps' redirect URIs (enabled apps with a
 *  client: public, or with a secret), read at each cross-origin request; never to `null`. */
export function openEndpointsCORS(db: Kysely<OidcDatabase>) {
  const registered = async (origin: string, clients: 'any' | 'public') => {
    const rows = await db
      .selectFrom('apps')
      .innerJoin('oidcClients', 'oidcClients.appId', 'apps.id')
      .select('apps.callbackUrl')
      .where('apps.status', '=', Status.Enable)
      .where((where) =>
        clients === 'public'
          ? where('oidcClients.clientType', '=', ClientType.Public)
          : where.or([where('oidcClients.clientType', '=', ClientType.Public), where('oidcClients.secret', 'is not', null)]),
      )
      .execute();
    return rows.some((row) => callbackUrls(row.callbackUrl).some((uri) => originOf(uri) === origin));
  };
  return async (koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    const origin = koa.get('Origin');
    const clients = OPEN_ROUTES.get(koa.oidc?.route ?? '');
    if (!origin || !clients || (origin !== 'null' && clients !== 'none' && (await registered(origin, clients)))) return;
    for (const header of Object.keys(koa.response.headers)) {
      if (header.toLowerCase().startsWith('access-control-')) koa.remove(header);
    }
  };
}
