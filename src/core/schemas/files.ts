// File calls (/file/*).
import * as v from 'valibot';
import { UPLOAD_RULES, type UploadPurpose } from '../upload';

/** POST /file/upload: the stored file's id, shown afterwards from /api/file/get/{url}. */
export const uploadAnswer = v.object({ url: v.string() });

/** POST /file/upload?purpose=…: which rules the file is checked by (src/core/upload.ts). */
export const uploadQuery = v.object({
  purpose: v.optional(v.picklist(Object.keys(UPLOAD_RULES) as UploadPurpose[], 'rule.purpose'), 'image'),
});
