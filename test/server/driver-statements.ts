// Counting the statements a request runs, where they reach the database driver: better-sqlite3's
// statements and pg's client queries (the server under test runs in the test's process). Importing
// this module wraps those drivers' methods; they record only inside `runStatements`.
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { SQLite } from '../../server/db/sqlite-driver';

/** Every statement (SQL text and parameters) the drivers run while `recording` is on (the server runs in this process), but
 *  the outbox workers' polls (messages, OIDC and SAML back-channel logouts, webhook deliveries (the lanes' look for due
 *  ones, server/webhooks/dispatch.ts) and their clean-up),
 *  the provider's expiry sweep and the directory sync's minutely look for due connections (their
 *  own timers, which on a loaded machine tick inside a measured request). The settings version query counts: a
 *  signed-in request has it answered by its session lookup. */
const BACKGROUND =
  /from "messages" where "status"|from "oidc_logout_deliveries" where "status"|from "saml_logout_deliveries" where|from "webhook_deliveries" where "(status|finished_at)"|from "webhook_deliveries" inner join "webhooks"|delete from "oidc_payloads" where \("model", "id"\) in|from "ldap_connections" where "enabled"/;
const statements: { text: string; parameters: unknown[]; prepared: boolean }[] = [];
let recording = false;

function observe<T extends object>(
  prototype: T,
  methods: (keyof T)[],
  statementOf: (self: unknown, args: unknown[]) => { text: unknown; parameters: unknown; prepared?: boolean },
) {
  for (const name of methods) {
    const original = prototype[name] as (...args: unknown[]) => unknown;
    Object.defineProperty(prototype, name, {
      configurable: true,
      writable: true,
      value(this: unknown, ...args: unknown[]) {
        const statement = recording ? statementOf(this, args) : undefined;
        const text = String(statement?.text ?? '');
        if (statement && !BACKGROUND.test(text))
          statements.push({ text, parameters: Array.isArray(statement.parameters) ? statement.parameters : [], prepared: statement.prepared ?? false });
        return original.apply(this, args);
      },
    });
  }
}

const probe = new SQLite(':memory:');
observe(Object.getPrototypeOf(probe.prepare('select 1')) as BetterSqlite3.Statement, ['all', 'get', 'run', 'iterate'], (self, [parameters]) => ({
  text: (self as BetterSqlite3.Statement).source,
  parameters,
}));
probe.close();
observe(pg.Client.prototype, ['query'], (_self, [query, parameters]) => {
  if (typeof query === 'string') return { text: query, parameters };
  const { text, values, name } = query as { text?: string; values?: unknown; name?: string };
  return { text, parameters: values, prepared: Boolean(name) };
});

/** The statements the drivers ran during `work` (the background ones above left out). */
export async function runStatements(work: () => Promise<unknown>) {
  statements.length = 0;
  recording = true;
  try {
    await work();
  } finally {
    recording = false;
  }
  return [...statements];
}
