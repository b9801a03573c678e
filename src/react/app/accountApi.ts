// Calls about the signed-in person's own account that core/api does not have yet (their
// sessions, their unread messages). Kept together here so that they move into core/api in one piece.
import type * as v from 'valibot';
import { request, requestList } from '../../core/http';
import type { sessionInfo } from '../../core/schemas/auth';
import type { message } from '../../core/schemas/resources';
import type { PagedList } from '../../core/types';
import { apiPath } from '../../core/api/path';

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

/** One of my in-site messages. Times in ms since the epoch. */
export type SiteMessage = v.InferOutput<typeof message>;

/** GET /messages?status=unread: my newest unread in-site messages (and how many there are). */
export function unreadMessages(size = 5): Promise<PagedList<SiteMessage>> {
  return requestList<SiteMessage>('/messages', { status: 'unread', page: 1, size });
}
