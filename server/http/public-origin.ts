// Where browsers and apps reach this server: the base of the OIDC issuer and of the links the
// server mails, and the origin the CSRF check accepts as our own. It comes from configuration
// (IAM_PUBLIC_URL, or the origin of IAM_OIDC_ISSUER), never from a request's Host or
// X-Forwarded-Host: one forged request must not decide it for everyone after it. Without
// configuration (development, tests; production refuses to start) the listening socket stands in,
// by the host name it was asked to listen on when it was given one (`npm start`: localhost).
import { isIP, type AddressInfo } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';
import { OIDC_PATH } from '../oidc/provider';

const WILDCARDS = new Set(['0.0.0.0', '::']);
const isLoopback = (address: string) => address === '::1' || address.startsWith('127.') || address === '::ffff:127.0.0.1';

export class PublicOrigin {
  private fallback: { origin: string; own: Set<string> } | undefined;

  constructor(
    private readonly config: Pick<ServerConfig, 'publicUrl' | 'oidcIssuer' | 'listenHost'>,
    private readonly address: () => AddressInfo | string | null,
    private readonly warn: (message: string) => void,
  ) {}

  /** e.g. https://iam.example.com (no trailing slash). */
  origin(): string {
    return this.config.publicUrl ?? this.listening().origin;
  }

  issuer(): string {
    return this.config.oidcIssuer ?? `${this.origin()}${OIDC_PATH}`;
  }

  /** Whether a browser's Origin header names this server. */
  isOwn(origin: string): boolean {
    return this.config.publicUrl !== undefined ? origin === this.config.publicUrl : this.listening().own.has(origin);
  }

  /** The socket's own address, told once: by the name it listens on when it has one (browsers are
   *  told http://localhost:8080, and passkeys refuse the IP address it resolves to as an RP ID). On
   *  a loopback or wildcard socket a browser may name it localhost, 127.0.0.1 or [::1]: each is our
   *  own origin. */
  private listening() {
    if (this.fallback) return this.fallback;
    const address = this.address();
    if (!address || typeof address === 'string') throw new Error('IAM_PUBLIC_URL is not set and the server is not listening on a TCP port');
    const { port } = address;
    const wildcard = WILDCARDS.has(address.address);
    const { listenHost } = this.config;
    const named = listenHost !== undefined && isIP(listenHost) === 0 && !WILDCARDS.has(listenHost) ? listenHost.toLowerCase() : undefined;
    const host = named ?? (wildcard ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address);
    const origin = `http://${host}:${port}`;
    const local = wildcard || isLoopback(address.address);
    const own = new Set([origin, ...(local ? [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`] : [])]);
    this.fallback = { origin, own };
    this.warn(
      `IAM_PUBLIC_URL is not set: using the listening address ${origin} as the public origin (OIDC issuer ${this.issuer()}); set IAM_PUBLIC_URL when browsers reach the server by another name`,
    );
    return this.fallback;
  }
}

/**
 * Whether the browser reached us over https, so that the cookies of the answer are `Secure`: the
 * public origin is https (TLS ends at a proxy, which may not say so: Apache's ProxyPass sends no
 * X-Forwarded-Proto, a `Forwarded: proto=https` is not read), or a trusted proxy's
 * X-Forwarded-Proto says https.
 */
export function reachedOverHttps(request: FastifyRequest): boolean {
  // The configured origin only: the listening socket that stands in without one is http.
  return request.protocol === 'https' || (request.server.ctx.config.publicUrl?.startsWith('https:') ?? false);
}
