// A third-party sign-in belongs to the browser that started it. The start gives that browser a
// random secret in an HttpOnly, SameSite=Lax cookie sent only to this provider's
// /api/interaction/idp/{code}/authorize… calls; the flow, then the provider ticket, keep only its
// digest. The callback and every call that reads or redeems the ticket must carry it, so a ticket
// opened anywhere else (an attacker's own sign-in sent to a victim as a link) is refused.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { digest, newSecret, sameDigest } from '../auth/secrets';
import { forbidden } from '../http/errors';
import { reachedOverHttps } from '../http/public-origin';

export const FLOW_COOKIE = 'iam_idp_flow';

const STARTED_ELSEWHERE = 'This sign-in was started in another browser; start again';

const cookieOptions = (req: FastifyRequest, code: string) => ({
  path: `/api/interaction/idp/${encodeURIComponent(code)}/authorize`,
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: reachedOverHttps(req),
});

/** Gives the browser a new binding secret for a sign-in with provider `code`, living `ttlMs`;
 *  answers its digest (what the server keeps). A second start in the same browser replaces it. */
export function bindBrowser(req: FastifyRequest, reply: FastifyReply, code: string, ttlMs: number): string {
  const secret = newSecret();
  reply.setCookie(FLOW_COOKIE, secret, { ...cookieOptions(req, code), maxAge: Math.floor(ttlMs / 1000) });
  return digest(secret);
}

/** 403 unless the request carries the binding secret whose digest is `expected`. */
export function checkBrowser(req: FastifyRequest, expected: string | null): void {
  const secret = req.cookies[FLOW_COOKIE];
  if (!secret || !expected || !sameDigest(digest(secret), expected)) throw forbidden(STARTED_ELSEWHERE);
}

/** The sign-in is over: the browser forgets its binding secret. */
export function releaseBrowser(req: FastifyRequest, reply: FastifyReply, code: string): void {
  reply.clearCookie(FLOW_COOKIE, cookieOptions(req, code));
}
