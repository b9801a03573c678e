// Users in and out as CSV (the user list's import and export): the columns, the limits, a row's
// rules (the user form's own, src/core/validation/user.ts), the import job as answered while it
// runs and when it is done, and the export's filters (the list's).
import * as v from 'valibot';
import { Status } from '../enums';
import { userFields } from '../validation/user';
import { keptText } from '../validation/changed-fields';
import { adminUserListQuery } from './admin';

/** The largest file an import takes: room for an export of several hundred thousand people (about
 *  200 bytes a person with every column filled). There is no row limit: the server reads the file
 *  streamed and applies it 500 rows at a time, so memory does not grow with it. */
export const IMPORT_MAX_BYTES = 200 * 1024 * 1024;

/** The columns an import reads, in the template's order; the first two are required. `tenantId`
 *  takes a tenant's id, name or path ("Sales/EMEA"). For a
 *  person who exists (same username), a column present in the file sets the field (an empty
 *  email, mobile phone or description clears it; an empty tenant or status keeps it) and a
 *  column left out of the file keeps it. New people get no usable password: they choose one with
 *  "forgot password", or an administrator sets it. */
export const importColumns = ['username', 'realName', 'email', 'mobilePhone', 'description', 'tenantId', 'availabilityStatus'] as const;
export type ImportColumn = (typeof importColumns)[number];
export const requiredImportColumns: readonly ImportColumn[] = ['username', 'realName'];
/** Columns the export adds for people reading it; an import ignores them. */
export const exportOnlyColumns = ['tenantName', 'locked', 'createdAt'] as const;

/** How a status is written in the file. */
export const statusInFile = { [Status.Enable]: 'enabled', [Status.Disabled]: 'disabled' } as const;

/** One row, with the user form's rules (username and name required, the rest optional). The
 *  username, name and phone are checked by the field rules in force only for a new person or when
 *  they change (`ruledUserFields`, src/core/validation/changed-fields.ts): an unchanged row of
 *  someone stored under other rules imports as unchanged. */
export const importRow = v.object({
  username: keptText,
  realName: keptText,
  email: userFields.email,
  mobilePhone: v.optional(keptText),
  description: userFields.description,
  /** A tenant's id, name or path of names ("Sales/EMEA"), resolved by the import (server/services/user-import-tenants.ts). */
  tenantId: v.optional(v.pipe(v.string(), v.maxLength(1000, 'rule.tenantId'))),
  availabilityStatus: userFields.availabilityStatus,
});
export type ImportRow = v.InferOutput<typeof importRow>;

const importModes = ['check', 'apply'] as const;
export type ImportMode = (typeof importModes)[number];
export const importQuery = v.object({ mode: v.optional(v.picklist(importModes, 'rule.importMode'), 'check') });

export const ImportStatus = { Running: 'running', Done: 'done', Failed: 'failed' } as const;
export type ImportStatus = (typeof ImportStatus)[keyof typeof ImportStatus];

/** A refused row: its number in the file (the header is row 1), the username when readable, the
 *  field and its rule (a `rule.*` key, as in a form's field errors). */
const importProblem = v.object({ row: v.number(), username: v.string(), field: v.string(), rule: v.string() });
export type ImportProblem = v.InferOutput<typeof importProblem>;

/** The problems an answer lists at most (`failed` counts every refused row). */
export const MAX_LISTED_PROBLEMS = 1_000;

const importErrors = ['restarted', 'unexpected'] as const;

export const importJob = v.object({
  id: v.string(),
  mode: v.picklist(importModes),
  status: v.picklist(Object.values(ImportStatus)),
  /** Data rows in the file. */
  total: v.number(),
  processed: v.number(),
  /** A check counts what an import would do. */
  created: v.number(),
  updated: v.number(),
  unchanged: v.number(),
  failed: v.number(),
  problems: v.array(importProblem),
  /** Why the whole job stopped (status failed): its process went away, or an unexpected error. */
  error: v.nullable(v.picklist(importErrors)),
  createdAt: v.number(),
  finishedAt: v.nullable(v.number()),
});
export type ImportJob = v.InferOutput<typeof importJob>;

/** GET /user/export: the list's filters and order, without paging. */
export const userExportQuery = v.object({
  searchProp: adminUserListQuery.entries.searchProp,
  searchValue: adminUserListQuery.entries.searchValue,
  tenantId: adminUserListQuery.entries.tenantId,
  tenantMatch: adminUserListQuery.entries.tenantMatch,
  sort: adminUserListQuery.entries.sort,
  order: adminUserListQuery.entries.order,
});
