// The signed-in person's own account: their sessions (and signing out everywhere), their recovery
// codes and their newest unread messages.
import type * as v from 'valibot';
import { request } from '../http';
import { transformPassword } from '../password';
import type { recoveryCodes, recoveryCodeStatus } from '../schemas/account-security';
import type { sessionInfo } from '../schemas/auth';
import type { Message } from '../schemas/messaging';
import type { PagedList } from '../types';
import { inbox } from './messages';
import { apiPath } from './path';

/** One of my sessions (a public handle, never the cookie secret). Times in ms since the epoch. */
export type SessionInfo = v.InferOutput<typeof sessionInfo>;

/** GET /cas/sessions: my sessions, the current one marked. */
export function mySessions(): Promise<SessionInfo[]> {
  return request<SessionInfo[]>('GET', '/cas/sessions');
}

/** DELETE /cas/sessions/{id}: signs out one of my other sessions. */
export function signOutSession(id: string): Promise<void> {
  return request<void>('DELETE', apiPath`/cas/sessions/${id}`);
}

/** DELETE /cas/sessions: signs out all my sessions but this one; answers how many ended. */
export function signOutOtherSessions(): Promise<{ revoked: number }> {
  return request<{ revoked: number }>('DELETE', '/cas/sessions');
}

/** POST /cas/logout/everywhere: ends every console session (but this one with `keepCurrent`) and
 *  every app grant of mine; answers how many console sessions ended. */
export function signOutEverywhere(keepCurrent: boolean): Promise<{ revoked: number }> {
  return request<{ revoked: number }>('POST', '/cas/logout/everywhere', { body: { keepCurrent } });
}

export type RecoveryCodeStatus = v.InferOutput<typeof recoveryCodeStatus>;

/** GET /user/recovery-codes: how many unused codes I have (never the codes). */
export function recoveryCodeStatusOf(): Promise<RecoveryCodeStatus> {
  return request<RecoveryCodeStatus>('GET', '/user/recovery-codes', { silent: true });
}

/** POST /user/recovery-codes: a new set (the old one stops working), confirmed with my password;
 *  the answer is the only time the codes are shown. */
export async function generateRecoveryCodes(password: string): Promise<v.InferOutput<typeof recoveryCodes>> {
  return request('POST', '/user/recovery-codes', { body: { password: await transformPassword(password) } });
}

/** GET /messages?status=unread: my newest unread in-site messages (and how many there are). */
export function unreadMessages(size = 5): Promise<PagedList<Message>> {
  return inbox('unread', 1, size);
}
