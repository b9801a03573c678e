// Single sign-on for the apps: the consent page's calls and the apps' client secrets.
import type * as v from 'valibot';
import { request } from '../http';
import type { clientSecretAnswer, clientStatus, consentAnswer, interaction, oidcClientBody } from '../schemas/sso';
import { apiPath } from './path';

export type SsoInteraction = v.InferOutput<typeof interaction>;
export type OidcClientStatus = v.InferOutput<typeof clientStatus>;
export type OidcClientSecret = v.InferOutput<typeof clientSecretAnswer>;
export type OidcClientChanges = v.InferOutput<typeof oidcClientBody>;

/** GET /sso/interactions/{uid}: what the app asks of the signed-in person. */
export function ssoInteraction(uid: string): Promise<SsoInteraction> {
  return request<SsoInteraction>('GET', apiPath`/sso/interactions/${uid}`);
}

/** POST /sso/interactions/{uid}: allow or deny; answers where the browser goes next. */
export function answerSsoInteraction(uid: string, allow: boolean): Promise<v.InferOutput<typeof consentAnswer>> {
  return request('POST', apiPath`/sso/interactions/${uid}`, { body: { allow } });
}

export function oidcClientStatus(appId: string): Promise<OidcClientStatus> {
  return request<OidcClientStatus>('GET', apiPath`/apps/${appId}/oidc-client`);
}

/** Generates or rotates the app's client secret: this answer is the only one that carries it. */
export function rotateOidcClientSecret(appId: string): Promise<OidcClientSecret> {
  return request<OidcClientSecret>('POST', apiPath`/apps/${appId}/oidc-client/secret`);
}

/** PUT /apps/{appId}/oidc-client: changes the given settings of the app's client (the app needs a
 *  secret first): post-logout redirect URIs, the client_credentials grant, trusted. */
export function updateOidcClient(appId: string, changes: OidcClientChanges): Promise<OidcClientStatus> {
  return request<OidcClientStatus>('PUT', apiPath`/apps/${appId}/oidc-client`, { body: changes });
}
