// response_mode=form_post answers with a page that posts the code to the app's redirect URI. The
// server's Content-Security-Policy allows forms to post to our own origin only (form-action
// 'self'), which would block it: this page alone gets form-action for the origin of the redirect
// URI the provider has just checked against the client's registered ones. The same for the
// RP-initiated logout page: its form posts to us, and the answer redirects to the app's registered
// post-logout redirect URI, which browsers also hold to form-action. Every other answer keeps the
// strict policy. (The provider itself adds the hash of the form_post page's one inline script.)
import type { KoaContextWithOIDC } from 'oidc-provider';

/** The origin the form posts to, when this answer is a form_post page to a registered redirect URI;
 *  or 'self' and the origin of the checked post-logout redirect URI for the logout page. */
function formPostTarget(koa: KoaContextWithOIDC): string | undefined {
  const { oidc } = koa;
  if (!oidc || !koa.response.is('html')) return undefined;
  const afterLogout = oidc.route === 'end_session' ? (oidc.session?.state?.postLogoutRedirectUri as string | undefined) : undefined;
  if (afterLogout) return `'self' ${new URL(afterLogout).origin}`;
  if (oidc.params?.response_mode !== 'form_post') return undefined;
  const redirectUri = oidc.params.redirect_uri;
  if (typeof redirectUri !== 'string' || !oidc.client?.redirectUriAllowed(redirectUri)) return undefined;
  return new URL(redirectUri).origin;
}

export async function formPostPolicy(koa: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const origin = formPostTarget(koa);
  const policy = koa.response.get('content-security-policy');
  if (!origin || !policy) return;
  const directives = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => !directive.startsWith('form-action'));
  koa.set('content-security-policy', [...directives, `form-action ${origin}`].join(';'));
}
