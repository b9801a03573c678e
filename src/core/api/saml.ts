// SAML 2.0 for the apps: the SAML sign-in page's calls, the portal's IdP-initiated sign-in and an
// app's service-provider settings.
import type * as v from 'valibot';
import { request } from '../http';
import type { samlNext, samlProviderAnswer, samlProviderBody, samlRequest } from '../schemas/saml';
import { apiPath } from './path';

export type SamlRequest = v.InferOutput<typeof samlRequest>;
export type SamlProviderAnswer = v.InferOutput<typeof samlProviderAnswer>;
export type SamlProviderChanges = v.InferOutput<typeof samlProviderBody>;
type SamlNext = v.InferOutput<typeof samlNext>;

/** GET /saml/requests/{id}: which app asks to sign the person in. */
export function samlSignInRequest(id: string): Promise<SamlRequest> {
  return request<SamlRequest>('GET', apiPath`/saml/requests/${id}`);
}

/** POST /saml/requests/{id}: allow or deny; answers the page that posts the answer to the app. */
export function answerSamlSignIn(id: string, allow: boolean): Promise<SamlNext> {
  return request<SamlNext>('POST', apiPath`/saml/requests/${id}`, { body: { allow } });
}

/** POST /saml/apps/{appId}/launch: open a SAML app from the portal. */
export function launchSamlApp(appId: string): Promise<SamlNext> {
  return request<SamlNext>('POST', apiPath`/saml/apps/${appId}/launch`);
}

export function samlProviderOf(appId: string): Promise<SamlProviderAnswer> {
  return request<SamlProviderAnswer>('GET', apiPath`/apps/${appId}/saml-provider`);
}

export function saveSamlProvider(appId: string, changes: SamlProviderChanges): Promise<SamlProviderAnswer> {
  return request<SamlProviderAnswer>('PUT', apiPath`/apps/${appId}/saml-provider`, { body: changes });
}

export function removeSamlProvider(appId: string): Promise<SamlProviderAnswer> {
  return request<SamlProviderAnswer>('DELETE', apiPath`/apps/${appId}/saml-provider`);
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
