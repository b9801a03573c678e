// `npm start`: build what is missing or stale (the browser bundle through `npm run build`, the
// server through scripts/build-server.mjs), then run the compiled server (no TypeScript loader), and
// the demo apps beside it (scripts/demos.mjs; IAM_DEMOS=0 or NODE_ENV=production: none).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode('npm start');

const root = new URL('..', import.meta.url).pathname;
const at = (path) => join(root, path);

/** The newest modification time of the files under `dirs`. */
function newest(dirs) {
  let latest = 0;
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else latest = Math.max(latest, stat.mtimeMs);
    }
  };
  dirs.filter((dir) => existsSync(dir)).forEach(walk);
  return latest;
}

function run(command, args) {
  const { status } = spawnSync(command, args, { stdio: 'inherit', cwd: root });
  if (status !== 0) process.exit(status ?? 1);
}

const serverOut = at('dist-server/main.js');
const bundleMissing = !existsSync(at('dist/elements.js'));
if (bundleMissing && existsSync(at('scripts/build.mjs'))) {
  console.log('Building the console bundle (npm run build) …');
  run('npm', ['run', 'build', '--silent']); // also builds the server
}
const serverStale = !existsSync(serverOut) || newest([at('server'), at('src/core')]) > statSync(serverOut).mtimeMs;
if (serverStale) {
  console.log('Building the server …');
  run(process.execPath, [at('scripts/build-server.mjs')]);
}
if (!existsSync(at('dist/elements.js'))) console.warn('No console bundle in dist/: the API runs, the console page will not load.');

const demos = process.env.IAM_DEMOS !== '0' && process.env.NODE_ENV !== 'production';
// The Payroll demo's back-channel logout URI is on this machine: the server may call loopback
// addresses only when the operator lists them (IAM_OUTBOUND_ALLOW, server/http/outbound-address.ts).
if (demos) process.env.IAM_OUTBOUND_ALLOW ??= 'localhost,127.0.0.0/8,::1';
// On a developer's machine no proxy needs the shutdown grace period: Ctrl-C stops at once.
if (demos) process.env.IAM_SHUTDOWN_GRACE_MS ??= '0';
await import(serverOut);
if (demos) {
  const { startDemos } = await import('./demos.mjs');
  await startDemos().catch((error) => console.warn(`The demos did not start: ${error instanceof Error ? error.message : String(error)}`));
}
