// User calls: declaration and access of each; the work is done by server/services/users.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/users';
import { userSaveDoc } from '../../src/core/schemas/users';
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
  route(app, gate, calls.getUser, {
    tags,
    access: Permission.Users,
    summary: 'Users of my scope, paged; searchValue matches the start of searchProp (username, realName, email or mobilePhone), ASCII letters in either case',
    handler: ({ actor, query }) => users.listUsers(ctx, actor, query),
  });

  route(app, gate, calls.getUserById, {
    tags,
    access: Permission.SelfService,
    summary: 'One user (myself, or one of my scope)',
    handler: async ({ actor, params }) => users.toApiUser(ctx, await users.selfOrManageable(ctx, actor, params.id)),
  });

  route(app, gate, calls.getUserBasicInfo, {
    tags,
    access: Permission.SelfService,
    summary: 'Basic info of a user (myself, or one of my scope)',
    handler: async ({ actor, params }) => basicInfoAnswer(await users.selfOrManageable(ctx, actor, params.id)),
  });

  route(app, gate, calls.putUserBasicInfo, {
    tags,
    access: Permission.SelfService,
    summary: 'Change the basic info of a user (myself, or one of my scope); a new email or phone of my own is pending until confirmed (see /user/profile)',
    handler: ({ actor, params, body, raw }) => users.updateBasicInfoOf(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.getUserProfile, {
    tags,
    access: Permission.SelfService,
    summary: "My own profile (the signed-in caller's basic info): the read a host page makes with iamFetch('/user/profile')",
    handler: async ({ actor }) => basicInfoAnswer(actor.user),
  });

  route(app, gate, calls.putUserProfile, {
    tags,
    access: Permission.SelfService,
    summary:
      'Change my own profile. A new email address or mobile phone is not applied yet: a code is sent to it (answered as pendingEmail / pendingMobilePhone) and POST /user/profile/contact/confirm applies it',
    handler: ({ actor, body, raw }) => users.updateProfile(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.postUserProfileContactConfirm, {
    tags,
    access: Permission.SelfService,
    summary: 'Apply my pending email address or mobile phone with the code sent to it (a few wrong codes at most; checked again against other accounts)',
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ actor, body, raw }) => users.confirmContact(ctx, actor, body.channel, body.code, raw.ip),
  });

  route(app, gate, calls.postUser, {
    idempotent: true,
    tags,
    access: Permission.Users,
    summary: 'Create a user (or update one when the body carries its id)',
    bodyDoc: userSaveDoc,
    // Saving a user creates it when there is no id, otherwise updates it.
    handler: ({ actor, body, raw }) => ('password' in body ? users.createUser(ctx, actor, body, raw.ip) : users.updateUser(ctx, actor, body.id, body, raw.ip)),
  });

  route(app, gate, calls.putUserById, {
    tags,
    access: Permission.Users,
    summary: 'Update a user of my scope (409 when version is stale)',
    handler: ({ actor, params, body, raw }) => users.updateUser(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.deleteUserById, {
    tags,
    access: Permission.Users,
    summary: 'Delete a user of my scope',
    handler: async ({ actor, params, raw }) => users.deleteUser(ctx, actor, params.id, raw.ip),
  });

  route(app, gate, calls.postUserPassword, {
    tags,
    access: Permission.SelfService,
    summary: "Reset a password: an administrator's reset needs their own password, a self reset the old one; either signs the user out everywhere",
    handler: async ({ actor, params, body, raw }, reply) => {
      const { self } = await users.resetPassword(ctx, actor, params.id, body, raw.ip);
      if (self) clearSessionCookie(raw, reply);
      return null;
    },
  });

  route(app, gate, calls.putUserPassword, {
    tags,
    access: 'public',
    summary:
      "Reset password: signed in, my own change (old password required); or, signed out, with a 'forgot password' code (identifier, code). Either signs the person out everywhere",
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ actor, body, raw }, reply) => {
      if ('code' in body) return resetPasswordWithCode(ctx, body, raw.ip);
      if (!actor) throw unauthorized();
      await users.changeOwnPassword(ctx, actor, body, raw.ip);
      clearSessionCookie(raw, reply);
      return null;
    },
  });

  route(app, gate, calls.getUserRoles, {
    tags,
    access: Permission.Users,
    summary: 'The roles of a user of my scope, per app (every app whose roles I may grant, each role marked when held)',
    handler: async ({ actor, params }) => users.appRolesOf(ctx, actor, (await manageableUser(ctx, actor, params.id)).id),
  });

  route(app, gate, calls.putUserRolesByAppId, {
    tags,
    access: Permission.Users,
    summary: 'Set the roles a user of my scope holds in one app I administer',
    handler: async ({ actor, params, body, raw }) => {
      const target = await actionableUser(ctx, actor, params.id);
      await users.setAppRoles(ctx, actor, target, params.appId, body.roleIds, raw.ip);
      return users.appRolesOf(ctx, actor, target.id);
    },
  });
};
