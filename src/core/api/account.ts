// The signed-in person's own account: their sessions (and signing out everywhere), their recovery
// codes and their newest unread messages.
import { getUserRecoveryCodes, postCasLogoutEverywhere, postUserRecoveryCodes } from '../contract/account-security';
import { deleteCasSessions, deleteCasSessionsById, getCasSessions } from '../contract/auth';
import type { CallAnswer } from '../contract/declare';
import { transformPassword } from '../password';
import type { Message } from '../schemas/messaging';
import type { PagedList } from '../types';
import { call } from './call';
import { inbox } from './messages';

/** One of my sessions (a public handle, never the cookie secret). Times in ms since the epoch. */
export type SessionInfo = CallAnswer<typeof getCasSessions>[number];

/** GET /cas/sessions: my sessions, the current one marked. */
export function mySessions(): Promise<SessionInfo[]> {
  return call(getCasSessions);
}

/** DELETE /cas/sessions/{id}: signs out one of my other sessions. */
export async function signOutSession(id: string): Promise<void> {
  await call(deleteCasSessionsById, { params: { id } });
}

/** DELETE /cas/sessions: signs out all my sessions but this one; answers how many ended. */
export function signOutOtherSessions(): Promise<CallAnswer<typeof deleteCasSessions>> {
  return call(deleteCasSessions);
}

/** POST /cas/logout/everywhere: ends every console session (but this one with `keepCurrent`) and
 *  every app grant of mine; answers how many console sessions ended. */
export function signOutEverywhere(keepCurrent: boolean): Promise<CallAnswer<typeof postCasLogoutEverywhere>> {
  return call(postCasLogoutEverywhere, { body: { keepCurrent } });
}

export type RecoveryCodeStatus = CallAnswer<typeof getUserRecoveryCodes>;

/** GET /user/recovery-codes: how many unused codes I have (never the codes). */
export function recoveryCodeStatusOf(): Promise<RecoveryCodeStatus> {
  return call(getUserRecoveryCodes, {}, { silent: true });
}

/** POST /user/recovery-codes: a new set (the old one stops working), confirmed with my password;
 *  the answer is the only time the codes are shown. */
export async function generateRecoveryCodes(password: string): Promise<CallAnswer<typeof postUserRecoveryCodes>> {
  return call(postUserRecoveryCodes, { body: { password: await transformPassword(password) } });
}

/** GET /messages?status=unread: my newest unread in-site messages (and how many there are). */
export function unreadMessages(size = 5): Promise<PagedList<Message>> {
  return inbox('unread', 1, size);
}
