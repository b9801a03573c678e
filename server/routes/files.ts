// /api/file/upload (multipart, field `file`; query `purpose` picks the rules) and
// /api/file/get/{url}, served so that no upload can run script (own CSP, nosniff, sandbox).
import * as v from 'valibot';
import type { FastifyInstance } from 'fastify';
import type {} from '@fastify/multipart';
import type { Ctx } from '../context';
import { defineRoute, type Gate } from '../http/route';
import { UPLOAD_RULES, type UploadPurpose } from '../../src/core/upload';
import { FILE_ID } from '../../src/core/file-id';
import { fieldError, notFound } from '../http/errors';
import { storeUpload } from '../files/store';
import { Permission } from '../../src/core/permission-codes';
import { uploadAnswer } from '../../src/core/schemas/files';

const tags = ['Files'];

const uploadQuery = v.object({
  purpose: v.optional(v.picklist(Object.keys(UPLOAD_RULES) as UploadPurpose[], 'rule.purpose'), 'image'),
});

export function fileRoutes(app: FastifyInstance, gate: Gate, ctx: Ctx): void {
  defineRoute(app, gate, {
    method: 'POST', url: '/file/upload', tags, access: Permission.SelfService,
    summary: 'Upload an image (multipart field `file`); answers data.url, shown from /api/file/get/{url}',
    query: uploadQuery, multipart: true, response: uploadAnswer, rateLimit: ctx.config.rateLimits.upload,
    handler: async ({ actor, query, raw }) => {
      if (!raw.isMultipart()) throw fieldError([{ field: 'file', rule: 'rule.required' }]);
      const part = await raw.file();
      if (!part || part.fieldname !== 'file') throw fieldError([{ field: 'file', rule: 'rule.required' }]);
      const bytes = new Uint8Array(await part.toBuffer());
      const url = await storeUpload(ctx, bytes, query.purpose, actor.id);
      await ctx.audit.record({ action: 'file.upload', actor, target: { type: 'file', id: url }, tenantId: actor.user.tenantId, ip: raw.ip, detail: { purpose: query.purpose, size: bytes.length } });
      return { url };
    },
  });

  defineRoute(app, gate, {
    method: 'GET', url: '/file/get/:name', tags, access: 'public', summary: 'An uploaded file, by its content address',
    params: v.object({ name: v.pipe(v.string(), v.regex(FILE_ID, 'rule.fileName')) }), raw: { contentType: 'image/*' },
    handler: async ({ params }, reply) => {
      const file = await ctx.db.selectFrom('files').select(['mime', 'data']).where('id', '=', params.name).executeTakeFirst();
      if (!file) throw notFound('File');
      reply.header('content-type', file.mime)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('content-disposition', `inline; filename="${params.name}"`)
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(Buffer.from(file.data));
    },
  });
}
