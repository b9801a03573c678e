// A user import's upload, kept on disk while its job runs (server/services/user-import-file.ts reads
// it twice, streamed): a file of any size up to IMPORT_MAX_BYTES never sits in memory whole. The
// file is private to this process (mode 0600, a random name in the system's temporary directory)
// and removed when the job no longer reads it, or at once when the upload is refused. The name
// carries the process's pid and id: the file of a process that died mid-import (kill -9) is
// removed by the next upload on this host (server/process-identity.ts tells it is gone).
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { newId } from '../auth/secrets';
import { processGone, thisProcess } from '../process-identity';

const PREFIX = 'iam-user-import.';
/** This process's pid and id, as they appear in its files' names. */
const [, pid, processId] = thisProcess.split('/');

export interface SpooledUpload {
  /** The stored bytes, from the start, each time it is called. */
  read: () => Readable;
  remove: () => Promise<void>;
}

/** Removes the files of processes of this host that are gone. */
async function removeOrphans(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const [, ownerPid, ownerId] = name.startsWith(PREFIX) ? name.split('.') : [];
    if (ownerPid && ownerId && processGone(`${hostname()}/${ownerPid}/${ownerId}`)) await rm(join(tmpdir(), name), { force: true });
  }
}

/** Stores `stream` in a temporary file. */
export async function spoolUpload(stream: Readable): Promise<SpooledUpload> {
  await removeOrphans();
  const path = join(tmpdir(), `${PREFIX}${pid}.${processId}.${newId()}.csv`);
  const remove = () => rm(path, { force: true });
  try {
    await pipeline(stream, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await remove();
    throw error;
  }
  return { read: () => createReadStream(path), remove };
}
