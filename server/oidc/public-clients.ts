// What a public client (a single-page or native app, no secret: clients.ts) may not do at the
// provider beyond a confidential one: its refresh tokens live shorter, and rotation never extends
// them past the first one's end (a stolen token cannot be kept alive for ever); it may not
// introspect tokens (introspection is for an app's servers, which prove who they are).
import type { Client, KoaContextWithOIDC } from 'oidc-provider';

/** A public client's refresh tokens end this long (seconds) after the sign-in, however often rotated. */
export const PUBLIC_REFRESH_TOKEN_TTL = 24 * 3600;

const isPublic = (client: Client | undefined) => client?.clientAuthMethod === 'none';

/** The refresh token's life: `confidential` seconds, or for a public client what is left of the token
 *  it replaces (PUBLIC_REFRESH_TOKEN_TTL for the first). */
export function refreshTokenTTL(confidential: number) {
  return (koa: KoaContextWithOIDC | undefined, _token: unknown, client: Client): number => {
    if (!isPublic(client)) return confidential;
    return koa?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? PUBLIC_REFRESH_TOKEN_TTL;
  };
}

/** A public client's introspection request is answered 401 invalid_client (whatever the token),
 *  instead of the token's details. */
export async function noIntrospectionForPublicClients(koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (koa.oidc?.route === 'introspection' && isPublic(koa.oidc.client)) {
    koa.status = 401;
    koa.body = { error: 'invalid_client', error_description: 'a public client (single-page or native app) may not introspect tokens' };
  }
}
