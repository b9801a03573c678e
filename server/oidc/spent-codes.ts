// An authorization code is spent by the first exchange that presents it with its own client, whether
// that exchange succeeds or not: a wrong PKCE verifier (or redirect_uri) uses the code up, so whoever
// intercepted it cannot try verifiers until one fits, and the app starts a new authorization (the
// advice of RFC 9700, OAuth 2.0 Security Best Current Practice). oidc-provider checks PKCE before
// it marks the code consumed, so a refused exchange would otherwise leave it usable.
import type { KoaContextWithOIDC } from 'oidc-provider';

export async function spendCodeOnFailedExchange(koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const { oidc } = koa;
  if (oidc?.route !== 'token' || oidc.params?.grant_type !== 'authorization_code' || koa.status !== 400) return;
  const value = oidc.params.code;
  if (typeof value !== 'string' || !oidc.client) return;
  const code = await oidc.provider.AuthorizationCode.find(value);
  // The library's type leaves out `consumed` (the time it was used, once it was).
  if (code && !(code as { consumed?: number }).consumed && code.clientId === oidc.client.clientId) await code.consume();
}
