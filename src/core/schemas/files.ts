// File calls (/file/*).
import * as v from 'valibot';

/** POST /file/upload: the stored file's id, shown afterwards from /api/file/get/{url}. */
export const uploadAnswer = v.object({ url: v.string() });
