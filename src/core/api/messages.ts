// Messages: my inbox, my history, the unread count; administrators send.
import { atom } from 'nanostores';
import { PAGING } from '../config';
import type { CallAnswer, CallInput } from '../contract/declare';
import {
  deleteMessagesById,
  getMessages,
  getMessagesHistory,
  getMessagesUnreadCount,
  postMessages,
  putMessagesByIdRead,
  putMessagesRead,
} from '../contract/messages';
import { call, callList } from './call';

export type InboxFilter = 'unread' | 'read' | 'all';

export function inbox(status: InboxFilter = 'all', page: number = PAGING.page, size: number = PAGING.size): Promise<CallAnswer<typeof getMessages>> {
  return callList(getMessages, { query: { status, page, size } });
}

export function history(page: number = PAGING.page, size: number = PAGING.size): Promise<CallAnswer<typeof getMessagesHistory>> {
  return callList(getMessagesHistory, { query: { page, size } });
}

/** The number of unread in-site messages (silent: a badge must not raise errors). */
async function unreadCount(): Promise<number> {
  return (await call(getMessagesUnreadCount, {}, { silent: true })).count;
}

/** The signed-in person's unread count as last read (the top bar badge); undefined before the first read. */
export const $unreadCount = atom<number | undefined>(undefined);

/** Reads the unread count into $unreadCount; a failed read keeps the last known count. */
export async function refreshUnreadCount(): Promise<void> {
  try {
    $unreadCount.set(await unreadCount());
  } catch {
    // silent: the next refresh tries again
  }
}

/** Runs a change to my inbox, then reads the unread count again (the badge follows at once). */
async function changingInbox<T>(change: Promise<T>): Promise<T> {
  const answer = await change;
  void refreshUnreadCount();
  return answer;
}

export function markRead(id: string): Promise<null> {
  return changingInbox(call(putMessagesByIdRead, { params: { id } }));
}

export async function markAllRead(): Promise<number> {
  return (await changingInbox(call(putMessagesRead))).count;
}

export function remove(id: string): Promise<null> {
  return changingInbox(call(deleteMessagesById, { params: { id } }));
}

/** Sends to users and/or a tenant: in-site without a channel, else queued for the channel. */
export function send(message: CallInput<typeof postMessages>['body']): Promise<CallAnswer<typeof postMessages>> {
  return call(postMessages, { body: message }, { silent: true });
}
