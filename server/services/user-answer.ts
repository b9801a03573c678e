// A user row as the API answers it, in ONE mapping (`userAnswer`). The other answers about a user,
// its basic info and the session's user, are that answer cut down to the fields their schema names.
import type * as v from 'valibot';
import type { UserRow } from '../auth/actor';
import { basicInfo } from '../../src/core/schemas/users';
import { sessionUser } from '../../src/core/schemas/auth';
import type { User, UserExtraProp } from '../../src/core/types';

/** The extra properties of a user, with the user type as `intProperty1`. */
export function parseExtraProp(row: UserRow): UserExtraProp {
  const extra = JSON.parse(row.extraProp) as UserExtraProp;
  return { ...extra, intProperty1: row.userType as UserExtraProp['intProperty1'] };
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

/** `answer` cut down to the fields `schema` names. */
function cutTo<TEntries extends v.ObjectEntries>(schema: v.ObjectSchema<TEntries, undefined>, answer: User): Partial<User> {
  return Object.fromEntries(Object.entries(answer).filter(([key]) => key in schema.entries));
}

/** The basic info of `row`: what a person sees and changes about themselves. */
export const basicInfoAnswer = (row: UserRow) => cutTo(basicInfo, userAnswer(row, false)) as v.InferOutput<typeof basicInfo>;

/** The user fields of the session's user (GET /cas/session adds the session's own). */
export const sessionUserFields = (row: UserRow) =>
  cutTo(sessionUser, userAnswer(row, false)) as Pick<
    v.InferOutput<typeof sessionUser>,
    'id' | 'username' | 'realName' | 'avatar' | 'tenantId' | 'isAdmin' | 'isMaster' | 'extraProp'
  >;

/** The columns of a user as member lists and pickers answer it (the `memberUser` schema). */
export const MEMBER_COLUMNS = ['users.id', 'users.username', 'users.realName'] as const;
