// Where this server answers SAML: one identity provider for every app, its entity ID the stable
// metadata URL (the public origin comes from configuration, see server/http/public-origin.ts).
import type { Ctx } from '../context';

const SAML_MOUNT = '/saml';
export const SAML_PATH = `/api${SAML_MOUNT}`;
/** The console's page that asks the person (hidden route, src/core/routes.ts). */
export const SAML_SIGN_IN_PAGE = '/saml/authorize';

/** The endpoints that answer a document (the HTTP-POST binding's page), not a JSON answer: they
 *  carry the page security headers (server/app.ts). */
const DOCUMENT_PATHS = new RegExp(`^${SAML_PATH}/(?:sso|slo|logout/[^/?#]+|requests/[^/?#]+/answer)(?:[?#]|$)`);
export const answersSamlDocument = (url: string) => DOCUMENT_PATHS.test(url);

export function idpEndpoints(ctx: Ctx) {
  const base = `${ctx.site.origin()}${SAML_PATH}`;
  return { entityId: `${base}/metadata`, metadataUrl: `${base}/metadata`, ssoUrl: `${base}/sso`, sloUrl: `${base}/slo` };
}
