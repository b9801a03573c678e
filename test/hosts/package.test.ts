// The packages as npm would publish them (after `npm run build`): the browser package is lean
// (no source maps, no demos, nothing of the server, LICENSE, README links that resolve, React as a
// peer), a front-end install of it brings React, nanostores and valibot and nothing else, and the server package carries
// its command, the console page and the self-contained bundle, which it serves from its own
// folder whatever the working directory. Every entry imports in Node without a DOM (server renders).
// The server tarball, with the SQLite driver package for Node.js 20 (packages/sqlite-node20), is
// installed and started on Node.js 20 and 24 as an operator would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../e2e/harness';
import { transformPassword } from '../../src/core/password';
import { nodeRuntime } from '../../scripts/node-runtime.mjs';
import { browserPackage, createProject, createProjectAsync, pack, root, serve, tempFolder } from './harness';

const serverPackage = join(root, 'packages/server');
const packed = tempFolder('iam-packed-');
const browser = pack(browserPackage, packed);
const server = pack(serverPackage, packed);
const sqliteNode20 = pack(join(root, 'packages/sqlite-node20'), packed);
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
  // Angular's server platform assigns domino's DOM classes to globalThis (HTMLElement among them)
  // but no custom element registry: still nothing defined, nothing thrown (ng build's prerender once
  // failed with "customElements is not defined").
  const imports = `for (const entry of ['elements', 'login', 'core', 'react']) await import('iam-console/' + entry);`;
  const withServerDom = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', `globalThis.HTMLElement = class HTMLElement {}; ${imports} console.log(typeof customElements);`],
    { cwd: project, encoding: 'utf8' },
  );
  assert.equal(withServerDom, 'undefined\n');
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

/** The Node.js of `major`: this one, or the one the npm registry's `node` package installs (scripts/node-runtime.mjs). */
const nodeOf = (major: number) => (Number(process.versions.node.split('.')[0]) === major ? process.execPath : nodeRuntime(major).node);

/**
 * better-sqlite3 12 for Node.js 20 as its maintainers publish it prebuilt (a tarball of
 * build/Release/better_sqlite3.node named by version, Node ABI, platform and architecture), made from
 * the repository's own install of it. A user's install downloads it from GitHub, which this network
 * cannot reach: prebuild-install takes it from a local folder instead
 * (npm_config_better_sqlite3_local_prebuilds), where the install would otherwise compile it for
 * minutes (nine at a load of 18, on every run). The repository has it when npm installed it on
 * Node.js 20 (the only line that brings better-sqlite3 12), whichever Node.js runs this file (`npm
 * test` launched by 24): the tarball is named by Node.js 20's ABI, not this one's.
 */
function prebuiltSqliteForNode20(): Record<string, string> {
  const installed = join(root, 'node_modules/better-sqlite3');
  const binary = join(installed, 'build/Release/better_sqlite3.node');
  if (!existsSync(binary)) return {};
  const { version } = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string };
  const abi = execFileSync(nodeOf(20), ['-p', 'process.versions.modules'], { encoding: 'utf8' }).trim();
  const folder = tempFolder('iam-prebuilds-');
  const name = `better-sqlite3-v${version}-node-v${abi}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', join(folder, name), '-C', installed, 'build/Release/better_sqlite3.node']);
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}
const sqliteForNode20 = prebuiltSqliteForNode20();

/**
 * The server tarball installed as an operator installs it, with npm on Node.js `major`. The registry
 * would bring iam-console-sqlite-node20 at the exact version the server names; its tarball stands
 * in, declared optional beside the server as the server declares it, so that npm decides it by its
 * engines as it would the registry's copy.
 */
async function installServer(major: number): Promise<{ folder: string; node: string; seconds: number }> {
  const node = nodeOf(major);
  const started = Date.now();
  const folder = await createProjectAsync(
    `iam-server-node${major}-`,
    {
      'package.json': JSON.stringify({
        name: 'operator',
        private: true,
        dependencies: { 'iam-console-server': `file:${server.tarball}` },
        optionalDependencies: { 'iam-console-sqlite-node20': `file:${sqliteNode20.tarball}` },
      }),
    },
    // engine-strict, as an operator may set it: every package installed on this line accepts it.
    { node, env: { ...sqliteForNode20, npm_config_engine_strict: 'true' } },
  );
  return { folder, node, seconds: (Date.now() - started) / 1000 };
}

const installedVersion = (folder: string, name: string) =>
  existsSync(join(folder, 'node_modules', name, 'package.json'))
    ? (JSON.parse(readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version
    : undefined;

test('the server tarball installed on Node.js 20 and 24 brings the SQLite driver of each, starts from any folder on SQLite, serves its own bundle and signs the administrator in', async () => {
  const installs = await Promise.all([20, 24].map(installServer));
  for (const [major, { folder, node, seconds }] of [20, 24].map((major, index) => [major, installs[index]!] as const)) {
    // Node.js 20: better-sqlite3 12 through iam-console-sqlite-node20; 22 and later: 13 as
    // better-sqlite3-node22, and neither the Node.js 20 package nor better-sqlite3 12 (no compile).
    const drivers = ['iam-console-sqlite-node20', 'better-sqlite3', 'better-sqlite3-node22'].map((name) => installedVersion(folder, name)?.split('.')[0]);
    assert.deepEqual(drivers, major === 20 ? ['0', '12', undefined] : [undefined, undefined, '13'], `Node.js ${major}: ${drivers.join(', ')}`);
    // A compile leaves its objects beside the binary; the prebuilt tarball holds the binary alone.
    if (major === 20 && sqliteForNode20.npm_config_better_sqlite3_local_prebuilds)
      assert.ok(!existsSync(join(folder, 'node_modules/better-sqlite3/build/Release/obj.target')), 'better-sqlite3 12 taken prebuilt, not compiled');
    const dataDir = tempFolder('iam-server-data-');
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      IAM_DATA_DIR: dataDir,
      IAM_ADMIN_PASSWORD: 'Host-folder-2024',
      IAM_LOG: '0',
      IAM_SHUTDOWN_GRACE_MS: '0',
      // The server as an operator runs it: none of this test run's loader hooks.
      NODE_OPTIONS: undefined,
      IAM_BETTER_SQLITE3: undefined,
    };
    const url = await serve(folder, ['node_modules/.bin/iam-console-server'], port, { env, node });
    // Its own bundle, not the working directory's, and nothing written there.
    const bundle = await fetch(`${url}/dist/elements.js`);
    assert.equal(bundle.status, 200);
    assert.equal(await bundle.text(), readFileSync(join(folder, 'node_modules/iam-console-server/dist/elements.js'), 'utf8'));
    assert.ok(!existsSync(join(folder, 'data')), 'nothing written to the working directory');
    const login = await fetch(`${url}/api/authc/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ username: 'admin', password: await transformPassword('Host-folder-2024') }),
    });
    assert.equal(login.status, 200, await login.clone().text());
    assert.equal(((await login.json()) as { data?: { loginSuccess?: boolean } }).data?.loginSuccess, true);
    assert.ok(existsSync(join(dataDir, 'iam.sqlite')), 'on SQLite in IAM_DATA_DIR');
    console.log(`server tarball on Node.js ${major}: installed in ${seconds.toFixed(0)} s, drivers ${drivers.join(', ')}`);
  }
});
