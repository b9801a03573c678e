// Upload size caps on the server: the limits of the core (icon 150 KB, favicon 20 KB) apply per
// purpose; other purposes (avatar, generic image) are capped here.
import { UPLOAD_RULES, type UploadPurpose } from '../../src/core/upload';

const OPEN_PURPOSE_MAX_BYTES = 1024 * 1024;

export const maxBytesOf = (purpose: UploadPurpose): number => UPLOAD_RULES[purpose].maxBytes ?? OPEN_PURPOSE_MAX_BYTES;

/** The multipart parser's hard cap: the largest of the per-purpose limits. */
export const MAX_UPLOAD_BYTES = Math.max(...(Object.keys(UPLOAD_RULES) as UploadPurpose[]).map(maxBytesOf));
