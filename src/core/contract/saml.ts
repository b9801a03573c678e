// Calls of server/routes/saml.ts (one declaration each: src/core/contract/declare.ts).
import type { BindingDeclaration, CallDeclaration, LinkDeclaration } from './declare';
import { appParams } from '../schemas/resources';
import {
  samlBindingFields,
  samlConsentBody,
  samlKeyList,
  samlLogoutChainParams,
  samlNext,
  samlProviderAnswer,
  samlProviderBody,
  samlRequest,
  samlRequestParams,
} from '../schemas/saml';

/** GET /saml/requests/:id */
export const getSamlRequestsById = {
  method: 'GET',
  path: '/saml/requests/:id',
  params: samlRequestParams,
  response: samlRequest,
} as const satisfies CallDeclaration;

/** POST /saml/requests/:id */
export const postSamlRequestsById = {
  method: 'POST',
  path: '/saml/requests/:id',
  params: samlRequestParams,
  body: samlConsentBody,
  response: samlNext,
} as const satisfies CallDeclaration;

/** POST /saml/apps/:appId/launch */
export const postSamlAppsLaunch = {
  method: 'POST',
  path: '/saml/apps/:appId/launch',
  params: appParams,
  response: samlNext,
} as const satisfies CallDeclaration;

/** GET /apps/:appId/saml-provider */
export const getAppsSamlProvider = {
  method: 'GET',
  path: '/apps/:appId/saml-provider',
  params: appParams,
  response: samlProviderAnswer,
} as const satisfies CallDeclaration;

/** PUT /apps/:appId/saml-provider */
export const putAppsSamlProvider = {
  method: 'PUT',
  path: '/apps/:appId/saml-provider',
  params: appParams,
  body: samlProviderBody,
  response: samlProviderAnswer,
} as const satisfies CallDeclaration;

/** DELETE /apps/:appId/saml-provider */
export const deleteAppsSamlProvider = {
  method: 'DELETE',
  path: '/apps/:appId/saml-provider',
  params: appParams,
  response: samlProviderAnswer,
} as const satisfies CallDeclaration;

/** GET /saml/keys */
export const getSamlKeys = { method: 'GET', path: '/saml/keys', response: samlKeyList } as const satisfies CallDeclaration;

/** POST /saml/keys/rotate */
export const postSamlKeysRotate = { method: 'POST', path: '/saml/keys/rotate', response: samlKeyList } as const satisfies CallDeclaration;

/** GET /saml/metadata (fetched by the apps: this identity provider's metadata) */
export const getSamlMetadata = { method: 'GET', path: '/saml/metadata', answers: 'application/samlmetadata+xml' } as const satisfies LinkDeclaration;

/** GET /saml/requests/:id/answer (the browser goes there: a page that posts the SAML Response to the app) */
export const getSamlRequestAnswer = {
  method: 'GET',
  path: '/saml/requests/:id/answer',
  params: samlRequestParams,
  answers: 'text/html',
} as const satisfies LinkDeclaration;

// The identity provider's protocol endpoints (the apps send the browser there: BindingDeclaration).
// An AuthnRequest answers a redirect to the sign-in page or a page posting the Response to the app;
// a LogoutRequest or LogoutResponse answers a redirect or a page posting the answer.

/** GET /saml/sso (SSO, HTTP-Redirect binding) */
export const getSamlSso = {
  method: 'GET',
  path: '/saml/sso',
  fields: samlBindingFields,
  answers: ['redirect', 'text/html'],
} as const satisfies BindingDeclaration;

/** POST /saml/sso (SSO, HTTP-POST binding) */
export const postSamlSso = {
  method: 'POST',
  path: '/saml/sso',
  fields: samlBindingFields,
  answers: ['redirect', 'text/html'],
} as const satisfies BindingDeclaration;

/** GET /saml/slo (Single Logout, HTTP-Redirect binding) */
export const getSamlSlo = {
  method: 'GET',
  path: '/saml/slo',
  fields: samlBindingFields,
  answers: ['redirect', 'text/html'],
} as const satisfies BindingDeclaration;

/** POST /saml/slo (Single Logout, HTTP-POST binding) */
export const postSamlSlo = {
  method: 'POST',
  path: '/saml/slo',
  fields: samlBindingFields,
  answers: ['redirect', 'text/html'],
} as const satisfies BindingDeclaration;

/** GET /saml/logout/:chain (a browser sign-out's next app: a page posting its LogoutRequest, or a redirect) */
export const getSamlLogoutStep = {
  method: 'GET',
  path: '/saml/logout/:chain',
  params: samlLogoutChainParams,
  answers: ['redirect', 'text/html'],
} as const satisfies BindingDeclaration;
