// A browser sign-out's chain (front-channel.ts) belongs to the browser that signed out. Its id is the
// SHA-256 digest of a random secret that only that browser holds, in an HttpOnly, SameSite=Lax cookie
// sent to the chain's step URL alone. The id goes to every app as RelayState (and may end up in its
// logs or a Referer); the secret stays between the browser and this server. A step is served only to
// a request that carries the secret (compared in constant time), so an app, or anyone who read its
// RelayState, cannot walk the chain to the other apps' LogoutRequests (their NameID and SessionIndex).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { digest, newSecret, sameDigest } from '../auth/secrets';
import { SAML_PATH } from './endpoints';
import { FRONT_CHANNEL_TTL_MS } from './sessions';
import { reachedOverHttps } from '../http/public-origin';

const CHAIN_COOKIE = 'iam_saml_logout';
const CHAIN_ID = /^[0-9a-f]{64}$/;

export const isChainId = (value: string): boolean => CHAIN_ID.test(value);

/** The chain's step URL path (GET: the next app, for the browser that owns the chain). */
export const chainPath = (chainId: string): string => `${SAML_PATH}/logout/${chainId}`;

const cookieOptions = (req: FastifyRequest, chainId: string) => ({
  path: chainPath(chainId),
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: reachedOverHttps(req),
});

/** A new chain: its id (what its steps are kept under) and the secret its browser gets. */
export function newChain(): { id: string; secret: string } {
  const secret = newSecret();
  return { id: digest(secret), secret };
}

/** Gives the browser that signs out the chain's secret, for as long as the chain lives. */
export function bindChainToBrowser(req: FastifyRequest, reply: FastifyReply, chain: { id: string; secret: string }): void {
  reply.setCookie(CHAIN_COOKIE, chain.secret, { ...cookieOptions(req, chain.id), maxAge: Math.floor(FRONT_CHANNEL_TTL_MS / 1000) });
}

/** Whether the request comes from the browser that owns the chain. */
export function browserOwnsChain(req: FastifyRequest, chainId: string): boolean {
  const secret = req.cookies[CHAIN_COOKIE];
  return Boolean(secret) && isChainId(chainId) && sameDigest(digest(secret!), chainId);
}

/** The chain is over: the browser forgets its secret. */
export function releaseChain(req: FastifyRequest, reply: FastifyReply, chainId: string): void {
  if (isChainId(chainId)) reply.clearCookie(CHAIN_COOKIE, cookieOptions(req, chainId));
}
