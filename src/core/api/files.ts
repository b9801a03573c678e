// file upload and display.
import { getStoredFile, postFileUpload } from '../contract/files';
import type { UploadPurpose } from '../upload';
import { FILE_ID } from '../file-id';
import { call, urlOf } from './call';

/** POST /file/upload?purpose=… (multipart, field `file`): the server applies the rules of the
 *  purpose (an icon's 150 KB, a favicon's 20 KB and squareness …); answers the stored file's `url`.
 *  The purpose comes last so that earlier `upload(file, name)` calls keep working (as 'image'). */
export async function upload(file: Blob, name?: string, purpose: UploadPurpose = 'image'): Promise<string> {
  const form = new FormData();
  form.append('file', file, name);
  const answer = await call(postFileUpload, { query: { purpose }, body: form });
  return answer.url;
}

/** Where an uploaded file is shown from: /api/file/get/{id}. Local previews (data:, blob:) pass
 *  through; anything that is not one of our file ids shows nothing, so a stored value can never
 *  make the browser request another address (a "../../cas/logout" avatar signed viewers out). */
export function fileUrl(url: string): string {
  if (/^(?:data|blob):/.test(url)) return url;
  // A value stored as the file's whole address (…/file/get/{id}) is read as its id.
  const prefix = urlOf(getStoredFile, { params: { name: '' } });
  const id = url.startsWith(prefix) ? url.slice(prefix.length) : url;
  return FILE_ID.test(id) ? urlOf(getStoredFile, { params: { name: id } }) : '';
}
