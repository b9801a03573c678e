// User CSV imports (the user list's import, server/routes/user-import.ts): a check ("dry run")
// reports every row's problems without writing; an import creates the new people and updates the
// existing ones (same username in any letter case: it is idempotent, a second run changes nothing). Both run as a job
// in chunks after the upload was answered, their progress kept in user_import_jobs (any server
// process answers the polling). Every row gets the rules of the user form (the row schema of
// src/core/schemas/user-import.ts) and of server/services/users.ts: the caller's scope (a person
// outside it is "username taken", a tenant outside it refused), the grant rules, addresses another
// account has, the last platform administrator kept. Updates go through updateUser itself; new
// people are written a chunk at a time. An existing person's phone or email is not changed by an
// import (server/auth/contact-change.ts: such a change takes the caller's password, which an
// import does not ask for): the row is refused, pointing to the user dialog or one's profile.
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { sql, type Selectable } from 'kysely';
import type { Ctx } from '../context';
import type { UserImportJobTable } from '../db/tables';
import type { Actor, UserRow } from '../auth/actor';
import type { AuditEvent } from '../audit';
import { Status } from '../../src/core/enums';
import { validate } from '../../src/core/validation';
import { changesFollowRules } from '../../src/core/validation/changed-fields';
import { ruledUserFields } from '../../src/core/validation/user';
import {
  importColumns,
  importRow,
  ImportStatus,
  MAX_LISTED_PROBLEMS,
  type ImportColumn,
  type ImportJob,
  type ImportMode,
  type ImportProblem,
  type ImportRow,
} from '../../src/core/schemas/user-import';
import { canManageUser, tenantPathOf } from '../auth/scope';
import { assertMayActOn } from '../auth/grants';
import { changedContacts } from '../auth/contact-change';
import { hashPassword } from '../auth/kdf';
import { newId, newSecret } from '../auth/secrets';
import { isUniqueViolation } from '../db/errors';
import { loweredUserColumn } from '../db/search';
import { usernameKey } from '../auth/usernames';
import { ApiError, conflict, notFound } from '../http/errors';
import { localizeMessage, type AnswerLanguage } from '../http/language';
import { placement, rootTenantId, updateUser } from './users';
import { rowInput, type FileRow, type ImportFile } from './user-import-file';
import { ImportTenants } from './user-import-tenants';
import { processGone, thisProcess } from '../process-identity';

type JobRow = Selectable<UserImportJobTable>;

/** Rows per chunk: one progress step, one read of the existing people, one insert. */
const CHUNK = 500;
/** A running job of another host not heard of for this long lost its process: it is answered as
 *  failed. A job of a process of this host that is gone (kill -9, then a restart) is failed at once. */
const STALE_MS = 2 * 60_000;
/** Why a row changing an existing person's phone or email is refused. */
const CONTACT_CHANGE = "An import does not change an existing person's phone or email: change it in their user dialog (it asks for your password)";
const OWN_CONTACT_CHANGE = 'An import does not change your own phone or email: change it in your profile';
/** Finished jobs are kept this long (their answer is what the dialog shows). */
const KEEP_JOBS_MS = 24 * 60 * 60_000;

const toJob = (row: JobRow): ImportJob => ({
  id: row.id,
  mode: row.mode as ImportMode,
  status: row.status as ImportJob['status'],
  total: row.total,
  processed: row.processed,
  created: row.created,
  updated: row.updated,
  unchanged: row.unchanged,
  failed: row.failed,
  problems: JSON.parse(row.problems) as ImportProblem[],
  error: row.error as ImportJob['error'],
  createdAt: Number(row.createdAt),
  finishedAt: row.finishedAt === null ? null : Number(row.finishedAt),
});

/** A running job whose process went away is failed now (so it blocks nobody and says so). */
async function settleStale(ctx: Ctx, row: JobRow): Promise<JobRow> {
  if (row.status !== ImportStatus.Running) return row;
  if (!processGone(row.runner) && Number(row.updatedAt) > ctx.now() - STALE_MS) return row;
  const changes = { status: ImportStatus.Failed, error: 'restarted', finishedAt: ctx.now() };
  await ctx.db.updateTable('userImportJobs').set(changes).where('id', '=', row.id).where('status', '=', ImportStatus.Running).execute();
  return { ...row, ...changes };
}

/** One's own job (another's is not found: a job tells which people exist). */
export async function importJobOf(ctx: Ctx, actor: Actor, id: string): Promise<ImportJob> {
  const row = await ctx.db.selectFrom('userImportJobs').selectAll().where('id', '=', id).where('actorId', '=', actor.id).executeTakeFirst();
  if (!row) throw notFound('Import');
  return toJob(await settleStale(ctx, row));
}

interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

/** What one run knows across chunks. */
class Run {
  readonly counts: Counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  readonly problems: ImportProblem[] = [];
  readonly seen = { username: new Set<string>(), email: new Set<string>(), mobilePhone: new Set<string>() };
  private readonly paths = new Map<string, Promise<string | null>>();
  passwordHash: Promise<string> | undefined;
  defaultTenant: Promise<string | null> | undefined;
  /** The tenants the tenant column names (by id, name or path). */
  readonly tenants: ImportTenants;
  /** The import's own audit event, recorded with the first chunk that writes: its rows' events go beneath it. */
  auditParent: Promise<number> | undefined;

  constructor(
    readonly ctx: Ctx,
    readonly actor: Actor,
    readonly job: string,
    readonly mode: ImportMode,
    readonly columns: readonly ImportColumn[],
    readonly ip: string,
    readonly language: AnswerLanguage,
  ) {
    this.tenants = new ImportTenants(ctx, actor);
  }

  /** Tenant paths, each looked up once per run. */
  pathOf = (tenantId: string | null): Promise<string | null> => {
    if (!tenantId) return Promise.resolve(null);
    let path = this.paths.get(tenantId);
    if (!path) this.paths.set(tenantId, (path = tenantPathOf(this.ctx, tenantId)));
    return path;
  };

  /** Records a refused row (every field's problem; the row counts once). */
  refuse(row: number, username: string, problems: { field: string; rule: string }[]): void {
    this.counts.failed += 1;
    for (const problem of problems) if (this.problems.length < MAX_LISTED_PROBLEMS) this.problems.push({ row, username, ...problem });
  }

  /** A service's refusal as the row's problems: its field errors, or its message in the caller's language. */
  refuseWith(row: number, username: string, error: unknown): void {
    if (!(error instanceof ApiError)) throw error;
    const fields = (error.data as { fields?: { field: string; rule: string }[] } | null)?.fields;
    this.refuse(row, username, fields?.length ? fields : [{ field: '', rule: localizeMessage(error.message, this.language) }]);
  }
}

interface ValidRow {
  row: number;
  input: ImportRow;
}

/** The fields of `input` (only the file's columns) that differ from the stored person. */
function changesOf(run: Run, input: ImportRow, current: UserRow) {
  const changes: Partial<Pick<ImportRow, 'realName' | 'email' | 'mobilePhone' | 'description' | 'tenantId' | 'availabilityStatus'>> = {};
  const has = (column: ImportColumn) => run.columns.includes(column);
  if (input.realName !== current.realName) changes.realName = input.realName;
  for (const field of ['email', 'mobilePhone', 'description'] as const) {
    if (has(field) && (input[field] || null) !== current[field]) changes[field] = input[field] ?? '';
  }
  if (input.tenantId !== undefined && input.tenantId !== current.tenantId) changes.tenantId = input.tenantId;
  if (input.availabilityStatus !== undefined && input.availabilityStatus !== current.availabilityStatus) changes.availabilityStatus = input.availabilityStatus;
  return changes;
}

/** Who holds each of these addresses now (emails compared in lower case, as the unique index does). */
async function holders(ctx: Ctx, rows: ValidRow[]) {
  const emails = [...new Set(rows.map(({ input }) => input.email?.toLowerCase()).filter((value): value is string => !!value))];
  const phones = [...new Set(rows.map(({ input }) => input.mobilePhone).filter((value): value is string => !!value))];
  const email = new Map(
    (emails.length
      ? await ctx.db
          .selectFrom('users')
          .select(['id', sql<string>`lower(email)`.as('key')])
          .where(sql`lower(email)`, 'in', emails)
          .execute()
      : []
    ).map((row) => [row.key, row.id]),
  );
  const mobilePhone = new Map(
    (phones.length ? await ctx.db.selectFrom('users').select(['id', 'mobilePhone']).where('mobilePhone', 'in', phones).execute() : []).map((row) => [
      row.mobilePhone!,
      row.id,
    ]),
  );
  return { email, mobilePhone };
}

/** The addresses of a row that another account (not `ownerId`) holds. */
function takenAddresses(held: Awaited<ReturnType<typeof holders>>, input: ImportRow, ownerId: string | undefined) {
  const taken: { field: string; rule: string }[] = [];
  const emailOwner = input.email ? held.email.get(input.email.toLowerCase()) : undefined;
  if (emailOwner && emailOwner !== ownerId) taken.push({ field: 'email', rule: 'rule.emailTaken' });
  const phoneOwner = input.mobilePhone ? held.mobilePhone.get(input.mobilePhone) : undefined;
  if (phoneOwner && phoneOwner !== ownerId) taken.push({ field: 'mobilePhone', rule: 'rule.mobilePhoneTaken' });
  return taken;
}

/** An existing person: unchanged, or checked (and, importing, updated through updateUser). */
async function updateOne(run: Run, { row, input }: ValidRow, current: UserRow, held: Awaited<ReturnType<typeof holders>>): Promise<void> {
  const { ctx, actor } = run;
  // Someone out of the caller's reach: the same answer as creating that username in the form.
  if (!(await canManageUser(ctx, actor, current))) return run.refuse(row, input.username, [{ field: 'username', rule: 'rule.usernameTaken' }]);
  const changes = changesOf(run, input, current);
  if (!Object.keys(changes).length) {
    run.counts.unchanged += 1;
    return;
  }
  const moved = changedContacts(current, changes);
  if (moved.length) {
    const where = current.id === actor.id ? OWN_CONTACT_CHANGE : CONTACT_CHANGE;
    return run.refuse(
      row,
      input.username,
      moved.map((field) => ({ field, rule: localizeMessage(where, run.language) })),
    );
  }
  const taken = takenAddresses(held, { ...input, ...changes }, current.id);
  if (taken.length) return run.refuse(row, input.username, taken);
  try {
    if (run.mode === 'apply') await updateUser(ctx, actor, current.id, { ...changes, version: current.version }, run.ip);
    else {
      await assertMayActOn(ctx, actor, current);
      await placement(ctx, actor, { tenantId: changes.tenantId }, current, run.pathOf);
    }
    run.counts.updated += 1;
  } catch (error) {
    run.refuseWith(row, input.username, error);
  }
}

/** A new person's row (stored with the others of its chunk), or its problems. */
async function newRow(run: Run, { row, input }: ValidRow, held: Awaited<ReturnType<typeof holders>>, now: number): Promise<UserRow | undefined> {
  const { ctx, actor } = run;
  const taken = takenAddresses(held, input, undefined);
  if (taken.length) return void run.refuse(row, input.username, taken);
  run.defaultTenant ??= actor.tenantAdmin ? Promise.resolve(actor.user.tenantId) : rootTenantId(ctx);
  let place: Awaited<ReturnType<typeof placement>>;
  try {
    place = await placement(ctx, actor, { tenantId: input.tenantId ?? (await run.defaultTenant) ?? undefined }, undefined, run.pathOf);
  } catch (error) {
    return void run.refuseWith(row, input.username, error);
  }
  // No usable password: one hash of a random secret nobody keeps, shared by the run's new people
  // (a KDF run per person would take minutes for a large file). They choose theirs by "forgot
  // password", or an administrator sets one.
  run.passwordHash ??= hashPassword(newSecret());
  return {
    id: newId(),
    username: input.username,
    realName: input.realName,
    email: input.email || null,
    mobilePhone: input.mobilePhone || null,
    description: input.description || null,
    avatar: null,
    availabilityStatus: input.availabilityStatus ?? Status.Enable,
    extraProp: '{}',
    ...place,
    passwordHash: await run.passwordHash,
    passwordChangedAt: now,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
}

/** A row's problems, one per field, in the order of the file's columns. */
function inColumnOrder(problems: { field: string; rule: string }[]) {
  const place = (field: string) => importColumns.indexOf(field as ImportColumn);
  return problems.filter((problem, at) => problems.findIndex(({ field }) => field === problem.field) === at).sort((a, b) => place(a.field) - place(b.field));
}

/** The people these usernames name, in any letter case, by folded name (server/auth/usernames.ts). */
async function existingPeople(ctx: Ctx, usernames: string[]): Promise<Map<string, UserRow[]>> {
  const keys = [...new Set(usernames.filter(Boolean).map(usernameKey))];
  if (!keys.length) return new Map();
  const people = await ctx.db.selectFrom('users').selectAll().where(loweredUserColumn(ctx.engine, 'username'), 'in', keys).execute();
  const byKey = new Map<string, UserRow[]>();
  for (const person of people) byKey.set(usernameKey(person.username), [...(byKey.get(usernameKey(person.username)) ?? []), person]);
  return byKey;
}

/** The person a row's username names in any letter case (of case twins from before
 *  0032_username_case: the one spelt exactly); undefined for a new person, null when ambiguous. */
function personOf(existing: Map<string, UserRow[]>, username: string): UserRow | null | undefined {
  const namesakes = existing.get(usernameKey(username)) ?? [];
  if (!namesakes.length) return undefined;
  return namesakes.find((user) => user.username === username) ?? (namesakes.length === 1 ? namesakes[0] : null);
}

/** Inserts a chunk's new people at once; when a parallel write took a username or an address
 *  meanwhile, one at a time, so that only the rows concerned are refused. */
async function insertNew(run: Run, rows: { row: number; user: UserRow }[]): Promise<UserRow[]> {
  const { ctx } = run;
  try {
    await ctx.db.transaction().execute((trx) =>
      trx
        .insertInto('users')
        .values(rows.map(({ user }) => user))
        .execute(),
    );
    return rows.map(({ user }) => user);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  const stored: UserRow[] = [];
  for (const { row, user } of rows) {
    try {
      // A savepoint each: a refused row leaves the chunk's transaction usable.
      await ctx.db.transaction().execute((trx) => trx.insertInto('users').values(user).execute());
      stored.push(user);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      run.refuse(row, user.username, [{ field: 'username', rule: 'rule.duplicate' }]);
    }
  }
  return stored;
}

/** Checks (and, importing, writes) one chunk of rows. */
async function runChunk(run: Run, chunk: FileRow[]): Promise<void> {
  const { ctx, actor } = run;
  const typed = chunk.map(({ row, values }) => ({ row, username: values.username ?? '', input: rowInput(values) }));
  const existing = await existingPeople(
    ctx,
    typed.map(({ username }) => username),
  );
  const valid: ValidRow[] = [];
  for (const { row, username, input: read } of typed) {
    const result = validate(importRow, read);
    // A new person's username, name and phone follow the field rules in force; an existing
    // person's only where the row changes them (stored values are never re-validated). The
    // username names the person in any letter case and never changes here.
    const stored = personOf(existing, username);
    const ruled = changesFollowRules<Record<string, unknown>>(
      ruledUserFields,
      result.success ? result.output : read,
      stored ? { ...stored, username } : undefined,
    );
    const tenant = typeof read.tenantId === 'string' ? await run.tenants.resolve(read.tenantId) : undefined;
    const tenantRefused = tenant && 'problem' in tenant ? [{ field: 'tenantId', rule: localizeMessage(tenant.problem, run.language) }] : [];
    if (!result.success || !ruled.success || tenantRefused.length) {
      run.refuse(row, username, inColumnOrder([...(result.success ? [] : result.fields), ...(ruled.success ? [] : ruled.fields), ...tenantRefused]));
      continue;
    }
    // The same username (in any letter case), email or phone twice in the file: the later row is refused.
    const input = {
      ...result.output,
      ...(ruled.output as Pick<ImportRow, 'username' | 'realName' | 'mobilePhone'>),
      ...(tenant && 'id' in tenant ? { tenantId: tenant.id } : {}),
    };
    const twice = (['username', 'email', 'mobilePhone'] as const).filter((field) => {
      const value = field === 'email' ? input.email?.toLowerCase() : field === 'username' ? usernameKey(input.username) : input[field];
      if (!value) return false;
      if (run.seen[field].has(value)) return true;
      run.seen[field].add(value);
      return false;
    });
    if (twice.length)
      run.refuse(
        row,
        username,
        twice.map((field) => ({ field, rule: 'rule.duplicate' })),
      );
    else valid.push({ row, input });
  }
  if (!valid.length) return;
  const held = await holders(ctx, valid);
  const now = ctx.now();
  const created: { row: number; user: UserRow }[] = [];
  // Importing, the chunk's updates wait for its one transaction (below); new rows are made (their
  // passwords hashed) before it begins.
  const updates: [ValidRow, UserRow][] = [];
  for (const item of valid) {
    const current = personOf(existing, item.input.username);
    if (current === null) run.refuse(item.row, item.input.username, [{ field: 'username', rule: 'rule.usernameTaken' }]);
    else if (current && run.mode === 'apply') updates.push([item, current]);
    else if (current) await updateOne(run, item, current, held);
    else {
      const user = await newRow(run, item, held, now);
      if (user) created.push({ row: item.row, user });
    }
  }
  if (run.mode === 'check') {
    run.counts.created += created.length;
    return;
  }
  // The chunk's changes, their audit records and webhook deliveries: one transaction, beneath the
  // import's own event.
  run.auditParent ??= ctx.audit.change(() =>
    ctx.audit.record({ action: 'user.import', actor, target: { type: 'import', id: run.job, name: null }, tenantId: actor.user.tenantId, ip: run.ip }),
  );
  await ctx.audit.under(await run.auditParent, () =>
    ctx.audit.change(async () => {
      for (const [item, current] of updates) await updateOne(run, item, current, held);
      const stored = created.length ? await insertNew(run, created) : [];
      run.counts.created += stored.length;
      const events: AuditEvent[] = stored.map((user) => ({
        action: 'user.create',
        actor,
        target: { type: 'user', id: user.id },
        tenantId: user.tenantId,
        ip: run.ip,
        detail: { username: user.username, import: run.job },
      }));
      await ctx.audit.recordAll(events);
    }),
  );
}

async function saveProgress(run: Run, processed: number, finished?: { status: ImportStatus; error?: ImportJob['error'] }): Promise<void> {
  const now = run.ctx.now();
  await run.ctx.db
    .updateTable('userImportJobs')
    .set({
      processed,
      ...run.counts,
      problems: JSON.stringify(run.problems),
      updatedAt: now,
      ...(finished ? { status: finished.status, error: finished.error ?? null, finishedAt: now } : {}),
    })
    .where('id', '=', run.job)
    .execute();
}

async function runJob(run: Run, file: ImportFile, release: () => Promise<void>): Promise<void> {
  let processed = 0;
  const step = async (chunk: FileRow[]) => {
    await runChunk(run, chunk);
    processed += chunk.length;
    await saveProgress(run, processed);
    // Other requests get their turn between chunks (better-sqlite3's queries run on this thread).
    await yieldToRequests();
  };
  try {
    // The file is read again as the job goes: one chunk in memory at a time.
    let chunk: FileRow[] = [];
    for await (const row of file.rows()) {
      chunk.push(row);
      if (chunk.length === CHUNK) {
        await step(chunk);
        chunk = [];
      }
    }
    if (chunk.length) await step(chunk);
    await saveProgress(run, processed, { status: ImportStatus.Done });
  } catch (error) {
    console.error('user import', error);
    await saveProgress(run, processed, { status: ImportStatus.Failed, error: 'unexpected' }).catch(() => undefined);
  } finally {
    await release().catch((error: unknown) => console.error('user import file', error));
  }
}

/** Starts a check or an import of `file` and answers its job at once (running); refuses while
 *  another of the caller's jobs runs. `release` is called once the job no longer reads the file. */
export async function startImport(
  ctx: Ctx,
  actor: Actor,
  file: ImportFile,
  mode: ImportMode,
  ip: string,
  language: AnswerLanguage,
  release: () => Promise<void>,
): Promise<ImportJob> {
  const now = ctx.now();
  await ctx.db
    .deleteFrom('userImportJobs')
    .where('createdAt', '<', now - KEEP_JOBS_MS)
    .execute();
  const running = await ctx.db.selectFrom('userImportJobs').selectAll().where('actorId', '=', actor.id).where('status', '=', ImportStatus.Running).execute();
  for (const row of running) {
    if ((await settleStale(ctx, row)).status === ImportStatus.Running) throw conflict('An import of yours is still running; wait for it to finish');
  }
  const row: JobRow = {
    id: newId(),
    actorId: actor.id,
    mode,
    status: ImportStatus.Running,
    total: file.total,
    processed: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    failed: 0,
    problems: '[]',
    error: null,
    createdAt: now,
    updatedAt: now,
    finishedAt: null,
    runner: thisProcess,
  };
  await ctx.db.insertInto('userImportJobs').values(row).execute();
  void runJob(new Run(ctx, actor, row.id, mode, file.columns, ip, language), file, release);
  return toJob(row);
}
