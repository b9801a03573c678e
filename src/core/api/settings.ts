// Login settings (the sign-in policy) and the console configuration / branding.
import type { IamConfig } from '../config';
import { request } from '../http';
import type { LoginSettings, PublicLoginSettings } from '../schemas/settings';

/** A settings document with the version its next update must carry (409 when it is stale). */
export interface Versioned<T> {
  value: T;
  version: number;
}

export function loginSettings(): Promise<Versioned<LoginSettings>> {
  return request<Versioned<LoginSettings>>('GET', '/settings/login');
}

/** PUT /settings/login; silent, because the caller explains a 409 (stale version) itself. */
export function saveLoginSettings(changes: Partial<LoginSettings>, version: number): Promise<Versioned<LoginSettings>> {
  return request<Versioned<LoginSettings>>('PUT', '/settings/login', { body: { ...changes, version }, silent: true });
}

/** What the sign-in page and the password forms follow (no sign-in needed). */
export function publicLoginSettings(): Promise<PublicLoginSettings> {
  return request<PublicLoginSettings>('GET', '/settings/login/public', { silent: true, authRedirect: false });
}

export function config(): Promise<Versioned<IamConfig>> {
  return request<Versioned<IamConfig>>('GET', '/config');
}

/** PUT /config with the parts that changed; silent like saveLoginSettings. */
export function saveConfig(changes: { system?: Partial<IamConfig['system']>; settings?: Partial<IamConfig['settings']> }, version: number): Promise<Versioned<IamConfig>> {
  return request<Versioned<IamConfig>>('PUT', '/config', { body: { ...changes, version }, silent: true });
}
