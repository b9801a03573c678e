// Calls of server/routes/users.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration } from './declare';
import * as v from 'valibot';
import { idParams, okAnswer } from '../schemas/common';
import {
  basicInfo,
  basicInfoBody,
  contactConfirmBody,
  passwordBody,
  profileAnswer,
  selfPasswordBody,
  user as userSchema,
  userSaveBody,
  userUpdateBody,
} from '../schemas/users';
import { adminUserList, adminUserListQuery, roleIdsBody, userAppParams, userAppRolesList } from '../schemas/admin';
import { passwordResetBody } from '../schemas/password-reset';

/** GET /user */
export const getUser = { method: 'GET', path: '/user', query: adminUserListQuery, response: adminUserList } as const satisfies CallDeclaration;

/** GET /user/:id */
export const getUserById = { method: 'GET', path: '/user/:id', params: idParams, response: userSchema } as const satisfies CallDeclaration;

/** GET /user/:id/basic_info */
export const getUserBasicInfo = { method: 'GET', path: '/user/:id/basic_info', params: idParams, response: basicInfo } as const satisfies CallDeclaration;

/** PUT /user/:id/basic_info */
export const putUserBasicInfo = {
  method: 'PUT',
  path: '/user/:id/basic_info',
  params: idParams,
  body: basicInfoBody,
  response: profileAnswer,
} as const satisfies CallDeclaration;

/** GET /user/profile */
export const getUserProfile = { method: 'GET', path: '/user/profile', response: basicInfo } as const satisfies CallDeclaration;

/** PUT /user/profile */
export const putUserProfile = { method: 'PUT', path: '/user/profile', body: basicInfoBody, response: profileAnswer } as const satisfies CallDeclaration;

/** POST /user/profile/contact/confirm */
export const postUserProfileContactConfirm = {
  method: 'POST',
  path: '/user/profile/contact/confirm',
  body: contactConfirmBody,
  response: basicInfo,
} as const satisfies CallDeclaration;

/** POST /user */
export const postUser = { method: 'POST', path: '/user', body: userSaveBody, response: userSchema } as const satisfies CallDeclaration;

/** PUT /user/:id */
export const putUserById = {
  method: 'PUT',
  path: '/user/:id',
  params: idParams,
  body: userUpdateBody,
  response: userSchema,
} as const satisfies CallDeclaration;

/** DELETE /user/:id */
export const deleteUserById = { method: 'DELETE', path: '/user/:id', params: idParams, response: okAnswer } as const satisfies CallDeclaration;

/** POST /user/:id/password */
export const postUserPassword = {
  method: 'POST',
  path: '/user/:id/password',
  params: idParams,
  body: passwordBody,
  response: okAnswer,
} as const satisfies CallDeclaration;

/** PUT /user/password */
export const putUserPassword = {
  method: 'PUT',
  path: '/user/password',
  body: v.union([selfPasswordBody, passwordResetBody], 'rule.required'),
  response: okAnswer,
} as const satisfies CallDeclaration;

/** GET /user/:id/roles */
export const getUserRoles = { method: 'GET', path: '/user/:id/roles', params: idParams, response: userAppRolesList } as const satisfies CallDeclaration;

/** PUT /user/:id/roles/:appId */
export const putUserRolesByAppId = {
  method: 'PUT',
  path: '/user/:id/roles/:appId',
  params: userAppParams,
  body: roleIdsBody,
  response: userAppRolesList,
} as const satisfies CallDeclaration;
