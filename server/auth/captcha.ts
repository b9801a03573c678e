// Captchas: a PNG of random characters (captcha-image.ts), single use, short-lived, bound to the
// client by an HttpOnly cookie or, for pages on another site, by the random key the client puts in
// the image URL. A speed bump against scripted guessing; the lockout and rate limits are the defence.
import { randomInt } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { Ctx } from '../context';
import { CaptchaKind } from '../../src/core/enums';
import { digest, newId, newSecret, sameDigest } from './secrets';
import { linkPath } from '../http/link-path';
import { getCaptchaImage } from '../../src/core/contract/auth';
import { drawCaptcha } from './captcha-image';
import { reachedOverHttps } from '../http/public-origin';

const CLIENT_COOKIE = 'iam_cid';
const CAPTCHA_TTL_MS = 2 * 60_000;
export const CAPTCHA_IMAGE_URL = linkPath(getCaptchaImage);

const DIGITS = '23456789';
const LETTERS = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ';
/** The characters of each captcha kind: none that read as another (0 O o, 1 I l i). */
export const captchaCharacters: Record<CaptchaKind, string> = {
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

/** The answer: drawn with the system's cryptographic generator, so no captcha tells the next. */
const randomText = (charset: string, length: number) => Array.from({ length }, () => charset[randomInt(charset.length)]).join('');

/** Makes a new captcha for this client (replacing its previous one) and answers its PNG. */
export async function issueCaptcha(ctx: Ctx, req: FastifyRequest, reply: FastifyReply, key: string | undefined): Promise<Buffer> {
  let client = clientHash(req, key);
  if (!client) {
    const cookie = newSecret();
    reply.setCookie(CLIENT_COOKIE, cookie, { path: '/api', httpOnly: true, sameSite: 'lax', secure: reachedOverHttps(req) });
    client = digest(`cookie:${cookie}`);
  }
  const { value: policy } = await ctx.settings.get('login');
  const text = randomText(captchaCharacters[policy.captchaKind], policy.captchaLength);
  const image = await drawCaptcha(text);
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
      answerHash: digest(normalise(text)),
      expiresAt: now + CAPTCHA_TTL_MS,
    })
    .execute();
  return image;
}

/** True when `answer` solves this client's live captcha. The captcha is used up either way. */
export async function consumeCaptcha(ctx: Ctx, req: FastifyRequest, answer: string | undefined, key: string | undefined): Promise<boolean> {
  const client = clientHash(req, key);
  if (!client) return false;
  const row = await ctx.db.deleteFrom('captchas').where('clientHash', '=', client).returning(['answerHash', 'expiresAt']).executeTakeFirst();
  if (!row || !answer || row.expiresAt <= ctx.now()) return false;
  return sameDigest(row.answerHash, digest(normalise(answer)));
}
