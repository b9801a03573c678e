// /api/file/upload (multipart, field `file`; query `purpose` picks the rules) and
// /api/file/get/{url}, served so that no upload can run script (own CSP, nosniff, sandbox). The
// files are checked, stored and read by server/services/files.ts.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { linkRoute, route, type RouteOptions } from '../http/route';
import * as calls from '../../src/core/contract/files';
import { fieldError } from '../http/errors';
import { Permission } from '../../src/core/permission-codes';
import { storedFile, uploadFile } from '../services/files';
import { acceptUploads } from '../http/uploads';

const tags = ['Files'];

/** A stored file is served so that it cannot run script or be sniffed as another type, from any
 *  origin (an icon on a host page), and cached for good: its name is its content's hash. */
const SERVED_FILE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  'cross-origin-resource-policy': 'cross-origin',
  'cache-control': 'public, max-age=31536000, immutable',
};

/** The bytes of the multipart field `file` (400 when the request has none). */
async function uploadedBytes(request: FastifyRequest): Promise<Uint8Array> {
  const part = request.isMultipart() ? await request.file() : undefined;
  if (!part || part.fieldname !== 'file') throw fieldError([{ field: 'file', rule: 'rule.required' }]);
  return new Uint8Array(await part.toBuffer());
}

export const fileRoutes: FastifyPluginAsync<RouteOptions> = async (app, { gate, ctx }) => {
  await acceptUploads(app);
  route(app, gate, calls.postFileUpload, {
    tags,
    access: Permission.SelfService,
    summary: 'Upload an image (multipart field `file`); answers data.url, shown from /api/file/get/{url}',
    rateLimit: ctx.config.rateLimits.upload,
    handler: async ({ actor, query, raw }) => ({ url: await uploadFile(ctx, actor, await uploadedBytes(raw), query.purpose, raw.ip) }),
  });

  linkRoute(app, gate, calls.getStoredFile, {
    tags,
    access: 'public',
    summary: 'An uploaded file, by its content address',
    handler: async ({ params }, reply) => {
      const file = await storedFile(ctx, params.name);
      reply
        .headers({ ...SERVED_FILE_HEADERS, 'content-type': file.mime, 'content-disposition': `inline; filename="${params.name}"` })
        .send(Buffer.from(file.data));
    },
  });
};
