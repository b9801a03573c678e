// Server configuration: environment variables merged with the
// options a caller of buildApp() passes (tests pass a temp data dir or a database URL).
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validAllowEntry } from './http/outbound-address';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

interface Clock {
  now(): number;
}

export interface ServerOptions {
  /** SQLite file lives here (default ./data); ignored when databaseUrl is set. */
  dataDir?: string;
  /** PostgreSQL connection string; when set, PostgreSQL is used instead of SQLite. */
  databaseUrl?: string;
  adminUsername?: string;
  /** The first administrator's plain password; generated (and reported once) when absent. */
  adminPassword?: string;
  /** Origins allowed for CORS, token mode and state-changing cookie calls (besides our own). */
  corsOrigins?: string[];
  logger?: boolean;
  /** Where the JSON log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** The proxies (IPs, CIDRs, or `loopback` / `linklocal` / `uniquelocal`) whose X-Forwarded-* headers
   *  are believed; requests from any other peer have theirs ignored. Empty: trust no one. */
  trustProxy?: string[];
  /** The server's public origin (https://iam.example.com): the base of the OIDC issuer, of links
   *  the server sends, and the origin the CSRF check accepts as ours. */
  publicUrl?: string;
  /** The OIDC issuer when it is not <publicUrl>/api/oidc. */
  oidcIssuer?: string;
  /** The host the server listens on as it was named (server/main.ts: HOST, default localhost).
   *  Without publicUrl, a name stands in the public origin as it was given (http://localhost:8080,
   *  README's address), not the address it resolved to (127.0.0.1). */
  listenHost?: string;
  rateLimits?: Partial<Record<'login' | 'captcha' | 'upload' | 'scim', RateLimit>>;
  /** Where the built bundle, console page and demo pages are served from. */
  staticRoots?: { dist?: string; demo?: string; publicDir?: string };
  clock?: Clock;
  /** Told once, at first start, the generated password of the first administrator. */
  onAdminPasswordGenerated?: (username: string, password: string) => void;
  /** The vendor's Ed25519 public key (PEM) that licenses must be signed with (env IAM_LICENSE_PUBLIC_KEY:
   *  the PEM or a file path; default <dataDir>/license-public.pem). */
  licensePublicKey?: string;
  /** Holds every answer against its route's response schema (http/answer-check.ts): tests only. */
  checkAnswers?: boolean;
  /** Who may read GET /metrics (see docs/security.md): a bearer token (env IAM_METRICS_TOKEN) and/or
   *  client addresses (env IAM_METRICS_ALLOW: IPs, CIDRs, loopback/linklocal/uniquelocal). */
  metrics?: { token?: string; allow?: string[] };
  /** Requests to addresses administrators typed in (back-channel logout, webhooks, message channels,
   *  third-party sign-in) may go to every loopback and private address (env
   *  IAM_OUTBOUND_ALLOW_PRIVATE=1, deprecated: use outboundAllow; http/outbound-address.ts). */
  outboundAllowPrivate?: boolean;
  /** The private targets those requests may reach (env IAM_OUTBOUND_ALLOW, comma-separated host
   *  names, addresses and CIDR ranges); link-local and metadata addresses never. */
  outboundAllow?: string[];
  /** Passkeys' relying party (env IAM_WEBAUTHN_RP_ID, IAM_WEBAUTHN_ORIGINS): the RP ID (a domain
   *  name) and the page origins whose passkey ceremonies are accepted. Default: the host and origin
   *  of the public URL (server/auth/passkeys/relying-party.ts). */
  webauthn?: { rpId?: string; origins?: string[] };
  /** How long a SIGTERM'd process keeps serving, answering /health/ready 503, before it stops
   *  listening (env IAM_SHUTDOWN_GRACE_MS, default 10 000; server/main.ts). */
  shutdownGraceMs?: number;
}

export interface ServerConfig {
  dataDir: string;
  databaseUrl: string | undefined;
  /** libpq's PG* variables set without DATABASE_URL: they choose nothing, the server runs on SQLite
   *  (server/app.ts says so in the log). */
  unusedPgVariables: string[];
  adminUsername: string;
  adminPassword: string | undefined;
  corsOrigins: string[];
  logger: boolean;
  logStream: NodeJS.WritableStream | undefined;
  trustProxy: string[];
  /** Origin only (no path); undefined: derived from the listening socket (never in production). */
  publicUrl: string | undefined;
  oidcIssuer: string | undefined;
  listenHost: string | undefined;
  /** scim: per SCIM token, over every /scim/v2 call (server/scim/plugin.ts). */
  rateLimits: Record<'login' | 'captcha' | 'upload' | 'scim', RateLimit>;
  staticRoots: { dist: string; demo: string; publicDir: string };
  clock: Clock;
  onAdminPasswordGenerated: (username: string, password: string) => void;
  licensePublicKey: string | undefined;
  checkAnswers: boolean;
  metrics: { token: string | undefined; allow: string[] };
  outboundAllowPrivate: boolean;
  outboundAllow: string[];
  /** Unset parts follow the public origin (known once listening when IAM_PUBLIC_URL is unset). */
  webauthn: { rpId: string | undefined; origins: string[] | undefined };
  shutdownGraceMs: number;
}

const minute = 60_000;

/** The libpq variables node-postgres reads where DATABASE_URL leaves a part out. */
const PG_VARIABLES = /^PG(HOST|HOSTADDR|PORT|DATABASE|USER|PASSWORD|SERVICE|SSLMODE)$/;

function listFromEnv(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Default IAM_SHUTDOWN_GRACE_MS: long enough for a readiness probe every few seconds (Kubernetes,
 *  HAProxy) to see the 503 and for nginx to finish with the process; short enough for a deploy. */
const SHUTDOWN_GRACE_MS = 10_000;

/** IAM_SHUTDOWN_GRACE_MS: whole milliseconds, 0 to 10 minutes. */
function shutdownGrace(options: ServerOptions, env: NodeJS.ProcessEnv): number {
  if (options.shutdownGraceMs !== undefined) return options.shutdownGraceMs;
  const value = env.IAM_SHUTDOWN_GRACE_MS?.trim();
  if (!value) return SHUTDOWN_GRACE_MS;
  if (!/^\d+$/.test(value) || Number(value) > 10 * minute) {
    throw new Error(`IAM_SHUTDOWN_GRACE_MS=${value}: not a number of milliseconds from 0 to 600000 (default ${SHUTDOWN_GRACE_MS})`);
  }
  return Number(value);
}

/** The vendor's public key: PEM text, a path to a PEM file, or <dataDir>/license-public.pem. */
function licenseKey(value: string | undefined, dataDir: string): string | undefined {
  if (value?.includes('BEGIN PUBLIC KEY')) return value;
  const path = value || join(dataDir, 'license-public.pem');
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP, a CIDR or one of proxy-addr's names; anything else stops the start. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * IAM_TRUST_PROXY lists the proxies whose X-Forwarded-* are believed. The old boolean `1` (trust
 * every peer) is refused rather than mapped to `loopback`: an operator whose proxy runs on another
 * machine would silently see every client as the proxy (one rate-limit bucket for the whole world),
 * and one whose server is reachable directly would keep trusting forged headers. Only the operator
 * knows the proxy's address.
 */
function trustedProxies(entries: string[], source = 'IAM_TRUST_PROXY'): string[] {
  if (entries.length === 1 && /^(1|true|yes|on)$/i.test(entries[0]!)) {
    throw new Error(
      `${source}=${entries[0]} would trust X-Forwarded-* headers from any client. Name the proxy instead: ` +
        `${source}=127.0.0.1 (a proxy on this machine; or loopback), or its address or network (10.0.0.5, 10.0.0.0/24), comma-separated.`,
    );
  }
  const wrong = entries.filter((entry) => !isProxyAddress(entry));
  if (wrong.length) throw new Error(`${source}: not an IP address, CIDR or loopback/linklocal/uniquelocal: ${wrong.join(', ')}`);
  return entries;
}

/** The shortest bearer token /metrics accepts: a guessable one would open it to anyone. */
const METRICS_TOKEN_MIN_LENGTH = 16;

/** Who may read /metrics. Unset: this machine only (loopback) outside production, nobody in production. */
/** IAM_OUTBOUND_ALLOW: trimmed entries; one that is neither a host name, an address nor a CIDR range stops the start. */
function outboundAllowList(entries: string[]): string[] {
  const list = entries.map((entry) => entry.trim()).filter(Boolean);
  const wrong = list.filter((entry) => !validAllowEntry(entry));
  if (wrong.length) throw new Error(`IAM_OUTBOUND_ALLOW: not a host name, IP address or CIDR range: ${wrong.join(', ')}`);
  return list;
}

function metricsAccess(options: ServerOptions, env: NodeJS.ProcessEnv): ServerConfig['metrics'] {
  const token = options.metrics?.token ?? (env.IAM_METRICS_TOKEN || undefined);
  if (token !== undefined && token.length < METRICS_TOKEN_MIN_LENGTH)
    throw new Error(`IAM_METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters long`);
  const allow =
    options.metrics?.allow ?? (env.IAM_METRICS_ALLOW !== undefined ? listFromEnv(env.IAM_METRICS_ALLOW) : env.NODE_ENV === 'production' ? [] : ['loopback']);
  const wrong = allow.filter((entry) => !isProxyAddress(entry));
  if (wrong.length) throw new Error(`IAM_METRICS_ALLOW: not an IP address, CIDR or loopback/linklocal/uniquelocal: ${wrong.join(', ')}`);
  return { token, allow };
}

/** An http(s) URL reduced to its origin; a path, query or other scheme stops the start. */
/**
 * The server is not served under a sub-path (https://intranet.example/iam/): the console page, the
 * bundle, the API, the session cookie and the redirects all live at the root of its origin. An
 * IAM_PUBLIC_URL with a path is where an operator meets that first, so it says so.
 */
function underSubPath(url: URL): string {
  return (
    `IAM_PUBLIC_URL=${url.href} has a path (${url.pathname}): serving the server under a sub-path is not supported. ` +
    `Give it an origin of its own (e.g. https://iam.${url.hostname}) whose / the proxy sends to the server's /, and set IAM_PUBLIC_URL to that origin (docs/deployment.md, "nginx in front")`
  );
}

function originOf(value: string, name: string, allowPath = false): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${name} is not a URL: ${value}`);
  }
  if (name === 'IAM_PUBLIC_URL' && /^https?:$/.test(url.protocol) && url.pathname !== '/') throw new Error(underSubPath(url));
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash || (!allowPath && url.pathname !== '/')) {
    throw new Error(`${name} must be an http(s) ${allowPath ? 'URL' : 'origin such as https://iam.example.com (no path)'}: ${value}`);
  }
  return url.origin;
}

/**
 * Our public origin and issuer come from configuration only, never from a request. Production
 * needs one of them; elsewhere the listening socket stands in (see http/public-origin.ts).
 */
function publicAddresses(options: ServerOptions, env: NodeJS.ProcessEnv) {
  const publicUrl = options.publicUrl ?? (env.IAM_PUBLIC_URL || undefined);
  const issuer = options.oidcIssuer ?? (env.IAM_OIDC_ISSUER || undefined);
  if (issuer !== undefined) originOf(issuer, 'IAM_OIDC_ISSUER', true);
  if (publicUrl === undefined && issuer === undefined && env.NODE_ENV === 'production') {
    throw new Error(
      "IAM_PUBLIC_URL is not set: give the server's public origin (e.g. IAM_PUBLIC_URL=https://iam.example.com). " +
        'In production it is never guessed from requests (the OIDC issuer, links in mails and the CSRF check depend on it).',
    );
  }
  return {
    publicUrl: publicUrl !== undefined ? originOf(publicUrl, 'IAM_PUBLIC_URL') : issuer && new URL(issuer).origin,
    oidcIssuer: issuer?.replace(/\/$/, ''),
  };
}

/** A host name: labels of letters, digits and hyphens (no scheme, port or IP literal check here;
 *  browsers refuse IP addresses as an RP ID). */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** Whether a page of `origin` may use passkeys of `rpId`: its host is the RP ID or below it
 *  (what browsers accept without a /.well-known/webauthn list of related origins). */
function originFitsRpId(origin: string, rpId: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === rpId || hostname.endsWith(`.${rpId}`);
}

/**
 * The passkeys' relying party as configured. An RP ID that is not a host name, or an origin whose
 * host is not the RP ID or below it, stops the start: a browser would refuse every ceremony there,
 * and an operator learns it now rather than from people who cannot sign in.
 */
function webauthnConfig(options: ServerOptions, env: NodeJS.ProcessEnv, publicUrl: string | undefined): ServerConfig['webauthn'] {
  const rpId = (options.webauthn?.rpId ?? (env.IAM_WEBAUTHN_RP_ID || undefined))?.toLowerCase();
  if (rpId !== undefined && !HOST_NAME.test(rpId))
    throw new Error(`IAM_WEBAUTHN_RP_ID must be a domain name such as example.com (no scheme, port or path): ${rpId}`);
  const listed = options.webauthn?.origins ?? (env.IAM_WEBAUTHN_ORIGINS !== undefined ? listFromEnv(env.IAM_WEBAUTHN_ORIGINS) : undefined);
  const origins = listed?.map((origin) => originOf(origin, 'IAM_WEBAUTHN_ORIGINS'));
  const effectiveRpId = rpId ?? (publicUrl !== undefined ? new URL(publicUrl).hostname : undefined);
  const wrong =
    effectiveRpId === undefined ? [] : (origins ?? (publicUrl !== undefined ? [publicUrl] : [])).filter((origin) => !originFitsRpId(origin, effectiveRpId));
  if (wrong.length) {
    throw new Error(
      `IAM_WEBAUTHN_ORIGINS: passkeys of the RP ID ${effectiveRpId} work only on pages of ${effectiveRpId} or its subdomains, not on ${wrong.join(', ')}. ` +
        'Set IAM_WEBAUTHN_RP_ID to a domain every listed origin shares, or leave those origins out.',
    );
  }
  return { rpId, origins };
}

/**
 * A folder found from the server's own files, never from the working directory: this module is
 * server/config.ts in the repository and part of dist-server/main.js once built, and both have the
 * console page's files in ./public/ and the browser bundle in ../dist/ (in the repository and in
 * the installed iam-console-server package alike), so a server started from any folder serves its
 * own files.
 */
const besideServer = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Options win over the environment; the environment wins over the defaults. */
export function resolveConfig(options: ServerOptions = {}, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = resolve(options.dataDir ?? env.IAM_DATA_DIR ?? './data');
  const addresses = publicAddresses(options, env);
  const databaseUrl = options.databaseUrl ?? (options.dataDir ? undefined : env.DATABASE_URL || undefined);
  return {
    dataDir,
    databaseUrl,
    unusedPgVariables: databaseUrl ? [] : Object.keys(env).filter((name) => PG_VARIABLES.test(name) && env[name]),
    adminUsername: options.adminUsername ?? env.IAM_ADMIN_USERNAME ?? 'admin',
    adminPassword: options.adminPassword ?? (env.IAM_ADMIN_PASSWORD || undefined),
    corsOrigins: options.corsOrigins ?? listFromEnv(env.IAM_CORS_ORIGINS),
    logger: options.logger ?? false,
    logStream: options.logStream,
    trustProxy: trustedProxies(options.trustProxy ?? listFromEnv(env.IAM_TRUST_PROXY)),
    ...addresses,
    listenHost: options.listenHost,
    rateLimits: {
      login: { max: 30, timeWindow: minute, ...options.rateLimits?.login },
      captcha: { max: 60, timeWindow: minute, ...options.rateLimits?.captcha },
      upload: { max: 30, timeWindow: minute, ...options.rateLimits?.upload },
      scim: { max: 600, timeWindow: minute, ...options.rateLimits?.scim },
    },
    staticRoots: {
      dist: resolve(options.staticRoots?.dist ?? besideServer('../dist/')),
      demo: resolve(options.staticRoots?.demo ?? besideServer('../demo/')),
      publicDir: resolve(options.staticRoots?.publicDir ?? besideServer('./public/')),
    },
    clock: options.clock ?? { now: () => Date.now() },
    onAdminPasswordGenerated:
      options.onAdminPasswordGenerated ??
      ((username, password) => {
        process.stdout.write(`\nFirst administrator created: ${username}\nGenerated password (shown once): ${password}\n\n`);
      }),
    licensePublicKey: options.licensePublicKey ?? licenseKey(env.IAM_LICENSE_PUBLIC_KEY, dataDir),
    checkAnswers: options.checkAnswers ?? false,
    metrics: metricsAccess(options, env),
    outboundAllowPrivate: options.outboundAllowPrivate ?? /^(1|true|yes|on)$/i.test(env.IAM_OUTBOUND_ALLOW_PRIVATE ?? ''),
    outboundAllow: outboundAllowList(options.outboundAllow ?? (env.IAM_OUTBOUND_ALLOW ?? '').split(',')),
    webauthn: webauthnConfig(options, env, addresses.publicUrl),
    shutdownGraceMs: shutdownGrace(options, env),
  };
}
