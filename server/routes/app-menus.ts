// The menus the apps show (GET /menu/app/assignment/public/multi_app_menu/list): who is looking is
// decided here, the menus are read by server/services/menu-plans.ts.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/app-menus';
import { Permission } from '../../src/core/permission-codes';
import type { Viewer } from '../menus/visibility';
import { appTokenHolder, presentedToken } from '../oidc/bearer';
import { OidcProvider } from '../oidc/provider';
import { forbidden } from '../http/errors';
import { visibleMenus } from '../services/menu-plans';

/** The viewer and the app asked for: with an app's access token (Authorization: Bearer, or DPoP for a bound token), its person
 *  and that app only; otherwise the signed-in actor (defineRoute checked them without a bearer token). */
async function viewerOf(
  ctx: Ctx,
  actor: Actor | null,
  appId: string | undefined,
  request: FastifyRequest,
): Promise<{ viewer: Viewer; appId: string | undefined }> {
  const presented = presentedToken(request, ctx.site.origin());
  if (presented === undefined) return { viewer: actor!, appId };
  const holder = await appTokenHolder(ctx, OidcProvider.of(ctx), presented);
  if (appId && appId !== holder.appId) throw forbidden('This access token was issued to another app');
  return { viewer: holder.person, appId: holder.appId };
}

export const appMenuRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getAppMenus, {
    // Signed in to the console (Permission.SelfService), or an app with a person's access token from our provider.
    tags: ['Menus'],
    access: Permission.SelfService,
    appToken: true,
    summary:
      "The menus of every app (and the global menu), with only the items the caller may see; with an app's access token (Authorization: Bearer, or DPoP with a proof), that app's menu for its person",
    handler: async ({ actor, query, raw }) => {
      const { viewer, appId } = await viewerOf(ctx, actor, query.appId, raw);
      return visibleMenus(ctx, viewer, appId);
    },
  });
};
