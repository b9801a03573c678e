// Which server process runs a piece of background work (a user import), so that a process that
// restarts after a crash (kill -9, out of memory) sees at once that the work's runner is gone,
// instead of waiting for its progress to go stale. Several processes may share one database: a
// runner on another host is never judged gone from here.
import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** The PID namespace of this process (Linux), so that two containers of one pod, which share a host
 *  name and may share a temporary directory but not their pids (both may be pid 1), are two hosts
 *  here. Elsewhere, none. */
function pidNamespace(): string {
  try {
    return `#${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return '';
  }
}

/** Where pids mean the same process: the host name and the PID namespace. */
const HOST = `${hostname()}${pidNamespace()}`;

/** This process: host, pid and a random id (a container restarts with the same pid). */
export const thisProcess = `${HOST}/${process.pid}/${randomUUID()}`;

/** Whether the process named `runner` (a `thisProcess` value) is known to be gone: on this host,
 *  and either no process has its pid or the pid is ours under another id (our predecessor's). */
export function processGone(runner: string | null): boolean {
  if (!runner || runner === thisProcess) return false;
  const [host, pidText] = runner.split('/');
  const pid = Number(pidText);
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: a process of another user has that pid now; alive as far as we can tell.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
