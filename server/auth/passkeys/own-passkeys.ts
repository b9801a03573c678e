// A person's own passkeys (the personal center): adding one (the current password first, then
// the authenticator's answer for this session's challenge), the list, renaming and removing (the
// current password or an authenticator code again, like adding). Each change is audited.
import type { Selectable } from 'kysely';
import type * as v from 'valibot';
import type { Ctx } from '../../context';
import type { Actor } from '../actor';
import type { PasskeyTable } from '../../db/tables';
import type { passkeyAddBody, passkeyCreationOptions, passkeyInfo } from '../../../src/core/schemas/passkeys';
import { ApiError, notFound } from '../../http/errors';
import { isUniqueViolation } from '../../db/errors';
import { removedOnce } from '../../db/removal';
import { recheck, type RecheckProof } from '../recheck';
import { dropCodesWithLastFactor } from '../strong-factor';
import { newId } from '../secrets';
import { issueChallenge } from './challenges';
import { passkeyAlgorithms, verifyRegistration } from './ceremony';
import { relyingParty } from './relying-party';
import { webauthnLibrary } from './library';

type PasskeyRow = Selectable<PasskeyTable>;
type PasskeyInfo = v.InferOutput<typeof passkeyInfo>;

/** A person has few passkeys (one per device or password manager); this keeps the list readable. */
const MAX_PASSKEYS = 20;
const TOO_MANY = `At most ${MAX_PASSKEYS} passkeys per person; remove one first`;
export const ALREADY_YOURS = 'This passkey is already in your list';
export const ANOTHER_ACCOUNT = 'This passkey is registered to another account';

const toInfo = (row: PasskeyRow): PasskeyInfo => ({
  id: row.id,
  name: row.name,
  deviceType: row.deviceType,
  backedUp: row.backedUp === 1,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});

const rowsOf = (ctx: Ctx, userId: string) =>
  ctx.db.selectFrom('passkeys').selectAll().where('userId', '=', userId).orderBy('createdAt').orderBy('id').execute();

export async function listPasskeys(ctx: Ctx, actor: Actor): Promise<PasskeyInfo[]> {
  return (await rowsOf(ctx, actor.id)).map(toInfo);
}

/** The options of navigator.credentials.create() once the current password is right: a
 *  discoverable credential (a passkey, found without a username) that verified the person. */
export async function registrationOptions(ctx: Ctx, actor: Actor, password: string, ip: string): Promise<v.InferOutput<typeof passkeyCreationOptions>> {
  await recheck(ctx, actor, { password }, ip);
  const existing = await rowsOf(ctx, actor.id);
  if (existing.length >= MAX_PASSKEYS) throw new ApiError(400, TOO_MANY);
  const { value: config } = await ctx.settings.get('config');
  const challenge = await issueChallenge(ctx, 'register', { userId: actor.id, sessionId: actor.sessionId });
  const { generateRegistrationOptions } = await webauthnLibrary();
  return generateRegistrationOptions({
    rpName: config.system.appName,
    rpID: relyingParty(ctx).id,
    userName: actor.user.username,
    userDisplayName: actor.user.realName,
    // The user handle is the account id: a passkey sign-in names its account without a username.
    userID: new TextEncoder().encode(actor.id),
    challenge,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: JSON.parse(row.transports) as string[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: passkeyAlgorithms,
  });
}

/** Stores the passkey the authenticator made for this session's challenge. */
export async function addPasskey(ctx: Ctx, actor: Actor, body: v.InferOutput<typeof passkeyAddBody>, ip: string): Promise<PasskeyInfo> {
  const made = await verifyRegistration(ctx, body.credential, { userId: actor.id, sessionId: actor.sessionId });
  const row: PasskeyRow = {
    id: newId(),
    userId: actor.id,
    credentialId: made.credentialId,
    publicKey: made.publicKey,
    counter: made.counter,
    transports: JSON.stringify(made.transports),
    deviceType: made.deviceType,
    backedUp: made.backedUp ? 1 : 0,
    name: body.name,
    createdAt: ctx.now(),
    lastUsedAt: null,
  };
  await ctx.audit.change(async () => {
    try {
      // A savepoint: the change goes on after a refused insert.
      await ctx.db.transaction().execute((trx) => trx.insertInto('passkeys').values(row).execute());
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const owner = await ctx.db.selectFrom('passkeys').select('userId').where('credentialId', '=', made.credentialId).executeTakeFirst();
      throw new ApiError(409, owner?.userId === actor.id ? ALREADY_YOURS : ANOTHER_ACCOUNT);
    }
    // Registrations started while there was room may finish together: counted again once stored
    // (of two racing past the limit, both step back rather than one too many staying).
    const stored = await ctx.db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('userId', '=', actor.id)
      .executeTakeFirstOrThrow();
    if (Number(stored.count) > MAX_PASSKEYS) {
      await ctx.db.deleteFrom('passkeys').where('id', '=', row.id).execute();
      throw new ApiError(400, TOO_MANY);
    }
    await ctx.audit.record({
      action: 'passkey.add',
      actor,
      target: { type: 'passkey', id: row.id },
      tenantId: actor.user.tenantId,
      ip,
      detail: { name: row.name },
    });
  });
  return toInfo(row);
}

async function ownPasskey(ctx: Ctx, actor: Actor, id: string): Promise<PasskeyRow> {
  const row = await ctx.db.selectFrom('passkeys').selectAll().where('id', '=', id).where('userId', '=', actor.id).executeTakeFirst();
  if (!row) throw notFound('Passkey');
  return row;
}

export async function renamePasskey(ctx: Ctx, actor: Actor, id: string, name: string, ip: string): Promise<PasskeyInfo> {
  const row = await ownPasskey(ctx, actor, id);
  await ctx.audit.change(async () => {
    await ctx.db.updateTable('passkeys').set({ name }).where('id', '=', id).where('userId', '=', actor.id).execute();
    await ctx.audit.record({
      action: 'passkey.rename',
      actor,
      target: { type: 'passkey', id },
      tenantId: actor.user.tenantId,
      ip,
      detail: { from: row.name, name },
    });
  });
  return toInfo({ ...row, name });
}

/** Removing a passkey takes the proof adding one takes: a session alone (an unlocked screen, a
 *  borrowed session) must not strip the person's strongest factor. The last strong factor takes
 *  the recovery codes with it. */
export async function deletePasskey(ctx: Ctx, actor: Actor, id: string, proof: RecheckProof, ip: string): Promise<null> {
  const row = await ownPasskey(ctx, actor, id);
  await recheck(ctx, actor, proof, ip);
  await ctx.audit.change(async () => {
    await removedOnce(ctx.db.deleteFrom('passkeys').where('id', '=', id).where('userId', '=', actor.id).executeTakeFirst(), 'Passkey');
    await ctx.audit.record({ action: 'passkey.delete', actor, target: { type: 'passkey', id }, tenantId: actor.user.tenantId, ip, detail: { name: row.name } });
    await dropCodesWithLastFactor(ctx, actor, 'passkey', ip);
  });
  return null;
}
