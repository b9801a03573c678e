// Login settings (the sign-in policy) and the console configuration / branding (System config
// and Other settings): declaration and access of each call; changes are made by
// server/services/settings.ts. The configuration is public to read: the sign-in page needs its branding.
import * as v from 'valibot';
import type { FastifyPluginAsync } from 'fastify';
import { defineRoute, type RouteOptions } from '../http/route';
import { iamConfig, iamConfigUpdate, loginSettings, loginSettingsUpdate, publicLoginSettings } from '../../src/core/schemas/settings';
import { Permission } from '../../src/core/permission-codes';
import * as settings from '../services/settings';

const tags = ['Settings'];
const withVersion = <T extends v.GenericSchema>(schema: T) => v.object({ value: schema, version: v.number() });

export const settingsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  defineRoute(app, gate, {
    method: 'GET',
    url: '/settings/login',
    tags,
    access: Permission.Settings,
    summary: 'The sign-in policy',
    response: withVersion(loginSettings),
    handler: () => ctx.settings.get('login'),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/settings/login/public',
    tags,
    access: 'public',
    summary: 'What the sign-in page and password forms follow: login method, captcha, second step, background, password policy (no lockout details)',
    response: publicLoginSettings,
    handler: ({ raw }) => settings.publicLoginSettings(ctx, raw.headers.origin),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/settings/login',
    tags,
    access: Permission.Settings,
    summary: 'Change the sign-in policy (409 when version is stale)',
    body: loginSettingsUpdate,
    response: withVersion(loginSettings),
    handler: ({ actor, body, raw }) => settings.updateLoginSettings(ctx, actor, body, raw.ip),
  });

  defineRoute(app, gate, {
    method: 'GET',
    url: '/config',
    tags,
    access: 'public',
    summary: 'Console configuration and branding (public: the sign-in page shows it)',
    response: withVersion(iamConfig),
    handler: () => ctx.settings.get('config'),
  });

  defineRoute(app, gate, {
    method: 'PUT',
    url: '/config',
    tags,
    access: Permission.Settings,
    summary: 'Change the console configuration and branding (409 when version is stale)',
    body: iamConfigUpdate,
    response: withVersion(iamConfig),
    handler: ({ actor, body, raw }) => settings.updateConfig(ctx, actor, body, raw.ip),
  });
};
