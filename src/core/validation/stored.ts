// Rules of stored references (ids and uploaded images), apart from the user's fields: the shared
// wire schemas (src/core/schemas/common.ts) need them on the console's first visit, where the field
// rules of ./field-rules.ts, which only forms use, are not loaded.
import * as v from 'valibot';
import { FILE_ID } from '../file-id';

/** Ids are opaque strings (UUIDs here). */
export const idRule = v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.maxLength(64, 'rule.id'));

/** A stored image field (avatar, branding images, a provider's icon): one of our own uploads, by
 *  its id or its /api/file/get/ URL (kept as the id, so that every console resolves it against
 *  its own API base); '' for none. Nothing else: a path or URL here would make every browser that
 *  shows the image request it with the viewer's cookies (a "../../cas/logout" avatar signed
 *  administrators out), and the console's Content-Security-Policy loads images from itself only. */
export const uploadedImage = v.pipe(
  v.string('rule.fileName'),
  v.regex(new RegExp(`^(?:(?:/api/file/get/)?${FILE_ID.source.slice(1, -1)})?$`), 'rule.fileName'),
  v.transform((image: string) => image.replace(/^\/api\/file\/get\//, '')),
);
