// Single sign-on for the apps: the consent page's calls and the apps' client secrets.
import type * as v from 'valibot';
import * as calls from '../contract/sso';
import type { CallAnswer } from '../contract/declare';
import type { clientSecretAnswer, clientStatus, interaction, oidcClientBody } from '../schemas/sso';
import { call } from './call';

export type SsoInteraction = v.InferOutput<typeof interaction>;
export type OidcClientStatus = v.InferOutput<typeof clientStatus>;
export type OidcClientSecret = v.InferOutput<typeof clientSecretAnswer>;
export type OidcClientChanges = v.InferOutput<typeof oidcClientBody>;

/** GET /sso/interactions/{uid}: what the app asks of the signed-in person. */
export function ssoInteraction(uid: string): Promise<SsoInteraction> {
  return call(calls.getSsoInteractionsByUid, { params: { uid } });
}

/** POST /sso/interactions/{uid}: allow or deny; answers where the browser goes next. */
export function answerSsoInteraction(uid: string, allow: boolean): Promise<CallAnswer<typeof calls.postSsoInteractionsByUid>> {
  return call(calls.postSsoInteractionsByUid, { params: { uid }, body: { allow } });
}

export function oidcClientStatus(appId: string): Promise<OidcClientStatus> {
  return call(calls.getAppsOidcClient, { params: { appId } });
}

/** Generates or rotates the app's client secret: this answer is the only one that carries it. */
export function rotateOidcClientSecret(appId: string): Promise<OidcClientSecret> {
  return call(calls.postAppsOidcClientSecret, { params: { appId } });
}

/** PUT /apps/{appId}/oidc-client: changes the given settings of the app's client (the app needs a
 *  secret first): post-logout redirect URIs, the client_credentials grant, trusted. */
export function updateOidcClient(appId: string, changes: OidcClientChanges): Promise<OidcClientStatus> {
  return call(calls.putAppsOidcClient, { params: { appId }, body: changes });
}
