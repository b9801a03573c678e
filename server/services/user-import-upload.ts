// A user import's upload, kept on disk while its job runs (server/services/user-import-file.ts reads
// it twice, streamed): a file of any size up to IMPORT_MAX_BYTES never sits in memory whole. The
// file is private to this process (mode 0600, a random name in the system's temporary directory)
// and removed when the job no longer reads it, or at once when the upload is refused.
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { newId } from '../auth/secrets';

export interface SpooledUpload {
  /** The stored bytes, from the start, each time it is called. */
  read: () => Readable;
  remove: () => Promise<void>;
}

/** Stores `stream` in a temporary file. */
export async function spoolUpload(stream: Readable): Promise<SpooledUpload> {
  const path = join(tmpdir(), `iam-user-import-${newId()}.csv`);
  const remove = () => rm(path, { force: true });
  try {
    await pipeline(stream, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await remove();
    throw error;
  }
  return { read: () => createReadStream(path), remove };
}
