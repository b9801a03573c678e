// Uploaded files, behind the file calls (server/routes/files.ts): storing an upload (checked by
// server/files/store.ts) with its audit record, and reading a stored file by its content address.
import type { Ctx } from '../context';
import type { Actor } from '../auth/actor';
import type { UploadPurpose } from '../../src/core/upload';
import { notFound } from '../http/errors';
import { storeUpload } from '../files/store';

/** Stores the bytes for the purpose; answers their content address. */
export async function uploadFile(ctx: Ctx, actor: Actor, bytes: Uint8Array, purpose: UploadPurpose, ip: string): Promise<string> {
  const url = await ctx.audit.change(async () => {
    const url = await storeUpload(ctx, bytes, purpose, actor.id);
    await ctx.audit.record({
      action: 'file.upload',
      actor,
      target: { type: 'file', id: url },
      tenantId: actor.user.tenantId,
      ip,
      detail: { purpose, size: bytes.length },
    });
    return url;
  });
  return url;
}

/** The stored file (404 when there is none). */
export async function storedFile(ctx: Ctx, name: string): Promise<{ mime: string; data: Uint8Array }> {
  const file = await ctx.db.selectFrom('files').select(['mime', 'data']).where('id', '=', name).executeTakeFirst();
  if (!file) throw notFound('File');
  return file;
}
