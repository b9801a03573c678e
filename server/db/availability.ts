// Which database errors mean "the database cannot be reached right now" (a restart or failover, a
// terminated connection, an SQLite file locked by another process for too long, a statement past
// PostgreSQL's statement or lock timeout) rather than a bug or bad input. Requests meeting one
// answer 503 with Retry-After instead of 500.

/** PostgreSQL's admin/crash shutdown and "starting up", and the socket errors of a lost server. */
const LOST_CONNECTION_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : '';
}

/** The connection to PostgreSQL broke (or could not be made): trying again on a new one may work. */
export function connectionLost(error: unknown): boolean {
  const code = codeOf(error);
  // Class 08 is "connection exception".
  return LOST_CONNECTION_CODES.has(code) || code.startsWith('08') || /Connection terminated|not queryable/.test(messageOf(error));
}

/** pg refused the query because its connection had already failed: it never reached the server. */
export function neverSent(error: unknown): boolean {
  return /not queryable/.test(messageOf(error));
}

/** The database refuses new work for now: out of connections, memory or disk (class 53), or not
 *  accepting connections (55000 while an operator blocks them, e.g. during maintenance). */
function refusingWork(error: unknown): boolean {
  const code = codeOf(error);
  return code.startsWith('53') || (code === '55000' && /not currently accepting connections/.test(messageOf(error)));
}

/** PostgreSQL cancelled the statement: it ran past statement_timeout (query_canceled), or waited
 *  past lock_timeout for a table or row another connection holds (lock_not_available). */
const TIMED_OUT_CODES = new Set(['57014', '55P03']);

/** The database is unreachable or too busy to answer now; the caller should try again shortly. */
export function databaseUnavailable(error: unknown): boolean {
  // pg's pool gives up on connecting (or on waiting for a free connection) after connectionTimeoutMillis.
  return (
    connectionLost(error) ||
    refusingWork(error) ||
    TIMED_OUT_CODES.has(codeOf(error)) ||
    codeOf(error).startsWith('SQLITE_BUSY') ||
    /timeout exceeded when trying to connect/.test(messageOf(error))
  );
}

/** Seconds a client is told to wait after a 503 (a database restart or failover takes a few). */
export const RETRY_AFTER_S = 2;
