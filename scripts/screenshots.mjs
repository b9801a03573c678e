// `npm run screenshots`: pictures of every main screen, the dialogs and the demo pages into
// docs/screenshots/ (all at 1280×800 dark; the main ones also light and at 390×844 in both themes),
// from the real server on a temp data dir with sample data. Builds first when the bundle or the server build is missing; the
// work itself is test/e2e/screenshots.ts (run through tsx), which fails on any console/CSP error.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

if (!existsSync(`${root}/dist/elements.js`) || !existsSync(`${root}/dist-server/main.js`)) {
  console.log('Building first (npm run build) …');
  const status = run('npm', ['run', 'build', '--silent']);
  if (status !== 0) process.exit(status);
}
process.exit(run(process.execPath, ['--import', 'tsx', 'test/e2e/screenshots.ts', 'docs/screenshots']));
