// third-party (identity provider) login calls.
import { request } from '../http';
import { transformPassword } from '../password-transform';
import type { LoginAnswer, ThirdPartyAccessInfo } from '../types';
import { apiPath } from './path';

/** GET /interaction/idp/{idpCode}/authorize/user/access/info/{token}?access_ticket=… */
export function accessInfo(idpCode: string, token: string, accessTicket: string): Promise<ThirdPartyAccessInfo> {
  return request<ThirdPartyAccessInfo>('GET', apiPath`/interaction/idp/${idpCode}/authorize/user/access/info/${token}`, {
    query: { access_ticket: accessTicket },
  });
}

/** POST /interaction/idp/{idpCode}/authorize/after/user/complement?access_ticket=… with the complement
 *  data (and `switchAccount: true` once the person confirmed replacing the browser's current session). */
export function complement<T = unknown>(idpCode: string, accessTicket: string, data: Record<string, unknown>): Promise<T> {
  return request<T>('POST', apiPath`/interaction/idp/${idpCode}/authorize/after/user/complement`, {
    query: { access_ticket: accessTicket },
    body: data,
  });
}

/** POST /interaction/idp/{idpCode}/authorize/after/user/link?access_ticket=…: links the provider's
 *  account to the existing account with its email, proven by that account's password (trimmed and
 *  transformed as at sign-in) and its authenticator code when it has one; then signs in.
 *  `switchAccount`: the person confirmed replacing the browser's current session. */
export async function linkAccount(
  idpCode: string,
  accessTicket: string,
  proof: { password: string; code?: string; switchAccount?: boolean },
): Promise<LoginAnswer> {
  return request<LoginAnswer>('POST', apiPath`/interaction/idp/${idpCode}/authorize/after/user/link`, {
    query: { access_ticket: accessTicket },
    body: {
      password: await transformPassword(proof.password),
      ...(proof.code ? { code: proof.code } : {}),
      ...(proof.switchAccount ? { switchAccount: true } : {}),
    },
  });
}
