// User calls: declaration and access of each; the work is done by server/services/users.ts.
import type { FastifyPluginAsync } from 'fastify';
import * as v from 'valibot';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import {
  basicInfo,
  basicInfoBody,
  contactConfirmBody,
  passwordBody,
  profileAnswer,
  selfPasswordBody,
  user as userSchema,
  userSaveBody,
  userSaveDoc,
  userUpdateBody,
} from '../../src/core/schemas/users';
import { adminUserList, adminUserListQuery, roleIdsBody, userAppParams, userAppRolesList } from '../../src/core/schemas/admin';
import { passwordResetBody } from '../../src/core/schemas/password-reset';
import { Permission } from '../../src/core/permission-codes';
import { manageableUser } from '../auth/scope';
import { actionableUser } from '../auth/grants';
import { clearSessionCookie } from '../auth/gate';
import { unauthorized } from '../http/errors';
import { basicInfoAnswer } from '../services/user-answer';
import * as users from '../services/users';
import { resetPasswordWithCode } from '../services/password-reset';

const tags = ['Users'];

export const userRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/user',
    tags,
    access: Permission.Users,
    summary: 'Users of my scope, paged; searchValue matches the start of searchProp (username, realName, email or mobilePhone), ASCII letters in either case',
    query: adminUserListQuery,
    response: adminUserList,
    handler: ({ actor, query }) => users.listUsers(ctx, actor, query),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/user/:id',
    tags,
    access: Permission.SelfService,
    summary: 'One user (myself, or one of my scope)',
    params: idParams,
    response: userSchema,
    handler: async ({ actor, params }) => users.toApiUser(ctx, await users.selfOrManageable(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/user/:id/basic_info',
    tags,
    access: Permission.SelfService,
    summary: 'Basic info of a user (myself, or one of my scope)',
    params: idParams,
    response: basicInfo,
    handler: async ({ actor, params }) => basicInfoAnswer(await users.selfOrManageable(ctx, actor, params.id)),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/user/:id/basic_info',
    tags,
    access: Permission.SelfService,
    summary: 'Change the basic info of a user (myself, or one of my scope); a new email or phone of my own is pending until confirmed (see /user/profile)',
    params: idParams,
    body: basicInfoBody,
    response: profileAnswer,
    handler: ({ actor, params, body, raw }) => users.updateBasicInfoOf(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/user/profile',
    tags,
    access: Permission.SelfService,
    summary: "My own profile (the signed-in caller's basic info): the read a host page makes with iamFetch('/user/profile')",
    response: basicInfo,
    handler: async ({ actor }) => basicInfoAnswer(actor.user),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/user/profile',
    tags,
    access: Permission.SelfService,
    summary:
      'Change my own profile. A new email address or mobile phone is not applied yet: a code is sent to it (answered as pendingEmail / pendingMobilePhone) and POST /user/profile/contact/confirm applies it',
    body: basicInfoBody,
    response: profileAnswer,
    handler: ({ actor, body, raw }) => users.updateProfile(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/profile/contact/confirm',
    tags,
    access: Permission.SelfService,
    summary: 'Apply my pending email address or mobile phone with the code sent to it (a few wrong codes at most; checked again against other accounts)',
    body: contactConfirmBody,
    response: basicInfo,
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ actor, body, raw }) => users.confirmContact(ctx, actor, body.channel, body.code, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user',
    idempotent: true,
    tags,
    access: Permission.Users,
    summary: 'Create a user (or update one when the body carries its id)',
    body: userSaveBody,
    bodyDoc: userSaveDoc,
    response: userSchema,
    // Saving a user creates it when there is no id, otherwise updates it.
    handler: ({ actor, body, raw }) => ('password' in body ? users.createUser(ctx, actor, body, raw.ip) : users.updateUser(ctx, actor, body.id, body, raw.ip)),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/user/:id',
    tags,
    access: Permission.Users,
    summary: 'Update a user of my scope (409 when version is stale)',
    params: idParams,
    body: userUpdateBody,
    response: userSchema,
    handler: ({ actor, params, body, raw }) => users.updateUser(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/user/:id',
    tags,
    access: Permission.Users,
    summary: 'Delete a user of my scope',
    params: idParams,
    response: okAnswer,
    handler: async ({ actor, params, raw }) => users.deleteUser(ctx, actor, params.id, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/:id/password',
    tags,
    access: Permission.SelfService,
    summary: "Reset a password: an administrator's reset needs their own password, a self reset the old one; either signs the user out everywhere",
    params: idParams,
    body: passwordBody,
    response: okAnswer,
    handler: async ({ actor, params, body, raw }, reply) => {
      const { self } = await users.resetPassword(ctx, actor, params.id, body, raw.ip);
      if (self) clearSessionCookie(raw, reply);
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/user/password',
    tags,
    access: 'public',
    summary:
      "Reset password: signed in, my own change (old password required); or, signed out, with a 'forgot password' code (identifier, code). Either signs the person out everywhere",
    body: v.union([selfPasswordBody, passwordResetBody], 'rule.required'),
    response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, body, raw }, reply) => {
      if ('code' in body) return resetPasswordWithCode(ctx, body, raw.ip);
      if (!actor) throw unauthorized();
      await users.changeOwnPassword(ctx, actor, body, raw.ip);
      clearSessionCookie(raw, reply);
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/user/:id/roles',
    tags,
    access: Permission.Users,
    summary: 'The roles of a user of my scope, per app (every app whose roles I may grant, each role marked when held)',
    params: idParams,
    response: userAppRolesList,
    handler: async ({ actor, params }) => users.appRolesOf(ctx, actor, (await manageableUser(ctx, actor, params.id)).id),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/user/:id/roles/:appId',
    tags,
    access: Permission.Users,
    summary: 'Set the roles a user of my scope holds in one app I administer',
    params: userAppParams,
    body: roleIdsBody,
    response: userAppRolesList,
    handler: async ({ actor, params, body, raw }) => {
      const target = await actionableUser(ctx, actor, params.id);
      await users.setAppRoles(ctx, actor, target, params.appId, body.roleIds, raw.ip);
      return users.appRolesOf(ctx, actor, target.id);
    },
  });
};
