// Fills the packages' folders from the build (the last step of scripts/build.mjs), so each
// holds what `npm pack` ships:
// - packages/iam-console: its build (dist/, written there by rollup and tsc), custom-elements.json
//   and LICENSE;
// - packages/server: the compiled server (dist-server/, with the console page in public/), the
//   self-contained browser bundle it serves (dist/, without the host demos and source maps) and
//   LICENSE. The server finds both from its own location (server/config.ts);
// - packages/sqlite-node20 (the server's SQLite driver on Node.js 20, nothing to build): LICENSE.
// Then the server package's command is linked in node_modules/.bin as an install links it: npm links
// a workspace's `bin` only when its file exists, which in a fresh clone is after the first build, so
// `npx iam-console-server` (packages/*/README.md) would not be found there.
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const fromRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

function copy(from, to, filter) {
  rmSync(fromRoot(to), { recursive: true, force: true });
  cpSync(fromRoot(from), fromRoot(to), { recursive: true, filter });
}

export function stagePackages() {
  copy('LICENSE', 'packages/iam-console/LICENSE');
  copy('custom-elements.json', 'packages/iam-console/custom-elements.json');
  copy('LICENSE', 'packages/server/LICENSE');
  copy('dist-server', 'packages/server/dist-server', (path) => !path.endsWith('.map'));
  copy('dist', 'packages/server/dist', (path) => !path.endsWith('.map') && path !== fromRoot('dist/demo'));
  copy('LICENSE', 'packages/sqlite-node20/LICENSE');
  linkServerCommand();
  console.log('packages: packages/iam-console, packages/server and packages/sqlite-node20 staged');
}

function linkServerCommand() {
  const link = fromRoot('node_modules/.bin/iam-console-server');
  if (existsSync(link) || !existsSync(fromRoot('node_modules/iam-console-server'))) return;
  mkdirSync(fromRoot('node_modules/.bin'), { recursive: true });
  rmSync(link, { force: true }); // a dangling link left by an earlier install
  symlinkSync('../iam-console-server/dist-server/main.js', link);
}
