// Calls of server/routes/sso.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { appParams } from '../schemas/resources';
import { clientSecretAnswer, clientStatus, consentAnswer, consentBody, interaction, interactionParams, oidcClientBody } from '../schemas/sso';

/** GET /sso/interactions/:uid */
export const getSsoInteractionsByUid = {
  method: 'GET',
  path: '/sso/interactions/:uid',
  params: interactionParams,
  response: interaction,
} as const satisfies CallDeclaration;

/** POST /sso/interactions/:uid */
export const postSsoInteractionsByUid = {
  method: 'POST',
  path: '/sso/interactions/:uid',
  params: interactionParams,
  body: consentBody,
  response: consentAnswer,
} as const satisfies CallDeclaration;

/** GET /apps/:appId/oidc-client */
export const getAppsOidcClient = {
  method: 'GET',
  path: '/apps/:appId/oidc-client',
  params: appParams,
  response: clientStatus,
} as const satisfies CallDeclaration;

/** PUT /apps/:appId/oidc-client */
export const putAppsOidcClient = {
  method: 'PUT',
  path: '/apps/:appId/oidc-client',
  params: appParams,
  body: oidcClientBody,
  response: clientStatus,
} as const satisfies CallDeclaration;

/** POST /apps/:appId/oidc-client/secret */
export const postAppsOidcClientSecret = {
  method: 'POST',
  path: '/apps/:appId/oidc-client/secret',
  params: appParams,
  response: clientSecretAnswer,
} as const satisfies CallDeclaration;
