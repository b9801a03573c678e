// Calls of server/routes/user-import.ts (one declaration each: src/core/contract/declare.ts).
import type { CallDeclaration, LinkDeclaration } from './declare';
import { idParams } from '../schemas/common';
import { importJob, importQuery, userExportQuery } from '../schemas/user-import';

/** POST /user/import */
export const postUserImport = {
  method: 'POST',
  path: '/user/import',
  multipart: true,
  query: importQuery,
  response: importJob,
} as const satisfies CallDeclaration;

/** GET /user/import/:id */
export const getUserImportById = { method: 'GET', path: '/user/import/:id', params: idParams, response: importJob } as const satisfies CallDeclaration;

/** GET /user/export (a download) */
export const getUserExport = { method: 'GET', path: '/user/export', query: userExportQuery, answers: 'text/csv' } as const satisfies LinkDeclaration;
