// Users as CSV: the import (a check, then the import, each a job polled for its progress), the
// export of the list as filtered, and the template.
import { getUserExport, getUserImportById, postUserImport } from '../contract/user-import';
import { importColumns, type ImportJob, type ImportMode } from '../schemas/user-import';
import { call, fileOf, urlOf } from './call';
import type { UserQuery } from './user-admin';

/** Sends the file; answers its job at once (running). Silent: the dialog shows what went wrong. */
export function startImport(file: Blob, mode: ImportMode): Promise<ImportJob> {
  const form = new FormData();
  form.append('file', file, 'users.csv');
  return call(postUserImport, { query: { mode }, body: form }, { silent: true });
}

/** A job's progress (silent: polled). */
export function importJob(id: string): Promise<ImportJob> {
  return call(getUserImportById, { params: { id } }, { silent: true });
}

/** GET /user/export: the address of the list, as filtered and ordered, as a CSV file. */
export function userExportUrl(query: Omit<UserQuery, 'page' | 'size'>): string {
  return urlOf(getUserExport, { query });
}

/** The same CSV file, fetched with the session (the cookie, or the token header). */
export function exportUsers(query: Omit<UserQuery, 'page' | 'size'>): Promise<Blob> {
  return fileOf(getUserExport, { query });
}

/** The template: the header row and one example (UTF-8 with a byte order mark, for spreadsheets). */
export function importTemplate(): Blob {
  const example = ['jdoe', 'Jane_Doe', 'jane@example.com', '13800000000', 'Finance team', '', 'enabled'];
  return new Blob([`\uFEFF${importColumns.join(',')}\r\n${example.join(',')}\r\n`], { type: 'text/csv;charset=utf-8' });
}
