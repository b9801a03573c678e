// What an ICO or a GIF really holds, beyond the one size image-size reads from each (the ICO
// directory, the GIF logical screen): a browser decodes every embedded icon image and every GIF
// frame at the size that image's own header states, so those are the sizes to bound. Header walks
// only: nothing is decompressed. Structurally broken input answers undefined.
import { imageSize } from 'image-size';

export interface Size {
  width: number;
  height: number;
}
export interface Frame extends Size {
  left: number;
  top: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** BITMAPINFOHEADER's length; later versions (V4, V5) are longer and start the same way. */
const BITMAP_INFO_HEADER = 40;

const viewOf = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The size an icon entry's image states itself: a PNG's IHDR, or the header of a BMP stored
 *  without its file header, whose height counts the image and its AND mask (twice the image). */
function embeddedSize(image: Uint8Array): Size | undefined {
  if (PNG_SIGNATURE.every((byte, i) => image[i] === byte)) {
    try {
      const size = imageSize(image);
      return size.type === 'png' ? { width: size.width, height: size.height } : undefined;
    } catch {
      return undefined;
    }
  }
  if (image.length < BITMAP_INFO_HEADER) return undefined;
  const view = viewOf(image);
  const headerLength = view.getUint32(0, true);
  const width = view.getInt32(4, true);
  const height = view.getInt32(8, true);
  if (headerLength < BITMAP_INFO_HEADER || headerLength > image.length || width <= 0 || height <= 0 || height % 2) return undefined;
  return { width, height: height / 2 };
}

/** Each icon entry's size as its directory states it (0 meaning 256) and as its image states it. */
export function icoEntries(bytes: Uint8Array): { stated: Size; real: Size }[] | undefined {
  if (bytes.length < 6) return undefined;
  const view = viewOf(bytes);
  const count = view.getUint16(4, true);
  if (6 + 16 * count > bytes.length) return undefined;
  const entries = [];
  for (let i = 0; i < count; i += 1) {
    const entry = 6 + 16 * i;
    const length = view.getUint32(entry + 8, true);
    const offset = view.getUint32(entry + 12, true);
    if (length === 0 || offset + length > bytes.length) return undefined;
    const real = embeddedSize(bytes.subarray(offset, offset + length));
    if (!real) return undefined;
    entries.push({ stated: { width: bytes[entry] || 256, height: bytes[entry + 1] || 256 }, real });
  }
  return entries;
}

/** Blocks (extensions and images) a GIF may have before its trailer: thousands of frames. */
const MAX_GIF_BLOCKS = 20_000;

/** A colour table's length from the packed flags byte that announces it (3 × 2^(n+1) bytes). */
const colourTableLength = (flags: number) => (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);

/** Where a chain of data sub-blocks (a length byte, that many bytes, … a zero length) ends, or
 *  undefined when the bytes end first. Every step moves forward, so the walk is bounded. */
function afterSubBlocks(bytes: Uint8Array, at: number): number | undefined {
  while (at < bytes.length) {
    const length = bytes[at] ?? 0;
    at += 1 + length;
    if (length === 0) return at;
  }
  return undefined;
}

/** Every frame's rectangle of a GIF, walking its blocks from the logical screen to the trailer;
 *  undefined for an unknown block, a stream that ends before its trailer, or too many blocks. */
export function gifFrames(bytes: Uint8Array): Frame[] | undefined {
  if (bytes.length < 13) return undefined;
  const view = viewOf(bytes);
  let at: number | undefined = 13 + colourTableLength(bytes[10] ?? 0);
  const frames: Frame[] = [];
  for (let blocks = 0; blocks < MAX_GIF_BLOCKS && at !== undefined; blocks += 1) {
    const introducer = bytes[at];
    if (introducer === 0x3b) return frames;
    if (introducer === 0x21)
      at = afterSubBlocks(bytes, at + 2); // extension: introducer, label, sub-blocks
    else if (introducer === 0x2c && at + 10 <= bytes.length) {
      // Image descriptor: left, top, width, height, flags; a local colour table; the LZW code size; the data.
      frames.push({
        left: view.getUint16(at + 1, true),
        top: view.getUint16(at + 3, true),
        width: view.getUint16(at + 5, true),
        height: view.getUint16(at + 7, true),
      });
      at = afterSubBlocks(bytes, at + 10 + colourTableLength(bytes[at + 9] ?? 0) + 1);
    } else return undefined;
  }
  return undefined;
}
