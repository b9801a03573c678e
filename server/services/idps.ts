// Identity providers for third-party sign-in, behind the calls of server/routes/idp.ts: the
// providers an administrator configures (their client secrets stay write-only: never answered), the
// enabled ones the sign-in page lists, and what a provider ticket says about its person.
import type * as v from 'valibot';
import type { Ctx } from '../context';
import type { IdpTable, IdpTicketTable } from '../db/tables';
import type { Actor } from '../auth/actor';
import type { idpCreateBody } from '../../src/core/schemas/idp';
import type { idpUpdateBody } from '../../src/core/schemas/idp-login';
import { existingAccountOf } from '../auth/third-party';
import { newId } from '../auth/secrets';
import { fieldError, notFound } from '../http/errors';
import { isUniqueViolation } from '../db/errors';
import { removedOnce } from '../db/removal';
import { checkIcon, configWithIcon, iconOf } from '../idp/provider-config';
import { changeDetail, changedFields } from '../audit-changes';

type IdpRow = Pick<IdpTable, 'code' | 'name' | 'type' | 'config' | 'enabled'>;

/** A provider as the sign-in page sees it: of its config, only the button's icon is public. */
const toIdpSummary = ({ code, name, type, config, enabled }: IdpRow) => ({ code, name, type, enabled: enabled === 1, icon: iconOf(config) });

/** A stored config's text setting by name ('' when absent). */
const settingOf = (text: string) => {
  const config = JSON.parse(text) as Record<string, unknown>;
  return (name: string) => (typeof config[name] === 'string' ? config[name] : '');
};

/** A provider as administrators see it: its settings and whether a client secret is stored, never the secret. */
const toIdpDetail = (row: IdpRow) => {
  const setting = settingOf(row.config);
  return {
    ...toIdpSummary(row),
    issuer: setting('issuer'),
    clientId: setting('clientId'),
    scopes: setting('scopes'),
    hasClientSecret: setting('clientSecret') !== '',
  };
};

const COLUMNS = ['code', 'name', 'type', 'config', 'enabled'] as const;

/** A provider's settings as its update record compares them: the config's fields one by one. */
const recordedSettings = ({ name, type, config, enabled }: Omit<IdpRow, 'code'>) => ({ name, type, enabled, config: JSON.parse(config) as object });

/** The enabled providers (for the sign-in page). */
export async function enabledIdps(ctx: Ctx) {
  const rows = await ctx.db.selectFrom('idps').select(COLUMNS).where('enabled', '=', 1).orderBy('name').orderBy('id').execute();
  return rows.map(toIdpSummary);
}

/** Every provider, disabled ones too. */
export async function allIdps(ctx: Ctx) {
  const rows = await ctx.db.selectFrom('idps').select(COLUMNS).orderBy('name').orderBy('code').orderBy('id').execute();
  return rows.map(toIdpDetail);
}

export async function createIdp(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof idpCreateBody>, ip: string) {
  await checkIcon(ctx, body.icon);
  const row = {
    code: body.code,
    name: body.name,
    type: body.type,
    config: JSON.stringify(configWithIcon({}, body.config, body.icon)),
    enabled: body.enabled === false ? 0 : 1,
  };
  await ctx.audit.change(async () => {
    try {
      await ctx.db
        .insertInto('idps')
        .values({ id: newId(), ...row, createdAt: ctx.now() })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldError([{ field: 'code', rule: 'rule.duplicate' }]);
      throw error;
    }
    await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'idp', id: body.code }, ip });
  });
  return toIdpSummary(row);
}

/** Changes the fields given; blank config values keep the stored ones. */
export async function updateIdp(ctx: Ctx, actor: Actor, code: string, body: v.InferOutput<typeof idpUpdateBody>, ip: string) {
  const row = await ctx.db.selectFrom('idps').selectAll().where('code', '=', code).executeTakeFirst();
  if (!row) throw notFound('Identity provider');
  await checkIcon(ctx, body.icon);
  const given = Object.fromEntries(Object.entries(body.config ?? {}).filter(([, value]) => value !== ''));
  const next = {
    name: body.name ?? row.name,
    type: body.type ?? row.type,
    config: JSON.stringify(configWithIcon(JSON.parse(row.config) as Record<string, string>, given, body.icon)),
    enabled: body.enabled === undefined ? row.enabled : Number(body.enabled),
  };
  await ctx.audit.change(async () => {
    await ctx.db.updateTable('idps').set(next).where('id', '=', row.id).execute();
    // Which settings changed (a provider moved to another issuer is who vouches for every linked
    // account); the client secret only as changed, never its value.
    const changes = changedFields(recordedSettings(row), recordedSettings(next));
    await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'idp', id: code }, ip, detail: changeDetail(changes) });
  });
  return toIdpSummary({ ...row, ...next });
}

export async function deleteIdp(ctx: Ctx, actor: Actor, code: string, ip: string): Promise<void> {
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('idps').where('code', '=', code).executeTakeFirst(), 'Identity provider');
    await ctx.audit.record({ action: 'settings.update', actor, target: { type: 'idp', id: code }, ip, detail: { deleted: true } });
  });
}

/** What the provider told us about the ticket's person, and whether they must complete their data
 *  (a first-time person), with the local account of the same email they may link to instead. */
export async function ticketInfo(ctx: Ctx, ticket: IdpTicketTable, accessTicket: string) {
  const existing = ticket.userId === null ? await existingAccountOf(ctx, ticket.profile) : undefined;
  return {
    idpCode: ticket.idpCode,
    token: ticket.token,
    accessTicket,
    needComplement: ticket.userId === null,
    complement: JSON.parse(ticket.profile) as Record<string, unknown>,
    ...(existing ? { existingAccount: { username: existing.username } } : {}),
  };
}
