// Login settings (the sign-in policy) and the console configuration / branding (System config
// and Other settings). The configuration is public to read: the sign-in page needs its branding.
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { checkedLoginSettings, iamConfig, iamConfigUpdate, loginSettings, loginSettingsUpdate, publicLoginSettings } from '../../src/core/schemas/settings';
import { validate } from '../../src/core/validation';
import { fieldError } from '../http/errors';
import { resolveConfig } from '../../src/core/config';
import { SecondAuth } from '../../src/core/enums';
import { totpEnabled } from '../auth/totp';
import { hasPasskey } from '../auth/passkeys/has-passkey';
import { rpIdFor } from '../auth/passkeys/relying-party';
import { Permission } from '../../src/core/permission-codes';

const tags = ['Settings'];
const withVersion = <T extends v.GenericSchema>(schema: T) => v.object({ value: schema, version: v.number() });

/** Validates a whole document after a partial change was merged in (cross-field rules hold). */
function checked<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = validate(schema, value);
  if (!result.success) throw fieldError(result.fields);
  return result.output;
}

export function settingsRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'GET', url: '/settings/login', tags, access: Permission.Settings, summary: 'The sign-in policy', response: withVersion(loginSettings),
    handler: () => ctx.settings.get('login'),
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/settings/login/public', tags, access: 'public',
    summary: 'What the sign-in page and password forms follow: login method, captcha, second step, background, password policy (no lockout details)',
    response: publicLoginSettings,
    handler: async ({ raw }) => {
      const { loginMethod, captchaEnabled, captchaKind, captchaLength, secondAuth, backgroundType, background, passwordPolicy } = (await ctx.settings.get('login')).value;
      return { loginMethod, captchaEnabled, captchaKind, captchaLength, secondAuth, backgroundType, background: background ?? null, passwordPolicy, passkeyRpId: rpIdFor(ctx, raw.headers.origin) };
    },
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/settings/login', tags, access: Permission.Settings, summary: 'Change the sign-in policy (409 when version is stale)',
    body: loginSettingsUpdate, response: withVersion(loginSettings),
    handler: async ({ actor, body, raw }) => {
      const { version, ...changes } = body;
      // Nobody locks themselves out: TOTP (or a passkey) as the second step needs the saver's own.
      if (changes.secondAuth === SecondAuth.TOTP && !(await totpEnabled(ctx, actor.id))) throw fieldError([{ field: 'secondAuth', rule: 'rule.totpRequired' }]);
      if (changes.secondAuth === SecondAuth.PASSKEY && !(await hasPasskey(ctx.db, actor.id))) throw fieldError([{ field: 'secondAuth', rule: 'rule.passkeyRequired' }]);
      const saved = await ctx.settings.update('login', version, (current) => checked(checkedLoginSettings, { ...current, ...changes }));
      await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'settings', id: 'login' }, ip: raw.ip, detail: { fields: Object.keys(changes) } });
      return saved;
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/config', tags, access: 'public', summary: 'Console configuration and branding (public: the sign-in page shows it)',
    response: withVersion(iamConfig),
    handler: () => ctx.settings.get('config'),
  });

  defineRoute(app, gate, {
    method: 'PUT', url: '/config', tags, access: Permission.Settings, summary: 'Change the console configuration and branding (409 when version is stale)',
    body: iamConfigUpdate, response: withVersion(iamConfig),
    handler: async ({ actor, body, raw }) => {
      const saved = await ctx.settings.update('config', body.version, (current) => checked(iamConfig, resolveConfig({
        system: { ...current.system, ...body.system }, settings: { ...current.settings, ...body.settings },
      })));
      await ctx.audit.record({ action: 'config.update', actor, target: { type: 'settings', id: 'config' }, ip: raw.ip, detail: { system: Object.keys(body.system ?? {}), settings: Object.keys(body.settings ?? {}) } });
      return saved;
    },
  });
}
