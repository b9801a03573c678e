// §7 third-party (identity provider) login calls.
import { request } from '../http';
import type { ThirdPartyAccessInfo } from '../types';
import { apiPath } from './path';

/** GET /interaction/idp/{idpCode}/authorize/user/access/info/{token}?access_ticket=… */
export function accessInfo(idpCode: string, token: string, accessTicket: string): Promise<ThirdPartyAccessInfo> {
  return request<ThirdPartyAccessInfo>('GET', apiPath`/interaction/idp/${idpCode}/authorize/user/access/info/${token}`, {
    query: { access_ticket: accessTicket },
  });
}

/** POST /interaction/idp/{idpCode}/authorize/after/user/complement?access_ticket=… with the complement data. */
export function complement<T = unknown>(idpCode: string, accessTicket: string, data: Record<string, unknown>): Promise<T> {
  return request<T>('POST', apiPath`/interaction/idp/${idpCode}/authorize/after/user/complement`, {
    query: { access_ticket: accessTicket },
    body: data,
  });
}
