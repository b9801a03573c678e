// The third-party sign-in flow with an OpenID Connect identity provider: its start (a redirect to
// the provider) and the provider's redirect back (server/idp/flow.ts does the work). The providers
// themselves are configured through server/routes/idp.ts.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import { linkRoute, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/idp';
import { finishFlow, startFlow } from '../idp/flow';
import { ApiError } from '../http/errors';
import { safeRedirect } from '../http/redirect';

const tags = ['Third-party sign-in'];

/** Where the provider's redirect back sends the browser: on with a provider ticket, or, when the
 *  sign-in cannot go on, to the console's page that says so (no ticket) and offers the sign-in page. */
async function afterCallback(ctx: Ctx, request: FastifyRequest, idpCode: string): Promise<string> {
  try {
    return safeRedirect(ctx, request, await finishFlow(ctx, request, idpCode));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return `/infoComplete?${new URLSearchParams({ idpCode, error: error.message }).toString()}`;
  }
}

export const idpLoginRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  linkRoute(app, gate, calls.getProviderStart, {
    tags,
    access: 'public',
    summary: 'Start signing in with the provider (redirects to it with PKCE, state and nonce)',
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ params, query, raw }, reply) => reply.redirect(await startFlow(ctx, raw, reply, params.idpCode, query.redirect), 302),
  });

  linkRoute(app, gate, calls.getProviderCallback, {
    tags,
    access: 'public',
    summary: "The provider's redirect back (redirects to /infoComplete with a provider ticket)",
    rateLimit: ctx.config.rateLimits.login,
    handler: async ({ params, raw }, reply) => reply.redirect(await afterCallback(ctx, raw, params.idpCode), 302),
  });
};
