// Calls of server/routes/settings.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { iamConfig, iamConfigUpdate, loginSettings, versioned, loginSettingsUpdate, publicLoginSettings } from '../schemas/settings';

/** GET /settings/login */
export const getSettingsLogin = { method: 'GET', path: '/settings/login', response: versioned(loginSettings) } as const satisfies CallDeclaration;

/** GET /settings/login/public */
export const getSettingsLoginPublic = { method: 'GET', path: '/settings/login/public', response: publicLoginSettings } as const satisfies CallDeclaration;

/** PUT /settings/login */
export const putSettingsLogin = {
  method: 'PUT',
  path: '/settings/login',
  body: loginSettingsUpdate,
  response: versioned(loginSettings),
} as const satisfies CallDeclaration;

/** GET /config */
export const getConfig = { method: 'GET', path: '/config', response: versioned(iamConfig) } as const satisfies CallDeclaration;

/** PUT /config */
export const putConfig = { method: 'PUT', path: '/config', body: iamConfigUpdate, response: versioned(iamConfig) } as const satisfies CallDeclaration;
