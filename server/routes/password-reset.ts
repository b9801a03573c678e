// "Forgot password": the code and the reset under its own name. The work is done by
// server/services/password-reset.ts; the console resets through PUT /user/password (users.ts).
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { passwordResetBody, resetCodeBody } from '../../src/core/schemas/password-reset';
import { resetPasswordWithCode, sendResetCode } from '../services/password-reset';

const tags = ['Password reset'];

export const passwordResetRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/password/reset-code',
    tags,
    access: 'public',
    summary: 'Send a password reset code to an email address or mobile phone (answers alike for unknown accounts)',
    body: resetCodeBody,
    response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ body, raw }) => sendResetCode(ctx, raw.log, body.identifier),
  });

  // The same reset under its own name (kept for existing clients; the console uses PUT /user/password).
  defineRoute(app, gate, {
    method: 'PUT',
    url: '/user/password/reset',
    tags,
    access: 'public',
    summary: 'Set a new password with the reset code (as PUT /user/password with a code)',
    body: passwordResetBody,
    response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ body, raw }) => resetPasswordWithCode(ctx, body, raw.ip),
  });
};
