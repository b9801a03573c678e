// The installation's license, behind the license calls (server/routes/license.ts): its request
// code, its status (valid / missing / expired / invalid / over_limit) and the audited activation of
// a new license (read and verified by server/license/codec.ts).
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import type { LicenseStatus } from '../../src/core/types';
import { ApiError } from '../http/errors';
import { newId } from '../auth/secrets';
import { readLicense, type LicensePayload } from '../license/codec';

const INSTALLATION_KEY = 'installation';
const LICENSE_KEY = 'license';
const PRODUCT = 'iam-console';

/** GET /license/auth: identifies this installation (a random id made at first use). */
export async function requestCode(ctx: Ctx): Promise<string> {
  let installation = await ctx.settings.getRaw(INSTALLATION_KEY);
  if (!installation) {
    await ctx.settings.setRaw(INSTALLATION_KEY, newId());
    installation = (await ctx.settings.getRaw(INSTALLATION_KEY))!;
  }
  return `IAM1-${Buffer.from(JSON.stringify({ p: PRODUCT, i: installation })).toString('base64url')}`;
}

type Verdict = { status: 'valid' | 'expired' | 'over_limit'; payload: LicensePayload; users: number } | { status: 'invalid'; message: string };

async function judge(ctx: Ctx, text: string): Promise<Verdict> {
  const publicKey = ctx.config.licensePublicKey;
  if (!publicKey) return { status: 'invalid', message: 'No vendor key is configured (IAM_LICENSE_PUBLIC_KEY)' };
  const reading = readLicense(text, publicKey);
  if (!reading.ok) {
    return {
      status: 'invalid',
      message: reading.reason === 'signature' ? 'The license signature is invalid (tampered or not issued by the vendor)' : 'The license is malformed',
    };
  }
  if (reading.payload.requestCode !== (await requestCode(ctx))) return { status: 'invalid', message: 'The license was issued for another installation' };
  const row = await ctx.db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('count'))
    .executeTakeFirst();
  const users = Number(row?.count ?? 0);
  if (Date.parse(reading.payload.expiresAt) <= ctx.now()) return { status: 'expired', payload: reading.payload, users };
  if (users > reading.payload.userLimit) return { status: 'over_limit', payload: reading.payload, users };
  return { status: 'valid', payload: reading.payload, users };
}

function describe(verdict: Verdict): LicenseStatus {
  if (verdict.status === 'invalid') return { status: 'invalid' };
  return {
    status: verdict.status,
    licensee: verdict.payload.licensee,
    expiresAt: verdict.payload.expiresAt,
    userLimit: verdict.payload.userLimit,
    users: verdict.users,
  };
}

export async function licenseStatus(ctx: Ctx): Promise<LicenseStatus> {
  const text = await ctx.settings.getRaw(LICENSE_KEY);
  return text ? describe(await judge(ctx, text)) : { status: 'missing' };
}

/** When the active license was issued (none, or one this installation cannot read: undefined). */
async function activeIssuedAt(ctx: Ctx): Promise<number | undefined> {
  const text = await ctx.settings.getRaw(LICENSE_KEY);
  const reading = text && ctx.config.licensePublicKey ? readLicense(text, ctx.config.licensePublicKey) : undefined;
  return reading?.ok ? Date.parse(reading.payload.issuedAt) : undefined;
}

/** Refuses tampered, foreign, malformed and expired licenses, and one older than the active license
 *  (a replayed earlier license must not undo a newer one), with a clear message. */
async function install(ctx: Ctx, text: string): Promise<LicenseStatus> {
  const verdict = await judge(ctx, text);
  if (verdict.status === 'invalid') throw new ApiError(400, verdict.message, { fields: [{ field: 'newLicense', rule: 'rule.license' }] });
  if (verdict.status === 'expired') throw new ApiError(400, 'The license has expired', { fields: [{ field: 'newLicense', rule: 'rule.licenseExpired' }] });
  const active = await activeIssuedAt(ctx);
  if (active !== undefined && Date.parse(verdict.payload.issuedAt) < active) {
    throw new ApiError(400, 'This license was issued before the active one; install the newer license', {
      fields: [{ field: 'newLicense', rule: 'rule.license' }],
    });
  }
  await ctx.settings.setRaw(LICENSE_KEY, text.trim());
  return describe(verdict);
}

/** POST /license/auth: installs the license; the activation and each refusal are audited. */
export async function activateLicense(ctx: Ctx, actor: Actor, text: string, ip: string): Promise<LicenseStatus> {
  const target = { type: 'license', id: null };
  try {
    return await ctx.audit.change(async () => {
      const answer = await install(ctx, text);
      await ctx.audit.record({ action: 'license.activate', actor, target, ip, detail: { licensee: answer.licensee, expiresAt: answer.expiresAt } });
      return answer;
    });
  } catch (error) {
    if (error instanceof ApiError)
      await ctx.audit.standalone({ action: 'license.refused', actor, target, ip, success: false, detail: { reason: error.message } });
    throw error;
  }
}
