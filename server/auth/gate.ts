// Who is calling (session cookie or token header) and whether a state-changing call may go on
// (CSRF: its Origin must be ours or one of IAM_CORS_ORIGINS).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import type { Ctx } from '../context';
import { ApiError, forbidden } from '../http/errors';
import type { Gate } from '../http/route';
import { actorOf, type Actor } from './actor';
import { isTokenHeaderName } from '../../src/core/validation/token-header';
import type { IamConfig } from '../../src/core/config';
import { fieldRulesOf } from '../field-rules-scope';
import { reachedOverHttps } from '../http/public-origin';
import type { ServerConfig } from '../config';

/**
 * The session cookie's name. Over https (IAM_PUBLIC_URL) it carries the `__Host-` prefix, which
 * browsers accept only from this host, Secure, with `Path=/` and no Domain: a sibling host of the
 * site (files.example.com beside iam.example.com) cannot plant a cookie of that name, whereas an
 * `iam_session` it set for the whole site with a longer path would be sent first and taken, so
 * that the console here ran as the sibling's chosen session. Plain over http, where browsers
 * refuse the prefix (development).
 */
export const sessionCookieName = (config: Pick<ServerConfig, 'publicUrl'>): string =>
  config.publicUrl?.startsWith('https:') ? '__Host-iam_session' : 'iam_session';

/** The session cookie this request carries, under the name this server gives it. */
export const sessionCookieOf = (req: FastifyRequest): string | undefined => req.cookies[sessionCookieName(req.server.ctx.config)];
/** The header with which a client asks for token mode at sign-in. */
export const AUTH_MODE_HEADER = 'x-iam-auth-mode';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(req: FastifyRequest): string | undefined {
  const origin = req.headers.origin;
  if (origin) return origin;
  const referer = req.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

/** Ours (the configured public origin, never the request's Host or X-Forwarded-Host) or a configured one. */
export function isAllowedOrigin(ctx: Ctx, origin: string): boolean {
  return ctx.site.isOwn(origin) || ctx.config.corsOrigins.includes(origin);
}

/** The header that carries the token in token mode (authConfig.tokenName). A name saved before
 *  names were checked as now (src/core/validation/token-header.ts) counts as the default `token`. */
export async function tokenHeaderName(ctx: Ctx): Promise<string> {
  return headerNameIn((await ctx.settings.get('config')).value);
}

function headerNameIn(config: IamConfig): string {
  const name = config.settings.authConfig.tokenName.toLowerCase();
  return isTokenHeaderName(name) ? name : 'token';
}

type Credential = { secret: string; via: Actor['via'] };

/**
 * Whether one of the request's headers could be the token header. The setting names only a header
 * that says it carries a credential and is not reserved (another name saved earlier counts as
 * `token`), so a request with no such header (a browser's own: cookie, accept-*, sec-*, origin …)
 * carries no token whatever the setting says, and needs no settings read to find its credential.
 */
function mayCarryTokenHeader(req: FastifyRequest): boolean {
  for (const name in req.headers) if (isTokenHeaderName(name)) return true;
  return false;
}

function credentialIn(req: FastifyRequest, headerName: string): Credential | undefined {
  const header = req.headers[headerName];
  if (typeof header === 'string' && header) return { secret: header, via: 'token' };
  const cookie = sessionCookieOf(req);
  if (cookie) return { secret: cookie, via: 'cookie' };
  return undefined;
}

/** The session secret the request carries, and how. */
export async function credentialOf(ctx: Ctx, req: FastifyRequest): Promise<Credential | undefined> {
  return credentialIn(req, await tokenHeaderName(ctx));
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, secret: string, expiresAt: number, now: number): void {
  reply.setCookie(sessionCookieName(req.server.ctx.config), secret, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: reachedOverHttps(req),
    maxAge: Math.max(0, Math.floor((expiresAt - now) / 1000)),
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(sessionCookieName(req.server.ctx.config), { path: '/', httpOnly: true, sameSite: 'lax', secure: reachedOverHttps(req) });
}

/** The answer to a page on an origin the server does not know: it says how to allow that origin
 *  (a dev server's proxy keeps the page's Origin, so it meets this too). */
function originRefused(origin: string): ApiError {
  return new ApiError(
    403,
    'Cross-site request refused: the origin of this page is not allowed; add it to IAM_CORS_ORIGINS on the server (or serve the page from IAM_PUBLIC_URL)',
    { origin, setting: 'IAM_CORS_ORIGINS' },
  );
}

/**
 * The spec's sign-out is a GET, which a browser sends with the SameSite=Lax session cookie on
 * another site's link, image or redirect too. Such a request is refused: it must come from an
 * allowed origin (Origin or Referer), or say it is not cross-site (`Sec-Fetch-Site`: the console's
 * own fetch, a typed address; the console's pages send no Referer) or come from no browser at all.
 */
export function checkCookieGetFromOwnSite(ctx: Ctx, req: FastifyRequest): void {
  if (!sessionCookieOf(req)) return;
  const origin = originOf(req);
  if (origin !== undefined) {
    if (!isAllowedOrigin(ctx, origin)) throw originRefused(origin);
    return;
  }
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') throw forbidden('Cross-site request refused (no Origin)');
}

export function createGate(ctx: Ctx): Gate {
  async function lookUp(credential: Credential): Promise<Actor | null> {
    const found = await ctx.sessions.resolve(credential.secret, credential.via);
    return found ? actorOf(found, credential.via) : null;
  }
  async function authenticate(req: FastifyRequest): Promise<Actor | null> {
    if (!mayCarryTokenHeader(req)) {
      const cookie = sessionCookieOf(req);
      return cookie ? lookUp({ secret: cookie, via: 'cookie' }) : null;
    }
    // Which header carries a token is a setting. Reading it first would cost every request a
    // settings version query; instead the session is looked up with the header name last read, and
    // that lookup reads the settings versions too (server/auth/sessions.ts), so the name is then
    // confirmed at no cost. Only when it changed is the credential taken and looked up again.
    const last = ctx.settings.lastRead('config');
    const guess = last && credentialIn(req, headerNameIn(last.value));
    const guessed = guess ? await lookUp(guess) : null;
    const credential = await credentialOf(ctx, req);
    if (!credential) return null;
    if (guess && credential.secret === guess.secret && credential.via === guess.via) return guessed;
    return lookUp(credential);
  }
  return {
    authenticate,
    checkCsrf(req) {
      if (SAFE_METHODS.has(req.method)) return;
      const origin = originOf(req);
      // Browsers send Origin on every cross-origin and same-origin state-changing fetch. A request
      // without Origin/Referer is not a browser's, unless it rides on our cookie: refuse that.
      if (origin === undefined) {
        if (sessionCookieOf(req)) throw forbidden('Cross-site request refused (no Origin)');
        return;
      }
      if (!isAllowedOrigin(ctx, origin)) throw originRefused(origin);
    },
    fieldRules: () => fieldRulesOf(ctx),
  };
}
