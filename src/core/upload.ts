// Image checks, by CONTENT (magic bytes), never by the file name or the browser's MIME type,
// so that the console and the server run the same checks on the same bytes. No DOM is used:
// dimensions are read from the PNG, ICO and SVG bytes themselves.
import { UPLOAD } from './config';
import type { TextKey } from './i18n';

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'ico' | 'svg';
/** What the image is for: a generic image, the app icon, the favicon or a user's avatar. */
export type UploadPurpose = 'image' | 'icon' | 'favicon' | 'avatar';

export interface UploadInput {
  /** The file's bytes (the whole file, or at least its first few KB when only the head was read). */
  bytes: Uint8Array;
  /** The file size in bytes; defaults to `bytes.length`. */
  size?: number;
  /** The client's file name: informative only, never trusted for the type. */
  name?: string;
}

export type UploadCheck =
  | { ok: true; kind: ImageKind; mimeType: string; width?: number; height?: number }
  /** `message` is an i18n key `upload.*`. */
  | { ok: false; message: UploadMessage };

type UploadMessage = Extract<TextKey, `upload.${string}`>;

interface PurposeRule {
  kinds: readonly ImageKind[];
  typeMessage: UploadMessage;
  maxBytes?: number;
  sizeMessage?: UploadMessage;
  /** When set, the image must be square; the value is the message otherwise. */
  squareMessage?: UploadMessage;
}

export const UPLOAD_RULES: Readonly<Record<UploadPurpose, PurposeRule>> = {
  image: { kinds: ['jpeg', 'png', 'ico', 'svg'], typeMessage: 'upload.wrongType' },
  icon: { kinds: ['jpeg', 'png', 'svg'], typeMessage: 'upload.iconType', maxBytes: UPLOAD.iconMaxBytes, sizeMessage: 'upload.iconTooLarge' },
  favicon: {
    kinds: ['ico', 'svg'],
    typeMessage: 'upload.faviconType',
    maxBytes: UPLOAD.faviconMaxBytes,
    sizeMessage: 'upload.faviconTooLarge',
    squareMessage: 'upload.faviconSquare',
  },
  avatar: { kinds: ['png', 'jpeg', 'gif', 'svg'], typeMessage: 'upload.avatarType' },
};

const MIME_TYPES: Record<ImageKind, string> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  ico: 'image/x-icon',
  svg: 'image/svg+xml',
};

const EXTENSIONS: Record<ImageKind, readonly string[]> = {
  png: ['.png'],
  jpeg: ['.jpg', '.jpeg'],
  gif: ['.gif'],
  ico: ['.ico'],
  svg: ['.svg'],
};

export function mimeTypeOf(kind: ImageKind): string {
  return MIME_TYPES[kind];
}

/** The `accept` attribute of a file input for a purpose (a hint for the picker; the content is still checked). */
export function acceptOf(purpose: UploadPurpose): string {
  return UPLOAD_RULES[purpose].kinds.flatMap((kind) => [...EXTENSIONS[kind], MIME_TYPES[kind]]).join(',');
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) => signature.every((byte, i) => bytes[offset + i] === byte);

/** The leading text of the file, for the SVG check (at most 4 KB, BOM removed). */
function head(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
}

/** An optional XML declaration, comments and an SVG doctype, then the root `<svg` element. */
const SVG_START = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s+svg[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<svg[\s>/]/i;

/** Detects the image type from its magic bytes (SVG: from its leading markup). */
export function detectImageKind(bytes: Uint8Array): ImageKind | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'gif';
  // ICONDIR: reserved 0, type 1 (icon), at least one image.
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length >= 22 && (bytes[4] ?? 0) + (bytes[5] ?? 0) * 256 > 0) return 'ico';
  if (SVG_START.test(head(bytes))) return 'svg';
  return undefined;
}

export interface Dimensions {
  width: number;
  height: number;
}

function pngDimensions(bytes: Uint8Array): Dimensions | undefined {
  if (bytes.length < 24) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Every image of an icon file must be square, so the dimensions are those of the largest entry,
 *  and an icon with any non-square entry reports that entry. */
function icoDimensions(bytes: Uint8Array): Dimensions | undefined {
  const count = (bytes[4] ?? 0) + (bytes[5] ?? 0) * 256;
  let largest: Dimensions | undefined;
  for (let i = 0; i < count; i += 1) {
    const entry = 6 + i * 16;
    if (entry + 16 > bytes.length) break;
    // A stored 0 means 256 pixels.
    const width = bytes[entry] || 256;
    const height = bytes[entry + 1] || 256;
    if (width !== height) return { width, height };
    if (!largest || width > largest.width) largest = { width, height };
  }
  return largest;
}

/** A length attribute in user units: a plain number or px; percentages and other units are unknown. */
function svgLength(value: string | undefined): number | undefined {
  const match = value && /^\s*([\d.]+)\s*(px)?\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

function svgDimensions(bytes: Uint8Array): Dimensions | undefined {
  const tag = /<svg\b([^>]*)>/i.exec(head(bytes))?.[1];
  if (tag === undefined) return undefined;
  const attribute = (name: string) =>
    new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i')
      .exec(tag)
      ?.slice(1)
      .find((v) => v !== undefined);
  const width = svgLength(attribute('width'));
  const height = svgLength(attribute('height'));
  if (width !== undefined && height !== undefined) return { width, height };
  const box = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box?.length === 4 && box.every(Number.isFinite)) return { width: box[2] ?? 0, height: box[3] ?? 0 };
  return undefined;
}

/** Width and height read from the bytes (PNG, ICO, SVG, GIF); undefined when they cannot be read. */
export function imageDimensions(bytes: Uint8Array, kind: ImageKind | undefined = detectImageKind(bytes)): Dimensions | undefined {
  switch (kind) {
    case 'png':
      return pngDimensions(bytes);
    case 'ico':
      return icoDimensions(bytes);
    case 'svg':
      return svgDimensions(bytes);
    case 'gif':
      return bytes.length >= 10 ? { width: (bytes[6] ?? 0) + (bytes[7] ?? 0) * 256, height: (bytes[8] ?? 0) + (bytes[9] ?? 0) * 256 } : undefined;
    default:
      return undefined;
  }
}

/** Checks an upload for a purpose: type by content, then size, then (favicon) squareness. */
export function checkUpload(input: UploadInput, purpose: UploadPurpose): UploadCheck {
  const rule = UPLOAD_RULES[purpose];
  const kind = detectImageKind(input.bytes);
  if (!kind || !rule.kinds.includes(kind)) return { ok: false, message: rule.typeMessage };
  const size = input.size ?? input.bytes.length;
  if (rule.maxBytes !== undefined && size > rule.maxBytes) return { ok: false, message: rule.sizeMessage ?? rule.typeMessage };
  const dimensions = imageDimensions(input.bytes, kind);
  if (rule.squareMessage && (!dimensions || dimensions.width !== dimensions.height || dimensions.width <= 0)) {
    return { ok: false, message: rule.squareMessage };
  }
  return { ok: true, kind, mimeType: MIME_TYPES[kind], ...dimensions };
}
