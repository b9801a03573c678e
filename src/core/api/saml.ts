// SAML 2.0 for the apps: the SAML sign-in page's calls, the portal's IdP-initiated sign-in and an
// app's service-provider settings.
import type * as v from 'valibot';
import * as calls from '../contract/saml';
import type { samlNext, samlProviderAnswer, samlProviderBody, samlRequest } from '../schemas/saml';
import { call } from './call';

export type SamlRequest = v.InferOutput<typeof samlRequest>;
export type SamlProviderAnswer = v.InferOutput<typeof samlProviderAnswer>;
export type SamlProviderChanges = v.InferOutput<typeof samlProviderBody>;
type SamlNext = v.InferOutput<typeof samlNext>;

/** GET /saml/requests/{id}: which app asks to sign the person in. */
export function samlSignInRequest(id: string): Promise<SamlRequest> {
  return call(calls.getSamlRequestsById, { params: { id } });
}

/** POST /saml/requests/{id}: allow or deny; answers the page that posts the answer to the app. */
export function answerSamlSignIn(id: string, allow: boolean): Promise<SamlNext> {
  return call(calls.postSamlRequestsById, { params: { id }, body: { allow } });
}

/** POST /saml/apps/{appId}/launch: open a SAML app from the portal. */
export function launchSamlApp(appId: string): Promise<SamlNext> {
  return call(calls.postSamlAppsLaunch, { params: { appId } });
}

export function samlProviderOf(appId: string): Promise<SamlProviderAnswer> {
  return call(calls.getAppsSamlProvider, { params: { appId } });
}

export function saveSamlProvider(appId: string, changes: SamlProviderChanges): Promise<SamlProviderAnswer> {
  return call(calls.putAppsSamlProvider, { params: { appId }, body: changes });
}

export function removeSamlProvider(appId: string): Promise<SamlProviderAnswer> {
  return call(calls.deleteAppsSamlProvider, { params: { appId } });
}

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** The identity provider's published signing certificates as PEM (two during a key rotation), read
 *  from its public metadata document: what an app that does not read metadata is given. */
export async function idpSigningCertificates(metadataUrl: string): Promise<string[]> {
  const answer = await fetch(metadataUrl, { credentials: 'omit' });
  if (!answer.ok) throw new Error(`${answer.status} ${answer.statusText}`);
  const document = new DOMParser().parseFromString(await answer.text(), 'application/xml');
  return [...document.getElementsByTagNameNS(DSIG_NS, 'X509Certificate')].map((element) => {
    const body = (element.textContent ?? '').replace(/\s+/g, '');
    const lines = body.match(/.{1,64}/g) ?? [];
    return ['-----BEGIN CERTIFICATE-----', ...lines, '-----END CERTIFICATE-----'].join('\n');
  });
}
