// A user import's upload, kept on disk while its job runs (server/services/user-import-file.ts reads
// it twice, streamed): a file of any size up to IMPORT_MAX_BYTES never sits in memory whole. The
// file is private to this process (mode 0600, a random name in the system's temporary directory)
// and removed when the job no longer reads it, or at once when the upload is refused. The name
// carries the process's pid, host (with its PID namespace) and id: the file of a process that died
// mid-import (kill -9) is removed by the next upload on this host (server/process-identity.ts tells
// it is gone); another host's or container's files sharing the directory are never touched.
import { createReadStream, createWriteStream } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { newId } from '../auth/secrets';
import { processGone, thisProcess } from '../process-identity';

const PREFIX = 'iam-user-import.';
/** This process's host, pid and id; in its files' names `<pid>.<host, base64url>.<id>`. */
const [host, pid, processId] = thisProcess.split('/') as [string, string, string];
const ownerTag = `${pid}.${Buffer.from(host).toString('base64url')}.${processId}`;

export interface SpooledUpload {
  /** The stored bytes, from the start, each time it is called. */
  read: () => Readable;
  remove: () => Promise<void>;
}

/** Removes the files of processes of this host that are gone. */
async function removeOrphans(): Promise<void> {
  for (const name of await readdir(tmpdir())) {
    const [, ownerPid, ownerHost, ownerId] = name.startsWith(PREFIX) ? name.split('.') : [];
    if (!ownerPid || !ownerHost || !ownerId) continue;
    const owner = `${Buffer.from(ownerHost, 'base64url').toString()}/${ownerPid}/${ownerId}`;
    if (processGone(owner)) await rm(join(tmpdir(), name), { force: true });
  }
}

/** Stores `stream` in a temporary file. */
export async function spoolUpload(stream: Readable): Promise<SpooledUpload> {
  await removeOrphans();
  const path = join(tmpdir(), `${PREFIX}${ownerTag}.${newId()}.csv`);
  const remove = () => rm(path, { force: true });
  try {
    await pipeline(stream, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  } catch (error) {
    await remove();
    throw error;
  }
  return { read: () => createReadStream(path), remove };
}
