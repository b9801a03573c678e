// Debian's nginx in front of the test's server processes, with the configuration docs/deployment.md
// gives ("nginx in front"), its example addresses swapped for loopback ports: the documented
// configuration is the one tested. Started by the test in a temp prefix of its own (daemon off, no
// system service); missing nginx fails the test with the command that installs it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './crash-process';

const deploymentDoc = fileURLToPath(new URL('../../docs/deployment.md', import.meta.url));
/** The example addresses of the documented upstream, in order. */
const DOC_UPSTREAMS = ['10.0.0.11:8081', '10.0.0.12:8081'];

export interface NginxProxy {
  base: string;
  /** nginx's error log so far (upstream failures are logged there). */
  errorLog(): string;
  stop(): Promise<void>;
}

function nginxBinary(): string {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
  if (!found) throw new Error('nginx is missing: install it with  sudo apt-get install -y nginx  (Debian’s package; the test starts it itself)');
  return found;
}

/** The `server { … }` block and the `upstream` of the documented nginx configuration. */
export function documentedNginxConfig(): string {
  const blocks = [...readFileSync(deploymentDoc, 'utf8').matchAll(/```nginx\n([\s\S]*?)```/g)].map((match) => match[1]!);
  const config = blocks.find((block) => block.includes('upstream iam'));
  if (!config) throw new Error('docs/deployment.md has no nginx block with `upstream iam`');
  return config;
}

/**
 * Whether something accepts TCP connections on the loopback `port`. nginx is waited for this way,
 * not with an HTTP request: a request while no server process listens yet would be refused by both,
 * and `max_fails=1` would then keep both avoided for `fail_timeout`, so that the test's first request
 * got nginx's 502 "no live upstreams" whenever the processes started within those seconds.
 */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startNginx(upstreamPorts: number[]): Promise<NginxProxy> {
  const binary = nginxBinary();
  const prefix = mkdtempSync(join(tmpdir(), 'iam-nginx-'));
  const port = await freePort();
  let site = documentedNginxConfig().replace(/listen 443 ssl;/, `listen 127.0.0.1:${port};`);
  DOC_UPSTREAMS.forEach((address, index) => {
    if (!site.includes(address)) throw new Error(`the documented upstream has no ${address}`);
    site = site.replace(address, `127.0.0.1:${upstreamPorts[index]}`);
  });
  const errorLog = join(prefix, 'error.log');
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${join(prefix, 'nginx.pid')};`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 512; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${join(prefix, kind)};`),
      site,
      '}',
    ].join('\n'),
  );
  // -e: the error log before the configuration is read (the default one is /var/log/nginx, not ours).
  const child: ChildProcess = spawn(binary, ['-e', errorLog, '-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const readLog = () => (existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : '');
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${stderr}\n${readLog()}`);
    if (await accepts(port)) break;
    if (Date.now() > deadline) throw new Error(`nginx did not listen within 10 s: ${stderr}\n${readLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    errorLog: readLog,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
