// Links of server/routes/idp-login.ts (one declaration each: src/core/contract/declare.ts): the
// third-party sign-in's start and the provider's redirect back, both redirects.
import type { LinkDeclaration } from './declare';
import { idpCodeParams } from '../schemas/idp';
import { providerStartQuery } from '../schemas/idp-login';

/** GET /interaction/idp/:idpCode/authorize (a sign-in button's `href`) */
export const getProviderStart = {
  method: 'GET',
  path: '/interaction/idp/:idpCode/authorize',
  params: idpCodeParams,
  query: providerStartQuery,
  answers: 'redirect',
} as const satisfies LinkDeclaration;

/** GET /interaction/idp/:idpCode/authorize/callback (the redirect URI registered at the provider) */
export const getProviderCallback = {
  method: 'GET',
  path: '/interaction/idp/:idpCode/authorize/callback',
  params: idpCodeParams,
  answers: 'redirect',
} as const satisfies LinkDeclaration;
