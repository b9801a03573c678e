// Passkeys: the signed-in person's own (list, add and remove with the current password, rename) and
// the sign-in with one (its options, then the assertion). The work is in server/auth/passkeys/.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/passkeys';
import { Permission } from '../../src/core/permission-codes';
import { addPasskey, deletePasskey, listPasskeys, registrationOptions, renamePasskey } from '../auth/passkeys/own-passkeys';
import { signInOptions } from '../auth/passkeys/assertion';
import { passkeySignIn } from '../auth/passkeys/sign-in';

const tags = ['Passkeys'];
const access = Permission.SelfService;

export const passkeyRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  const rateLimit = ctx.config.rateLimits.login;

  route(app, gate, calls.getUserPasskeys, {
    tags,
    access,
    summary: "The signed-in person's passkeys (names and dates only)",
    handler: ({ actor }) => listPasskeys(ctx, actor),
  });

  route(app, gate, calls.postUserPasskeysOptions, {
    tags,
    access,
    rateLimit,
    summary: 'Start adding a passkey: the current password (transformed) again; answers the options of navigator.credentials.create()',
    handler: ({ actor, body, raw }) => registrationOptions(ctx, actor, body.password, raw.ip),
  });

  route(app, gate, calls.postUserPasskeys, {
    tags,
    access,
    rateLimit,
    summary: "Add the passkey the authenticator made for this session's options, under a name",
    handler: ({ actor, body, raw }) => addPasskey(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.putUserPasskeysById, {
    tags,
    access,
    summary: 'Rename one of my passkeys',
    handler: ({ actor, params, body, raw }) => renamePasskey(ctx, actor, params.id, body.name, raw.ip),
  });

  route(app, gate, calls.deleteUserPasskeysById, {
    tags,
    access,
    rateLimit,
    summary: 'Remove one of my passkeys: the current password (transformed) or a code of my authenticator app again',
    handler: ({ actor, params, body, raw }) => deletePasskey(ctx, actor, params.id, body, raw.ip),
  });

  route(app, gate, calls.postAuthcPasskeyOptions, {
    tags,
    access: 'public',
    rateLimit,
    summary: 'Sign in with a passkey: the options of navigator.credentials.get() (single use, valid 5 minutes)',
    handler: () => signInOptions(ctx),
  });

  route(app, gate, calls.postAuthcPasskeyLogin, {
    tags,
    access: 'public',
    rateLimit,
    summary: 'Sign in with a passkey: the assertion for those options; opens the session like a password sign-in',
    handler: (req, reply) => passkeySignIn(ctx, req.raw, reply, req.body, req.query.redirect),
  });
};
