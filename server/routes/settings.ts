// Login settings (the sign-in policy) and the console configuration / branding (System config
// and Other settings): declaration and access of each call; changes are made by
// server/services/settings.ts. The configuration is public to read: the sign-in page needs its branding.
import type { FastifyPluginAsync } from 'fastify';
import { route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/settings';
import { Permission } from '../../src/core/permission-codes';
import * as settings from '../services/settings';

const tags = ['Settings'];

export const settingsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  route(app, gate, calls.getSettingsLogin, {
    tags,
    access: Permission.Settings,
    summary: 'The sign-in policy',
    handler: () => ctx.settings.get('login'),
  });

  route(app, gate, calls.getSettingsLoginPublic, {
    tags,
    access: 'public',
    summary: 'What the sign-in page and password forms follow: login method, captcha, second step, background, password policy (no lockout details)',
    handler: ({ raw }) => settings.publicLoginSettings(ctx, raw.headers.origin),
  });

  route(app, gate, calls.putSettingsLogin, {
    tags,
    access: Permission.Settings,
    summary: 'Change the sign-in policy (409 when version is stale)',
    handler: ({ actor, body, raw }) => settings.updateLoginSettings(ctx, actor, body, raw.ip),
  });

  route(app, gate, calls.getConfig, {
    tags,
    access: 'public',
    summary: 'Console configuration and branding (public: the sign-in page shows it)',
    handler: () => ctx.settings.get('config'),
  });

  route(app, gate, calls.putConfig, {
    tags,
    access: Permission.Settings,
    summary: 'Change the console configuration and branding (409 when version is stale)',
    handler: ({ actor, body, raw }) => settings.updateConfig(ctx, actor, body, raw.ip),
  });
};
