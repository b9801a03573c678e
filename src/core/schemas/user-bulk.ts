// One action on several users at once (the user list's bulk actions): each user is checked and
// changed on its own, and the answer says for each whether it worked and, if not, why.
import * as v from 'valibot';
import { id } from './common';

export const bulkUserActions = ['enable', 'disable', 'unlock', 'delete'] as const;
export type BulkUserAction = (typeof bulkUserActions)[number];

/** At most this many users per call (a page of the list holds at most 100). */
const MAX_BULK_USERS = 100;

export const bulkUserBody = v.object({
  action: v.picklist(bulkUserActions, 'rule.ids'),
  ids: v.pipe(v.array(id, 'rule.userIds'), v.minLength(1, 'rule.required'), v.maxLength(MAX_BULK_USERS, `rule.maxLength?max=${MAX_BULK_USERS}`)),
});

const bulkUserResult = v.object({
  id: v.string(),
  ok: v.boolean(),
  /** The HTTP status the same action on this user alone would answer (200 when it worked). */
  status: v.number(),
  /** Why it did not work (in the caller's language); empty when it worked. */
  message: v.string(),
});
export const bulkUserAnswer = v.object({ results: v.array(bulkUserResult) });
