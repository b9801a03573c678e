// Uploaded images: checked by content with the core's rules (type by magic bytes, size per purpose,
// favicon square), raster dimensions bounded, polyglots refused, SVG sanitised, then stored
// content-addressed in the database.
import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import { checkUpload, type ImageKind, type UploadPurpose } from '../../src/core/upload';
import { ApiError, fieldError } from '../http/errors';
import { sanitizeSvg } from './svg';
import { maxBytesOf } from './limits';
import { MAX_SIDE, rasterProblem } from './dimensions';

const EXTENSION: Record<ImageKind, string> = { png: 'png', jpeg: 'jpg', gif: 'gif', ico: 'ico', svg: 'svg' };

/** Markup inside a raster image means the file is also meant to be read as something else. The
 *  tokens are long enough that compressed image data practically never contains them by chance. */
const MARKUP = /<(?:script|html|svg|iframe|object|embed)|<\?php|javascript:/i;

/** Bytes after the format's end marker: the usual way to glue a second file onto an image. */
function hasTrailingData(kind: ImageKind, bytes: Uint8Array): boolean {
  const tail = (signature: number[]) => signature.every((byte, index) => bytes[bytes.length - signature.length + index] === byte);
  if (kind === 'png') return !tail([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]); // IEND chunk + CRC
  if (kind === 'jpeg') return !tail([0xff, 0xd9]);
  if (kind === 'gif') return !tail([0x3b]);
  return false;
}

const refuse = (rule: string) => fieldError([{ field: 'file', rule }]);

/** Refusals the core's checks do not make: the field carries the nearest rule the console knows,
 *  the message (which the console shows) says exactly why. */
const refuseBecause = (rule: string, message: string) => new ApiError(400, message, { fields: [{ field: 'file', rule }] });
const REFUSED = {
  dimensions: () => refuseBecause('upload.tooLarge', `The image must not be larger than ${MAX_SIDE} × ${MAX_SIDE} pixels`),
  unreadable: () => refuseBecause('upload.wrongType', 'The image is damaged or its header is not valid'),
  svgTooComplex: () => refuseBecause('upload.tooLarge', 'The SVG image has too many elements'),
};

export async function storeUpload(ctx: Ctx, bytes: Uint8Array, purpose: UploadPurpose, userId: string): Promise<string> {
  let content = bytes;
  let check = checkUpload({ bytes: content }, purpose);
  if (!check.ok) throw refuse(check.message);
  // The core's rules cap icons and favicons; other purposes have our cap.
  if (bytes.length > maxBytesOf(purpose)) throw refuse('upload.tooLarge');
  if (check.kind === 'svg') {
    const clean = await sanitizeSvg(new TextDecoder().decode(bytes));
    if (clean === undefined) throw REFUSED.svgTooComplex();
    content = new TextEncoder().encode(clean);
    check = checkUpload({ bytes: content }, purpose);
    if (!check.ok) throw refuse(check.message);
  } else {
    // A polyglot first: its glued-on markup also breaks the format's structure, but is the reason.
    if (hasTrailingData(check.kind, content) || MARKUP.test(Buffer.from(content).toString('latin1'))) throw refuse('upload.polyglot');
    const problem = rasterProblem(content, check.kind);
    if (problem) throw REFUSED[problem]();
  }
  const id = `${createHash('sha256').update(content).digest('hex')}.${EXTENSION[check.kind]}`;
  await ctx.db
    .insertInto('files')
    .values({
      id,
      kind: check.kind,
      mime: check.mimeType,
      size: content.length,
      data: content,
      createdBy: userId,
      createdAt: ctx.now(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return id;
}
