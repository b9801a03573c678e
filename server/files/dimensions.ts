// Raster uploads (PNG, JPEG, GIF, ICO) are refused above MAX_SIDE pixels a side, by the size read
// from the format's real header with image-size: the PNG IHDR chunk, the JPEG frame header (which
// the core's checks do not read at all), the GIF screen, every entry of an ICO; then, as image-size
// reads no further, every image embedded in an ICO and every GIF frame (./frames). A header-only
// reader (about 40 KB of plain JavaScript) rather than a decoder: sharp is tens of MB of native
// code, and pngjs would inflate the whole bitmap (64 MB at 4096×4096) only to learn what the header
// already says; a browser allocates what the header announces, so the header is what to bound.
// A header that image-size cannot read (no real IHDR chunk, a truncated frame …) or that says
// another type than the file's magic bytes lies about the image and is refused.
import { imageSize } from 'image-size';
import type { ImageKind } from '../../src/core/upload';
import { gifFrames, icoEntries, type Size } from './frames';

export const MAX_SIDE = 4096;

type Problem = 'unreadable' | 'dimensions';

const tooLarge = (size: Size) => size.width > MAX_SIDE || size.height > MAX_SIDE;

/** An icon entry's image must be the size its entry states, which is at most 256 a side. */
function icoProblem(bytes: Uint8Array): Problem | undefined {
  const entries = icoEntries(bytes);
  if (!entries) return 'unreadable';
  if (entries.some(({ real }) => tooLarge(real))) return 'dimensions';
  if (entries.some(({ stated, real }) => stated.width !== real.width || stated.height !== real.height)) return 'unreadable';
  return undefined;
}

/** Every GIF frame must lie within the logical screen (whose size image-size checked). */
function gifProblem(bytes: Uint8Array, screen: Size): Problem | undefined {
  const extents = gifFrames(bytes)?.map((frame) => ({ width: frame.left + frame.width, height: frame.top + frame.height }));
  if (!extents) return 'unreadable';
  if (extents.some(tooLarge)) return 'dimensions';
  if (extents.some((extent) => extent.width > screen.width || extent.height > screen.height)) return 'unreadable';
  return undefined;
}

const TYPE_NAME: Partial<Record<ImageKind, string>> = { png: 'png', jpeg: 'jpg', gif: 'gif', ico: 'ico' };

/** Why a raster image is refused, or undefined. */
export function rasterProblem(bytes: Uint8Array, kind: ImageKind): Problem | undefined {
  const type = TYPE_NAME[kind];
  if (!type) return undefined;
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    return 'unreadable';
  }
  if (size.type !== type) return 'unreadable';
  const images = size.images ?? [size];
  if (!images.length || images.some((image) => !(image.width > 0 && image.height > 0))) return 'unreadable';
  if (images.some(tooLarge)) return 'dimensions';
  if (kind === 'ico') return icoProblem(bytes);
  if (kind === 'gif') return gifProblem(bytes, size);
  return undefined;
}
