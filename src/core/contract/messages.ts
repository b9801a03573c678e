// Calls of server/routes/messages.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import { idParams, okAnswer } from '../schemas/common';
import { countAnswer } from '../schemas/resources';
import { historyQuery, messageList, messageListQuery, messageSendBody, sendAnswer } from '../schemas/messaging';

/** GET /messages */
export const getMessages = { method: 'GET', path: '/messages', query: messageListQuery, response: messageList } as const satisfies CallDeclaration;

/** GET /messages/unread/count */
export const getMessagesUnreadCount = { method: 'GET', path: '/messages/unread/count', response: countAnswer } as const satisfies CallDeclaration;

/** GET /messages/history */
export const getMessagesHistory = { method: 'GET', path: '/messages/history', query: historyQuery, response: messageList } as const satisfies CallDeclaration;

/** PUT /messages/:id/read */
export const putMessagesByIdRead = { method: 'PUT', path: '/messages/:id/read', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** PUT /messages/read */
export const putMessagesRead = { method: 'PUT', path: '/messages/read', response: countAnswer } as const satisfies CallDeclaration;

/** DELETE /messages/:id */
export const deleteMessagesById = { method: 'DELETE', path: '/messages/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** POST /messages */
export const postMessages = { method: 'POST', path: '/messages', body: messageSendBody, response: sendAnswer } as const satisfies CallDeclaration;
