// Captcha images (svg-captcha): single use, short-lived, bound to the client by an HttpOnly
// cookie or, for pages on another site, by the random key the client puts in the image URL.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import { lazy } from '../lazy';
import type { Ctx } from '../context';
import { CaptchaKind } from '../../src/core/enums';
import { digest, newId, newSecret, sameDigest } from './secrets';
import { linkPath } from '../http/link-path';
import { getCaptchaImage } from '../../src/core/contract/auth';

/** svg-captcha loads its font when imported: on the first captcha, not at start. */
const svgCaptcha = lazy(() => import('svg-captcha').then((module) => module.default));

const CLIENT_COOKIE = 'iam_cid';
const CAPTCHA_TTL_MS = 2 * 60_000;
export const CAPTCHA_IMAGE_URL = linkPath(getCaptchaImage);

const DIGITS = '23456789';
const LETTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
const presets: Record<CaptchaKind, string> = {
  [CaptchaKind.NUMBER]: DIGITS,
  [CaptchaKind.LETTER]: LETTERS,
  [CaptchaKind.NUMBER_LETTER]: DIGITS + LETTERS,
};

function clientHash(req: FastifyRequest, key: string | undefined): string | undefined {
  if (key) return digest(`key:${key}`);
  const cookie = req.cookies[CLIENT_COOKIE];
  return cookie ? digest(`cookie:${cookie}`) : undefined;
}

const normalise = (answer: string) => answer.trim().toLowerCase();

/** Makes a new captcha for this client (replacing its previous one) and answers its SVG. */
export async function issueCaptcha(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, key: string | undefined): Promise<string> {
  let client = clientHash(req, key);
  if (!client) {
    const cookie = newSecret();
    reply.setCookie(CLIENT_COOKIE, cookie, { path: '/api', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
    client = digest(`cookie:${cookie}`);
  }
  const { value: policy } = await ctx.settings.get('login');
  const captcha = (await svgCaptcha()).create({ size: policy.captchaLength, charPreset: presets[policy.captchaKind], noise: 2, color: true });
  const now = ctx.now();
  await ctx.db
    .deleteFrom('captchas')
    .where((eb) => eb.or([eb('clientHash', '=', client), eb('expiresAt', '<', now)]))
    .execute();
  await ctx.db
    .insertInto('captchas')
    .values({
      id: newId(),
      clientHash: client,
      answerHash: digest(normalise(captcha.text)),
      expiresAt: now + CAPTCHA_TTL_MS,
    })
    .execute();
  return captcha.data;
}

/** True when `answer` solves this client's live captcha. The captcha is used up either way. */
export async function consumeCaptcha(ctx: Ctx, req: FastifyRequest, answer: string | undefined, key: string | undefined): Promise<boolean> {
  const client = clientHash(req, key);
  if (!client) return false;
  const row = await ctx.db.deleteFrom('captchas').where('clientHash', '=', client).returning(['answerHash', 'expiresAt']).executeTakeFirst();
  if (!row || !answer || row.expiresAt <= ctx.now()) return false;
  return sameDigest(row.answerHash, digest(normalise(answer)));
}
