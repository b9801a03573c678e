// Why the server could not start, in one line naming the setting to change (server/main.ts prints
// it after "Cannot start: "): an unreachable PostgreSQL, a data directory it may not write, a port
// in use. Secrets in DATABASE_URL (the password) are never repeated.

import { NewerDatabaseError } from './db/migrations';

export interface StartSettings {
  databaseUrl: string | undefined;
  dataDir: string;
  port: number;
  host: string;
}

/** The error and its causes, outermost first. */
function chain(error: unknown): Record<string, unknown>[] {
  const links: Record<string, unknown>[] = [];
  for (let link = error; link && typeof link === 'object' && links.length < 10; link = (link as { cause?: unknown }).cause) {
    links.push(link as Record<string, unknown>);
  }
  return links;
}

const firstLine = (text: unknown) =>
  String(text ?? '')
    .split('\n')[0]!
    .trim();

/** Network errors and PostgreSQL's refusals of a connection (bad password, unknown role or database, starting up, full). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);
const REFUSED_CONNECTION = /^(28|3D|57P0|53300)/;

/** node-postgres asked for TLS and PostgreSQL has none, or the certificate was not trusted. */
const TLS_REFUSAL = /does not support SSL connections/;
const TLS_CERTIFICATE =
  /^(SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT_LOCALLY|CERT_HAS_EXPIRED|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/** Where DATABASE_URL points, without its password. */
function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'DATABASE_URL';
  }
}

export function startFailure(error: unknown, settings: StartSettings): string {
  const links = chain(error);
  // A downgrade says so as it is, on either engine: the database is fine, the version is not.
  const newer = links.find((link) => link instanceof NewerDatabaseError);
  if (newer) return String(newer.message);
  const code = (predicate: (code: string) => boolean) => links.find((link) => typeof link.code === 'string' && predicate(link.code));
  const listening = links.find((link) => link.syscall === 'listen');
  if (listening?.code === 'EADDRINUSE') {
    return `port ${settings.port} on ${settings.host} is already in use: set PORT (or HOST) to a free one, or stop the process that holds it`;
  }
  if (listening) {
    return `cannot listen on ${settings.host}:${settings.port} (${firstLine(listening.message)}): set HOST and PORT to an address of this machine and a port this user may open`;
  }
  if (settings.databaseUrl) {
    // The innermost: the driver's own words, not the migration's wrapping of them.
    const tls = links.findLast((link) => TLS_REFUSAL.test(String(link.message)) || (typeof link.code === 'string' && TLS_CERTIFICATE.test(link.code)));
    if (tls) {
      return `PostgreSQL at ${databaseAddress(settings.databaseUrl)} and this server disagree on TLS (${firstLine(tls.message)}): DATABASE_URL's sslmode=prefer, require and verify-ca mean verify-full here; write sslmode=disable for a PostgreSQL without TLS, or add sslrootcert=<CA file> (docs/deployment.md, "DATABASE_URL")`;
    }
    const refusal =
      code((value) => UNREACHABLE.has(value) || REFUSED_CONNECTION.test(value)) ??
      links.find((link) => /timeout|connect|terminated/i.test(String(link.message)));
    const reason = firstLine((refusal ?? links.at(-1))?.message);
    return `PostgreSQL at ${databaseAddress(settings.databaseUrl)} ${refusal ? 'cannot be reached' : 'failed'} (${reason}): check DATABASE_URL, and that PostgreSQL runs and lets this server connect`;
  }
  const storage = code((value) => value.startsWith('SQLITE_') || ['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'ENOTDIR', 'EEXIST'].includes(value));
  if (storage) {
    return `the data directory ${settings.dataDir} cannot be written (${firstLine(storage.message)}, ${String(storage.code)}): set IAM_DATA_DIR to a directory this user may write, or give it write access there (the database is ${settings.dataDir}/iam.sqlite)`;
  }
  return firstLine(links.map((link) => link.message).find(Boolean) ?? String(error));
}
