// Server configuration: environment variables (DESIGN "Reference API server") merged with the
// options a caller of buildApp() passes (tests pass a temp data dir or a database URL).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface RateLimit {
  max: number;
  timeWindow: number;
}

export interface Clock {
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
  /** Trust X-Forwarded-* (behind a TLS-terminating proxy: cookies get Secure). */
  trustProxy?: boolean;
  rateLimits?: Partial<Record<'login' | 'captcha' | 'upload', RateLimit>>;
  /** Where the built bundle, console page and demo pages are served from. */
  staticRoots?: { dist?: string; demo?: string; publicDir?: string };
  clock?: Clock;
  /** Told once, at first start, the generated password of the first administrator. */
  onAdminPasswordGenerated?: (username: string, password: string) => void;
  /** The vendor's Ed25519 public key (PEM) that licenses must be signed with (env IAM_LICENSE_PUBLIC_KEY:
   *  the PEM or a file path; default <dataDir>/license-public.pem). */
  licensePublicKey?: string;
}

export interface ServerConfig {
  dataDir: string;
  databaseUrl: string | undefined;
  adminUsername: string;
  adminPassword: string | undefined;
  corsOrigins: string[];
  logger: boolean;
  trustProxy: boolean;
  rateLimits: Record<'login' | 'captcha' | 'upload', RateLimit>;
  staticRoots: { dist: string; demo: string; publicDir: string };
  clock: Clock;
  onAdminPasswordGenerated: (username: string, password: string) => void;
  licensePublicKey: string | undefined;
}

const minute = 60_000;

function listFromEnv(value: string | undefined): string[] {
  return (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/** The vendor's public key: PEM text, a path to a PEM file, or <dataDir>/license-public.pem. */
function licenseKey(value: string | undefined, dataDir: string): string | undefined {
  if (value?.includes('BEGIN PUBLIC KEY')) return value;
  const path = value || join(dataDir, 'license-public.pem');
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

/** Options win over the environment; the environment wins over the defaults. */
export function resolveConfig(options: ServerOptions = {}, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const root = process.cwd();
  const dataDir = resolve(options.dataDir ?? env.IAM_DATA_DIR ?? './data');
  return {
    dataDir,
    databaseUrl: options.databaseUrl ?? (options.dataDir ? undefined : env.DATABASE_URL || undefined),
    adminUsername: options.adminUsername ?? env.IAM_ADMIN_USERNAME ?? 'admin',
    adminPassword: options.adminPassword ?? (env.IAM_ADMIN_PASSWORD || undefined),
    corsOrigins: options.corsOrigins ?? listFromEnv(env.IAM_CORS_ORIGINS),
    logger: options.logger ?? false,
    trustProxy: options.trustProxy ?? env.IAM_TRUST_PROXY === '1',
    rateLimits: {
      login: { max: 30, timeWindow: minute, ...options.rateLimits?.login },
      captcha: { max: 60, timeWindow: minute, ...options.rateLimits?.captcha },
      upload: { max: 30, timeWindow: minute, ...options.rateLimits?.upload },
    },
    staticRoots: {
      dist: resolve(options.staticRoots?.dist ?? resolve(root, 'dist')),
      demo: resolve(options.staticRoots?.demo ?? resolve(root, 'demo')),
      publicDir: resolve(options.staticRoots?.publicDir ?? resolve(root, 'server/public')),
    },
    clock: options.clock ?? { now: () => Date.now() },
    onAdminPasswordGenerated: options.onAdminPasswordGenerated ?? ((username, password) => {
      process.stdout.write(`\nFirst administrator created: ${username}\nGenerated password (shown once): ${password}\n\n`);
    }),
    licensePublicKey: options.licensePublicKey ?? licenseKey(env.IAM_LICENSE_PUBLIC_KEY, dataDir),
  };
}
