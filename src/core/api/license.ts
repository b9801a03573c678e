// license calls.
import { request } from '../http';
import type { LicenseStatus } from '../types';

export function status(): Promise<LicenseStatus> {
  return request<LicenseStatus>('GET', '/license/status');
}

/** GET /license/auth: the request code to send to the vendor. */
export function requestCode(): Promise<string> {
  return request<string>('GET', '/license/auth');
}

/** POST /license/auth: activates `newLicense`; answers the new status. */
export function activate(newLicense: string): Promise<LicenseStatus> {
  return request<LicenseStatus>('POST', '/license/auth', { body: { newLicense } });
}
