// "Forgot password": a one-time code by email or SMS (the same answer whether or not the account
// exists, so the call does not reveal accounts), then a new password with the code. The reset
// signs the person out everywhere.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { passwordResetBody, resetCodeBody } from '../../src/core/schemas/password-reset';
import { consumeCode, sendCode } from '../auth/codes';
import { hashPassword } from '../auth/kdf';
import { ApiError, fieldError } from '../http/errors';

const tags = ['Password reset'];

const userNamed = (ctx: Ctx, username: string) => ctx.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

export function passwordResetRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'POST', url: '/user/password/reset-code', tags, access: 'public',
    summary: 'Send a password reset code by email or SMS (answers alike for unknown accounts)', body: resetCodeBody, response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ body }) => {
      const user = await userNamed(ctx, body.username);
      if (!user) return null;
      try {
        await sendCode(ctx, user, 'password-reset', body.via);
      } catch (error) {
        // Too soon for a new code: answered like a sent one (the account is not revealed).
        if (!(error instanceof ApiError && error.status === 429)) throw error;
      }
      return null;
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/user/password/reset', tags, access: 'public',
    summary: 'Set a new password with the reset code (signs the person out everywhere)', body: passwordResetBody, response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ body, raw }) => {
      const user = await userNamed(ctx, body.username);
      if (!user || !(await consumeCode(ctx, user.id, 'password-reset', body.code))) throw fieldError([{ field: 'code', rule: 'rule.code' }]);
      const now = ctx.now();
      await ctx.db.updateTable('users')
        .set({ passwordHash: await hashPassword(body.password), passwordChangedAt: now, version: user.version + 1, updatedAt: now })
        .where('id', '=', user.id).execute();
      await ctx.sessions.revokeUser(user.id);
      await ctx.audit.record({ action: 'password.reset', actor: user, target: { type: 'user', id: user.id }, tenantId: user.tenantId, ip: raw.ip, detail: { via: 'code' } });
      return null;
    },
  });
}
