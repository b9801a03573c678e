// Identity providers for third-party sign-in, as administrators manage them (permission 3).
import { request } from '../http';
import type { IdpDetail, IdpInput } from '../schemas/idp';
import { apiPath } from './path';

export type { IdpDetail, IdpInput };

/** Every provider, disabled ones too, with its settings; the client secret only as `hasClientSecret`. */
export function listAll(): Promise<IdpDetail[]> {
  return request<IdpDetail[]>('GET', '/idps/all');
}

export function create(provider: IdpInput): Promise<unknown> {
  return request('POST', '/idps', { body: provider, silent: true });
}

/** A blank `config.clientSecret` keeps the stored secret. */
export function update(code: string, changes: Partial<Omit<IdpInput, 'code'>>): Promise<unknown> {
  return request('PUT', apiPath`/idps/${code}`, { body: changes, silent: true });
}

/** Enables or disables a provider (a failure is shown by the HTTP client). */
export function setEnabled(code: string, enabled: boolean): Promise<unknown> {
  return request('PUT', apiPath`/idps/${code}`, { body: { enabled } });
}

export function remove(code: string): Promise<null> {
  return request<null>('DELETE', apiPath`/idps/${code}`);
}
