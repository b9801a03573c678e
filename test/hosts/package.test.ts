// The two packages as npm would publish them (after `npm run build`): the browser package is lean
// (no source maps, no demos, nothing of the server, LICENSE, README links that resolve, React as a
// peer), a front-end install of it brings React, nanostores and valibot and nothing else, and the server package carries
// its command, the console page and the self-contained bundle, which it serves from its own
// folder whatever the working directory. Every entry imports in Node without a DOM (server renders).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../e2e/harness';
import { browserPackage, createProject, pack, root, tempFolder } from './harness';

const serverPackage = join(root, 'packages/server');
const packed = tempFolder('iam-packed-');
const browser = pack(browserPackage, packed);
const server = pack(serverPackage, packed);
const manifest = JSON.parse(readFileSync(join(browserPackage, 'package.json'), 'utf8')) as {
  exports: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

function sizeOf(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0) : stat.size;
}

test('the browser package: every export, typings, LICENSE and README; no source maps, demos or server', () => {
  const files = new Set(browser.files);
  for (const required of ['LICENSE', 'README.md', 'package.json', 'custom-elements.json']) assert.ok(files.has(required), required);
  for (const [entry, target] of Object.entries(manifest.exports)) {
    for (const path of typeof target === 'string' ? [target] : Object.values(target)) assert.ok(files.has(path.replace(/^\.\//, '')), `${entry} → ${path}`);
  }
  const unwanted = browser.files.filter((path) => /\.map$|(^|\/)demo\/|dist-server|^server\/|\.(br|gz)$|\.tsx?$(?<!\.d\.ts)/.test(path));
  assert.deepEqual(unwanted, []);
  assert.ok(browser.unpackedSize < 1.5 * 1024 * 1024, `unpacked ${browser.unpackedSize} bytes`);
  console.log(
    `iam-console tarball: ${browser.files.length} files, ${(browser.size / 1024).toFixed(0)} KiB packed, ${(browser.unpackedSize / 1024).toFixed(0)} KiB unpacked`,
  );
});

test('README of the browser package links only to files in the package', () => {
  const readme = readFileSync(join(browserPackage, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\(([^)#\s]+)\)/g)].map((match) => match[1] ?? '').filter((link) => !/^[a-z]+:/.test(link));
  assert.ok(links.length > 0);
  for (const link of links) assert.ok(browser.files.includes(link.replace(/^\.\//, '')), `README links to ${link}`);
});

test('React and react-dom are peer dependencies, imported by the package and not bundled into it', () => {
  // nanostores: imported too, because the core's typings name its store types; valibot: bundled,
  // and a dependency because the typings name its types.
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}), ['nanostores', 'valibot']);
  // @types/react too: the elements' typings add their tags to React's JSX, so even a host without
  // React needs React's types to typecheck them.
  assert.deepEqual(Object.keys(manifest.peerDependencies ?? {}).sort(), ['@types/react', 'react', 'react-dom']);
  const code = browser.files
    .filter((path) => path.endsWith('.js'))
    .map((path) => readFileSync(join(browserPackage, path), 'utf8'))
    .join('\n');
  assert.match(code, /from"react"/);
  // React's own modules define these; a bundled copy of React or react-dom would bring them.
  assert.doesNotMatch(code, /__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE|Minified React error/);
  assert.match(
    readFileSync(join(root, 'dist/login.js'), 'utf8') +
      readdirSync(join(root, 'dist/chunks'))
        .map((name) => readFileSync(join(root, 'dist/chunks', name), 'utf8'))
        .join(''),
    /Minified React error/,
    'the self-contained bundle has React',
  );
});

test('a front-end install brings the package and React, nothing of the server', () => {
  const project = createProject('iam-frontend-', {
    'package.json': JSON.stringify({ name: 'frontend', private: true, dependencies: { 'iam-console': `file:${browser.tarball}` } }),
  });
  const installed = Object.keys(
    (JSON.parse(readFileSync(join(project, 'node_modules/.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> }).packages,
  )
    .filter((path) => path.startsWith('node_modules/'))
    .map((path) => path.slice('node_modules/'.length))
    .sort();
  assert.deepEqual(installed, ['@types/react', 'csstype', 'iam-console', 'nanostores', 'react', 'react-dom', 'scheduler', 'valibot']);
  // A server render (Next.js, Nuxt, SvelteKit, Angular SSR) imports the entries in Node, where
  // there is no DOM: nothing throws, nothing is defined (README.md, "Next.js").
  const imported = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const names = [];
for (const entry of ['elements', 'login', 'core', 'react']) names.push(entry + ':' + Object.keys(await import('iam-console/' + entry)).length);
console.log(names.join(' '), typeof HTMLElement, typeof customElements);`,
    ],
    { cwd: project, encoding: 'utf8' },
  );
  // A CommonJS module requires it (Node.js 20.19 and later load ES modules with require).
  const required = execFileSync(process.execPath, ['-e', `console.log(typeof require('iam-console/core').iamFetch)`], { cwd: project, encoding: 'utf8' });
  assert.equal(required, 'function\n');
  assert.match(imported, /^elements:[1-9]\d* login:[1-9]\d* core:[1-9]\d* react:[1-9]\d* undefined undefined\n$/);
  console.log(
    `front-end install: ${installed.length} packages (${installed.join(', ')}), ${(sizeOf(join(project, 'node_modules')) / 1024 / 1024).toFixed(1)} MB`,
  );
});

test('the server package: its command, own dependencies, the console page and the precompressed bundle', () => {
  const files = new Set(server.files);
  const serverManifest = JSON.parse(readFileSync(join(serverPackage, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
    dependencies: Record<string, string>;
    optionalDependencies: Record<string, string>;
  };
  const command = serverManifest.bin['iam-console-server'];
  assert.ok(command && files.has(command), 'the bin is in the package');
  assert.match(readFileSync(join(serverPackage, command), 'utf8'), /^#!\/usr\/bin\/env node\n/);
  for (const required of [
    'LICENSE',
    'README.md',
    'dist-server/public/index.html',
    'dist/elements.js',
    'dist/elements.js.br',
    'dist/elements.js.gz',
    'dist/login.js',
  ])
    assert.ok(files.has(required), required);
  assert.deepEqual(
    server.files.filter((path) => /\.map$|^dist\/demo\//.test(path)),
    [],
  );
  for (const name of ['fastify', 'pg', 'oidc-provider']) assert.ok(serverManifest.dependencies[name], name);
  // The SQLite driver for each Node.js (server/db/sqlite-driver.ts): npm installs the one whose engines fit.
  for (const name of ['iam-console-sqlite-node20', 'better-sqlite3-node22']) assert.ok(serverManifest.optionalDependencies[name], name);
  assert.equal(serverManifest.dependencies.react, undefined);
});

test("the server package run from a host's folder serves its own bundle, not the folder's dist/", async () => {
  const host = tempFolder('iam-host-cwd-');
  const dataDir = tempFolder('iam-host-data-');
  const port = await freePort();
  const child = spawn(process.execPath, [join(serverPackage, 'dist-server/main.js')], {
    cwd: host,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      IAM_DATA_DIR: dataDir,
      IAM_ADMIN_PASSWORD: 'Host-folder-2024',
      IAM_LOG: '0',
      IAM_SHUTDOWN_GRACE_MS: '0',
    },
    stdio: 'ignore',
  });
  try {
    let answer: Response | undefined;
    for (const deadline = Date.now() + 30_000; !answer && Date.now() < deadline;) {
      answer = await fetch(`http://127.0.0.1:${port}/dist/elements.js`).catch(() => undefined);
      if (!answer) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(answer?.status, 200);
    assert.equal(await answer?.text(), readFileSync(join(serverPackage, 'dist/elements.js'), 'utf8'));
    assert.ok(!existsSync(join(host, 'data')), 'nothing written to the working directory');
  } finally {
    child.kill('SIGTERM');
  }
});
