// third-party (identity provider) login calls.
import * as calls from '../contract/idp';
import { transformPassword } from '../password-transform';
import type { ComplementAnswer, LoginAnswer, ThirdPartyAccessInfo } from '../types';
import { call, type CallBody } from './call';

/** GET /interaction/idp/{idpCode}/authorize/user/access/info/{token}?access_ticket=… */
export function accessInfo(idpCode: string, token: string, accessTicket: string): Promise<ThirdPartyAccessInfo> {
  return call(calls.getProviderAccessInfo, { params: { idpCode, token }, query: { access_ticket: accessTicket } });
}

/** POST /interaction/idp/{idpCode}/authorize/after/user/complement?access_ticket=… with the complement
 *  data (and `switchAccount: true` once the person confirmed replacing the browser's current session). */
export function complement(idpCode: string, accessTicket: string, data: CallBody<typeof calls.postProviderComplement>): Promise<ComplementAnswer> {
  return call(calls.postProviderComplement, { params: { idpCode }, query: { access_ticket: accessTicket }, body: data });
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
  return call(calls.postProviderLink, {
    params: { idpCode },
    query: { access_ticket: accessTicket },
    body: {
      password: await transformPassword(proof.password),
      ...(proof.code ? { code: proof.code } : {}),
      ...(proof.switchAccount ? { switchAccount: true } : {}),
    },
  });
}
