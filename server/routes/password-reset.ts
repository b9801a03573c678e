// "Forgot password": the code and the reset under its own name. The work is done by
// server/services/password-reset.ts; the console resets through PUT /user/password (users.ts).
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/password-reset';
import { resetPasswordWithCode, sendResetCode } from '../services/password-reset';

const tags = ['Password reset'];

export const passwordResetRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.postUserPasswordResetCode, {
    tags,
    access: 'public',
    summary: 'Send a password reset code to an email address or mobile phone (answers alike for unknown accounts)',
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ body, raw }) => sendResetCode(ctx, raw.log, body.identifier),
  });

  // The same reset under its own name (kept for existing clients; the console uses PUT /user/password).
  route(app, gate, calls.putUserPasswordReset, {
    tags,
    access: 'public',
    summary: 'Set a new password with the reset code (as PUT /user/password with a code)',
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ body, raw }) => resetPasswordWithCode(ctx, body, raw.ip),
  });
};
