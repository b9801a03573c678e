// license calls.
import type { CallAnswer } from '../contract/declare';
import { getLicenseAuth, getLicenseStatus, postLicenseAuth } from '../contract/license';
import { call } from './call';

export function status(): Promise<CallAnswer<typeof getLicenseStatus>> {
  return call(getLicenseStatus);
}

/** GET /license/auth: the request code to send to the vendor. */
export function requestCode(): Promise<string> {
  return call(getLicenseAuth);
}

/** POST /license/auth: activates `newLicense`; answers the new status. */
export function activate(newLicense: string): Promise<CallAnswer<typeof postLicenseAuth>> {
  return call(postLicenseAuth, { body: { newLicense } });
}
