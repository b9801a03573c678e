// Passkeys: the signed-in person's own (list, add and remove with the current password, rename) and
// the sign-in with one (its options, then the assertion). The work is in server/auth/passkeys/.
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { idParams, okAnswer } from '../../src/core/schemas/common';
import { loginAnswer, loginQuery } from '../../src/core/schemas/auth';
import {
  passkeyAddBody,
  passkeyCreationOptions,
  passkeyInfo,
  passkeyLoginBody,
  passkeyOptionsBody,
  passkeyRemoveBody,
  passkeyRenameBody,
  passkeyRequestOptions,
} from '../../src/core/schemas/passkeys';
import { Permission } from '../../src/core/permission-codes';
import { addPasskey, deletePasskey, listPasskeys, registrationOptions, renamePasskey } from '../auth/passkeys/own-passkeys';
import { signInOptions } from '../auth/passkeys/assertion';
import { passkeySignIn } from '../auth/passkeys/sign-in';

const tags = ['Passkeys'];
const access = Permission.SelfService;

export const passkeyRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  const rateLimit = ctx.config.rateLimits.login;

  defineRoute(app, gate, {
    method: 'GET',
    url: '/user/passkeys',
    tags,
    access,
    summary: "The signed-in person's passkeys (names and dates only)",
    response: v.array(passkeyInfo),
    handler: ({ actor }) => listPasskeys(ctx, actor),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/passkeys/options',
    tags,
    access,
    rateLimit,
    summary: 'Start adding a passkey: the current password (transformed) again; answers the options of navigator.credentials.create()',
    body: passkeyOptionsBody,
    response: passkeyCreationOptions,
    handler: ({ actor, body, raw }) => registrationOptions(ctx, actor, body.password, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/passkeys',
    tags,
    access,
    rateLimit,
    summary: "Add the passkey the authenticator made for this session's options, under a name",
    body: passkeyAddBody,
    response: passkeyInfo,
    handler: ({ actor, body, raw }) => addPasskey(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/user/passkeys/:id',
    tags,
    access,
    summary: 'Rename one of my passkeys',
    params: idParams,
    body: passkeyRenameBody,
    response: passkeyInfo,
    handler: ({ actor, params, body, raw }) => renamePasskey(ctx, actor, params.id, body.name, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'DELETE',
    url: '/user/passkeys/:id',
    tags,
    access,
    rateLimit,
    summary: 'Remove one of my passkeys: the current password (transformed) or a code of my authenticator app again',
    params: idParams,
    body: passkeyRemoveBody,
    response: okAnswer,
    handler: ({ actor, params, body, raw }) => deletePasskey(ctx, actor, params.id, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/authc/passkey/options',
    tags,
    access: 'public',
    rateLimit,
    summary: 'Sign in with a passkey: the options of navigator.credentials.get() (single use, valid 5 minutes)',
    response: passkeyRequestOptions,
    handler: () => signInOptions(ctx),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/authc/passkey/login',
    tags,
    access: 'public',
    rateLimit,
    summary: 'Sign in with a passkey: the assertion for those options; opens the session like a password sign-in',
    body: passkeyLoginBody,
    query: loginQuery,
    response: loginAnswer,
    handler: (req, reply) => passkeySignIn(ctx, req.raw, reply, req.body, req.query.redirect),
  });
};
