// A user row as the API answers it (`userAnswer`), and the other answers about a user, its basic
// info and the session's user: the same fields by the same rules, each built in its schema's shape.
import type * as v from 'valibot';
import type { UserRow } from '../auth/actor';
import type { basicInfo } from '../../src/core/schemas/users';
import type { sessionUser } from '../../src/core/schemas/auth';
import type { User, UserExtraProp } from '../../src/core/types';

/** The extra properties of a user, with the user type as `intProperty1`. */
function parseExtraProp(row: UserRow): UserExtraProp {
  // A freshly parsed object: set in place rather than copied into another.
  const extra = JSON.parse(row.extraProp) as UserExtraProp;
  extra.intProperty1 = row.userType as UserExtraProp['intProperty1'];
  return extra;
}

/** The user of `row` (empty optional columns left out); `locked`: whether sign-in is locked for it. */
export function userAnswer(row: UserRow, locked: boolean): User {
  return {
    id: row.id,
    username: row.username,
    realName: row.realName,
    ...(row.email ? { email: row.email } : {}),
    ...(row.mobilePhone ? { mobilePhone: row.mobilePhone } : {}),
    ...(row.description ? { description: row.description } : {}),
    ...(row.avatar ? { avatar: row.avatar } : {}),
    availabilityStatus: row.availabilityStatus as User['availabilityStatus'],
    extraProp: parseExtraProp(row),
    ...(row.tenantId ? { tenantId: row.tenantId } : {}),
    isAdmin: row.isAdmin === 1,
    isMaster: row.isMaster === 1,
    locked,
    version: row.version,
    createdAt: row.createdAt,
  };
}

// The two answers below are the fields of userAnswer their schemas name, built directly in their
// final shape (same values, same rules for empty columns): building the whole user and then cutting
// it to the schema cost every session check a second object and an entries/filter pass.

type BasicInfo = v.InferOutput<typeof basicInfo>;

/** The basic info of `row`: what a person sees and changes about themselves (the `basicInfo` schema). */
export function basicInfoAnswer(row: UserRow): BasicInfo {
  const answer: BasicInfo = { id: row.id, username: row.username, realName: row.realName, version: row.version };
  if (row.avatar) answer.avatar = row.avatar;
  if (row.mobilePhone) answer.mobilePhone = row.mobilePhone;
  if (row.email) answer.email = row.email;
  if (row.description) answer.description = row.description;
  return answer;
}

/** The session answer's user (the `sessionUser` schema): the row's fields and the session's own. */
export function sessionUserAnswer(
  row: UserRow,
  session: Pick<v.InferOutput<typeof sessionUser>, 'ownedApps' | 'permissions' | 'featureBlacklist' | 'sessionId'>,
): v.InferOutput<typeof sessionUser> {
  const answer: v.InferOutput<typeof sessionUser> = {
    id: row.id,
    username: row.username,
    realName: row.realName,
    extraProp: parseExtraProp(row),
    isAdmin: row.isAdmin === 1,
    isMaster: row.isMaster === 1,
    ownedApps: session.ownedApps,
    permissions: session.permissions,
    featureBlacklist: session.featureBlacklist,
    sessionId: session.sessionId,
  };
  if (row.avatar) answer.avatar = row.avatar;
  if (row.tenantId) answer.tenantId = row.tenantId;
  return answer;
}

/** The columns of a user as member lists and pickers answer it (the `memberUser` schema). */
export const MEMBER_COLUMNS = ['users.id', 'users.username', 'users.realName'] as const;
