// Calls of server/routes/license.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { licenseActivateBody, licenseStatus } from '../schemas/license';

/** GET /license/status */
export const getLicenseStatus = { method: 'GET', path: '/license/status', response: licenseStatus } as const satisfies CallDeclaration;

/** GET /license/auth */
export const getLicenseAuth = { method: 'GET', path: '/license/auth', response: v.string() } as const satisfies CallDeclaration;

/** POST /license/auth */
export const postLicenseAuth = { method: 'POST', path: '/license/auth', body: licenseActivateBody, response: licenseStatus } as const satisfies CallDeclaration;
