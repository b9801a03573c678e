// Email verification: a signed-in person asks for a link to their email address; opening it
// (/verified/{code}, which calls POST /verified/{code}) marks that address verified. The work is
// done by server/services/email-verification.ts.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/email-verification';
import { Permission } from '../../src/core/permission-codes';
import { mailVerificationLink, verifyEmail } from '../services/email-verification';

const tags = ['Email verification'];

export const emailVerificationRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.postUserEmailVerification, {
    tags,
    access: Permission.SelfService,
    summary: 'Mail me a link that verifies my email address',
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ actor }) => mailVerificationLink(ctx, actor),
  });

  route(app, gate, calls.postVerifiedByCode, {
    tags,
    access: 'public',
    summary: 'Use an email verification link (once)',
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ params, raw }) => verifyEmail(ctx, params.code, raw.ip),
  });
};
