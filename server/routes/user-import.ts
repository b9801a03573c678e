// Users as CSV (code 2, the user list): the import of a file (a check first, then the import;
// each a job whose progress is polled) and the export of the list as it is filtered.
import { Readable } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import { linkRoute, route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/user-import';
import { IMPORT_MAX_BYTES } from '../../src/core/schemas/user-import';
import { Permission } from '../../src/core/permission-codes';
import { fieldError } from '../http/errors';
import { answerLanguage } from '../http/language';
import { readImportFile } from '../services/user-import-file';
import { spoolUpload, type SpooledUpload } from '../services/user-import-upload';
import { importJobOf, startImport } from '../services/user-import';
import { userExportLines } from '../services/user-export';
import { acceptUploads } from '../http/uploads';

const tags = ['Users'];
const MiB = 1024 * 1024;

export const userImportRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  await acceptUploads(app);
  route(app, gate, calls.postUserImport, {
    tags,
    access: Permission.Users,
    rateLimit: ctx.config.rateLimits.upload,
    summary: `Check (mode=check, writes nothing) or import (mode=apply) a CSV of users (multipart field \`file\`: UTF-8, a header row, any number of rows, at most ${IMPORT_MAX_BYTES / MiB} MiB: an export of 100 000+ people imports back in one file; read streamed, applied 500 rows at a time). Answers the job at once; GET /user/import/{id} tells its progress and each refused row's problems. People are matched by username: existing ones of my scope are updated, others created`,
    handler: async ({ actor, query, raw }) => {
      const part = raw.isMultipart() ? await raw.file({ limits: { fileSize: IMPORT_MAX_BYTES } }) : undefined;
      if (!part || part.fieldname !== 'file') throw fieldError([{ field: 'file', rule: 'rule.required' }]);
      const tooLarge = () => fieldError([{ field: 'file', rule: `rule.csvSize?max=${IMPORT_MAX_BYTES / MiB}` }]);
      let upload: SpooledUpload;
      try {
        upload = await spoolUpload(part.file);
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw error;
      }
      try {
        // The stream may end without an error when its last chunk went over the limit: the part says so.
        if (part.file.truncated) throw tooLarge();
        const file = await readImportFile(upload.read);
        return await startImport(ctx, actor, file, query.mode, raw.ip, answerLanguage(raw.headers['accept-language']), upload.remove);
      } catch (error) {
        await upload.remove();
        throw error;
      }
    },
  });

  route(app, gate, calls.getUserImportById, {
    tags,
    access: Permission.Users,
    summary: 'One of my user import jobs: its progress, counts and refused rows',
    handler: ({ actor, params }) => importJobOf(ctx, actor, params.id),
  });

  linkRoute(app, gate, calls.getUserExport, {
    tags,
    access: Permission.Users,
    summary:
      "The users of my scope that the list's search and tenant filter select, in its order, as CSV (UTF-8; the import's columns first); cells that a spreadsheet would run as a formula are prefixed with '",
    handler: async ({ actor, query }, reply) => {
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="users.csv"')
        .header('cache-control', 'no-store')
        .send(Readable.from(userExportLines(ctx, actor, query)));
    },
  });
};
