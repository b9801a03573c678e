// The sign-in policy and the console configuration, behind server/routes/settings.ts: each change is
// merged into the stored document (server/settings.ts keeps them, versioned), validated whole and
// audited.
import type * as v from 'valibot';
import type { Ctx } from '../context';
import { changeDetail, changedFields } from '../audit-changes';
import type { Actor } from '../auth/actor';
import { checkedLoginSettings, iamConfig, type iamConfigUpdate, type loginSettingsUpdate } from '../../src/core/schemas/settings';
import { validate } from '../../src/core/validation';
import { fieldError } from '../http/errors';
import { resolveConfig } from '../../src/core/config';
import { SecondAuth } from '../../src/core/enums';
import { totpEnabled } from '../auth/totp';
import { hasPasskey } from '../auth/passkeys/has-passkey';
import { rpIdFor } from '../auth/passkeys/relying-party';

/** Validates a whole document after a partial change was merged in (cross-field rules hold). */
function checked<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = validate(schema, value);
  if (!result.success) throw fieldError(result.fields);
  return result.output;
}

/** What the sign-in page and password forms follow (no lockout details), with the passkeys' RP ID
 *  for the page's origin (null: no passkeys there). */
export async function publicLoginSettings(ctx: Ctx, origin: string | undefined) {
  const { loginMethod, captchaEnabled, captchaKind, captchaLength, secondAuth, backgroundType, background, passwordPolicy, fieldRules } = (
    await ctx.settings.get('login')
  ).value;
  return {
    loginMethod,
    captchaEnabled,
    captchaKind,
    captchaLength,
    secondAuth,
    backgroundType,
    background: background ?? null,
    passwordPolicy,
    passkeyRpId: rpIdFor(ctx, origin),
    fieldRules,
    directorySignIn: (await ctx.db.selectFrom('ldapConnections').select('id').where('enabled', '=', 1).limit(1).executeTakeFirst()) !== undefined,
  };
}

export async function updateLoginSettings(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof loginSettingsUpdate>, ip: string) {
  const { version, ...changes } = body;
  // Nobody locks themselves out: TOTP (or a passkey) as the second step needs the saver's own.
  if (changes.secondAuth === SecondAuth.TOTP && !(await totpEnabled(ctx, actor.id))) throw fieldError([{ field: 'secondAuth', rule: 'rule.totpRequired' }]);
  if (changes.secondAuth === SecondAuth.PASSKEY && !(await hasPasskey(ctx.db, actor.id)))
    throw fieldError([{ field: 'secondAuth', rule: 'rule.passkeyRequired' }]);
  const saved = await ctx.audit.change(async () => {
    let before = {};
    const saved = await ctx.settings.update('login', version, (current) => {
      before = current;
      return checked(checkedLoginSettings, { ...current, ...changes });
    });
    const detail = changeDetail(changedFields(before, saved.value));
    await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'settings', id: 'login', name: 'login' }, ip, detail });
    return saved;
  });
  return saved;
}

export async function updateConfig(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof iamConfigUpdate>, ip: string) {
  const saved = await ctx.audit.change(async () => {
    let before = {};
    const saved = await ctx.settings.update('config', body.version, (current) =>
      checked(
        iamConfig,
        resolveConfig({
          system: { ...(before = current).system, ...body.system },
          settings: { ...current.settings, ...body.settings },
        }),
      ),
    );
    await ctx.audit.record({
      action: 'config.update',
      actor,
      target: { type: 'settings', id: 'config', name: 'config' },
      ip,
      detail: changeDetail(changedFields(before, saved.value)),
    });
    return saved;
  });
  return saved;
}
