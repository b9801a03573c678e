// File calls (/file/*).
import * as v from 'valibot';
import { UPLOAD_RULES, type UploadPurpose } from '../upload';
import { FILE_ID } from '../file-id';

/** POST /file/upload: the stored file's id, shown afterwards from /api/file/get/{url}. */
export const uploadAnswer = v.object({ url: v.string() });

/** POST /file/upload?purpose=…: which rules the file is checked by (src/core/upload.ts). */
export const uploadQuery = v.object({
  purpose: v.optional(v.picklist(Object.keys(UPLOAD_RULES) as UploadPurpose[], 'rule.purpose'), 'image'),
});

/** GET /file/get/:name: a stored file, by its content address. */
export const storedFileParams = v.object({ name: v.pipe(v.string(), v.regex(FILE_ID, 'rule.fileName')) });
