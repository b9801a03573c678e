// Email verification: a signed-in person asks for a link to their email address; opening it
// (/verified/{code}, which calls POST /verified/{code}) marks that address verified. The work is
// done by server/services/email-verification.ts.
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { okAnswer } from '../../src/core/schemas/common';
import { verificationParams, verifiedAnswer } from '../../src/core/schemas/email-verification';
import { Permission } from '../../src/core/permission-codes';
import { mailVerificationLink, verifyEmail } from '../services/email-verification';

const tags = ['Email verification'];

export const emailVerificationRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'POST',
    url: '/user/email/verification',
    tags,
    access: Permission.SelfService,
    summary: 'Mail me a link that verifies my email address',
    response: okAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ actor }) => mailVerificationLink(ctx, actor),
  });

  defineRoute(app, gate, {
    method: 'POST',
    url: '/verified/:code',
    tags,
    access: 'public',
    summary: 'Use an email verification link (once)',
    params: verificationParams,
    response: verifiedAnswer,
    rateLimit: ctx.config.rateLimits.login,
    handler: ({ params }) => verifyEmail(ctx, params.code),
  });
};
