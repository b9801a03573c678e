// Every fenced block of README.md, packages/*/README.md and docs/*.md is run or checked here, as a
// reader would use it (docs are code):
// - TypeScript, TSX and JavaScript blocks, the `<script setup>` of Vue blocks and the inline module
//   scripts of HTML blocks typecheck in one tsc program against the typings the build wrote
//   (packages/iam-console/dist/types, as a host that installed the package sees them), together with
//   test/types/consumer.tsx (a host's code using every typed part: tags, events on elements, the
//   document and the window, JSX attributes; its @ts-expect-error lines must stay errors);
// - every iam-* tag in HTML, Vue, TSX and Angular templates carries only attributes of its table
//   (src/elements/attributes.ts, as custom-elements.json lists them);
// - shell blocks are valid shell whose npm scripts and bins exist and whose IAM_* variables the server
//   reads; those that start the server run (on a free port, over a temp data directory) until it
//   answers; a block marked ```sh no-run: <reason>``` is not run, for the reason given;
// - HTTP requests (a block that is a request line and headers) are replayed against one server;
// - the bundle figures of README.md and docs/architecture.md are the build's (sizes measured in
//   dist/ by scripts/bundle-graph.mjs, budgets of scripts/check-bundle.mjs; what a React host pays
//   is measured and held to README by test/hosts/react-host.test.ts);
// - the configuration blocks other tests run (nginx, HAProxy, Kubernetes, LDAP, CSV) are named in
//   `readElsewhere` with the test that reads them; a block of any other kind fails this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleGraph } from '../../scripts/bundle-graph.mjs';
import { budgets } from '../../scripts/check-bundle.mjs';
import { otherNodeMajors, postgresNodeMajor, signInOnlyNodeMajors, sqliteNodeMajor } from '../../scripts/test-node-lines.mjs';
import { docBlocks, documentationPages, type DocBlock } from '../doc-blocks';
import { ADMIN, freePort, startServer } from './harness';

const root = fileURLToPath(new URL('../..', import.meta.url));
const types = join(root, 'packages/iam-console/dist/types');
const blocks = documentationPages().flatMap(docBlocks);
const where = (block: DocBlock) => `${block.doc}:${block.line}`;

/** Blocks another test reads and runs, by page, language and a text of the block: that test's file. */
const readElsewhere = [
  { doc: 'docs/deployment.md', language: 'nginx', marker: 'upstream iam', by: 'test/server/nginx-proxy.ts' },
  { doc: 'docs/deployment.md', language: 'haproxy', marker: 'backend iam', by: 'test/server/rolling-restart-nginx.test.ts' },
  { doc: 'docs/deployment.md', language: 'yaml', marker: 'readinessProbe', by: 'test/server/rolling-restart-nginx.test.ts' },
  { doc: 'docs/deployment.md', language: 'yaml', marker: 'scrape_configs', by: 'test/server/metrics.test.ts' },
  { doc: 'docs/ldap.md', language: 'json', marker: 'ad-connection', by: 'test/server/ldap-docs.test.ts' },
  { doc: 'docs/ldap.md', language: 'ldif', marker: 'openldap-reader', by: 'test/server/ldap-support.ts' },
  { doc: 'docs/ldap.md', language: 'text', marker: 'openldap-access', by: 'test/server/ldap-support.ts' },
  { doc: 'docs/webhooks.md', language: 'csv', marker: 'li_lei', by: 'test/server/user-import.test.ts' },
  { doc: 'docs/architecture.md', language: '', marker: 'host page ──attributes', by: 'test/unit/architecture-map.test.ts' },
];
const elsewhere = (block: DocBlock) =>
  readElsewhere.find(
    ({ doc, language, marker }) => doc === block.doc && language === block.language && (block.body.includes(marker) || block.info.includes(marker)),
  );

/** Where a bundler-less page loads the package from (the examples' server) → the typings of that entry. */
const served: Record<string, string> = {
  'https://iam.example.com/dist/core.js': 'core/index.d.ts',
  'https://iam.example.com/dist/login.js': 'elements/login.d.ts',
  'https://iam.example.com/dist/elements.js': 'elements/index.d.ts',
};

/** The typecheckable sources of a block: [file extension, source]. */
function sourcesOf(block: DocBlock): [string, string][] {
  switch (block.language) {
    case 'ts':
    case 'tsx':
    case 'js':
      return [[block.language, block.body]];
    case 'vue':
      return [...block.body.matchAll(/<script setup lang="ts">([\s\S]*?)<\/script>/g)].map((match) => ['ts', match[1]!]);
    case 'html':
      return [...block.body.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((match) => ['js', match[1]!]);
    default:
      return [];
  }
}

const typechecked = blocks.filter((block) => sourcesOf(block).length && !block.info.startsWith('no-check:'));

test('every block is run, checked here, or read by a named test', () => {
  const handled = new Set(['ts', 'tsx', 'js', 'vue', 'html', 'sh']);
  const unhandled = blocks.filter((block) => !handled.has(block.language) && !isHttpRequest(block) && !elsewhere(block)).map(where);
  assert.deepEqual(unhandled, []);
  for (const { doc, by } of readElsewhere) {
    assert.ok(existsSync(join(root, by)), `${by} exists`);
    assert.ok(readFileSync(join(root, by), 'utf8').includes(doc), `${by} reads ${doc}`);
  }
  // Marks that exempt a block name their reason.
  for (const block of blocks.filter((block) => /^no-(run|check)\b/.test(block.info)))
    assert.match(block.info, /^no-(run|check): \S.{10,}/, `${where(block)} says why`);
});

test('the TypeScript, JavaScript, Vue and inline HTML snippets and a host written against the typings typecheck', () => {
  assert.ok(existsSync(join(types, 'elements/index.d.ts')), 'the build wrote the typings');
  // Inside the repository (.tmp/, ignored by git, lint and format) so that the snippets' imports
  // (vite, oauth4webapi, …) resolve from its node_modules.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.tmp/doc-snippets-'));
  try {
    const files = typechecked.flatMap((block) =>
      sourcesOf(block).map(([extension, source], index) => {
        const name = `${block.doc.replace(/[/.]/g, '_')}_${block.line}_${index}.${extension}`;
        // Where the snippet was taken from, so that an error names it.
        writeFileSync(join(dir, name), `// ${where(block)}\n${source}`);
        return name;
      }),
    );
    const entry = (file: string) => [join(types, file)];
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../test/types/tsconfig.json',
        compilerOptions: {
          allowJs: true,
          checkJs: true,
          moduleDetection: 'force',
          types: ['node'],
          paths: {
            'iam-console/elements': entry('elements/index.d.ts'),
            'iam-console/login': entry('elements/login.d.ts'),
            'iam-console/core': entry('core/index.d.ts'),
            'iam-console/react': entry('react/index.d.ts'),
            ...Object.fromEntries(Object.entries(served).map(([url, file]) => [url, entry(file)])),
          },
        },
        files: ['../../test/types/consumer.tsx', ...files],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: root, encoding: 'utf8' });
    // Each error names the page and line of its snippet (the file's first line says which).
    const report = (tsc.stdout + tsc.stderr).replace(/\.tmp\/doc-snippets-\w+\/(\S+?)\((\d+),(\d+)\)/g, (_, file: string, line: string) => {
      const origin = readFileSync(join(dir, file), 'utf8').split('\n', 1)[0]!.slice(3);
      return `${origin} (snippet line ${Number(line) - 1})`;
    });
    assert.equal(tsc.status, 0, report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('iam-* tags in the snippets use only the attributes of their element', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'custom-elements.json'), 'utf8')) as {
    modules: { declarations?: { tagName?: string; attributes?: { name: string }[] }[] }[];
  };
  const attributes = new Map(
    manifest.modules
      .flatMap((module) => module.declarations ?? [])
      .flatMap((d) => (d.tagName ? [[d.tagName, new Set((d.attributes ?? []).map((a) => a.name))]] : [])),
  );
  const problems: string[] = [];
  for (const block of blocks.filter((block) => ['html', 'vue', 'tsx', 'ts'].includes(block.language))) {
    for (const [, tag = '', list = ''] of block.body.matchAll(/<(iam-[a-z-]+)((?:\s+[^\s>/=]+(?:="[^"]*"|=\{[^}]*\})?)*)\s*\/?>/g)) {
      const known = attributes.get(tag);
      if (!known) {
        problems.push(`${where(block)}: <${tag}> is no element`);
        continue;
      }
      for (const [, name = ''] of list.matchAll(/\s+([^\s>/=]+)/g)) {
        // Framework syntax: Vue's @event and :prop, Angular's (event), [prop] and [attr.name], Svelte's onevent, Solid's attr:name and on:event, React's ref and key.
        const attribute = name.replace(/^(?:@|:|attr:|on:|\[attr\.|\[|\()/, '').replace(/[\])]$/, '');
        if (/^(?:iam-|oniam-)/.test(attribute) || ['ref', 'key', 'id', 'class', 'slot'].includes(attribute)) continue;
        if (!known.has(attribute)) problems.push(`${where(block)}: <${tag}> has no attribute ${attribute}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

/** The server's source, to check the variables the shell blocks set. */
const serverSource = spawnSync('grep', ['-rhoE', '\\bIAM_[A-Z_]+', join(root, 'server'), join(root, 'scripts/start.mjs')], { encoding: 'utf8' }).stdout;
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const serverPackage = JSON.parse(readFileSync(join(root, 'packages/server/package.json'), 'utf8')) as { bin: Record<string, string> };
const shellBlocks = blocks.filter((block) => block.language === 'sh');

test('shell blocks are valid shell, with npm scripts, commands and IAM_* variables that exist', () => {
  const problems: string[] = [];
  for (const block of shellBlocks) {
    const syntax = spawnSync('bash', ['-n'], { input: block.body.replace(/<[^>\n]+>/g, 'PLACEHOLDER'), encoding: 'utf8' });
    if (syntax.status !== 0) problems.push(`${where(block)}: ${syntax.stderr.trim()}`);
    for (const [, script = ''] of block.body.matchAll(/\bnpm (?:run|run-script) ([\w-]+(?::[\w-]+)*)/g))
      if (!packageJson.scripts[script]) problems.push(`${where(block)}: npm run ${script} is no script`);
    for (const [, command = ''] of block.body.matchAll(/\bnpx (iam-[\w-]+)/g))
      if (!serverPackage.bin[command]) problems.push(`${where(block)}: npx ${command} is no command of the server package`);
    for (const [, file = ''] of block.body.matchAll(/\bnode ([\w./-]+\.m?js)\b/g))
      if (!existsSync(join(root, file))) problems.push(`${where(block)}: node ${file}: no such file after the build`);
    for (const [variable = ''] of block.body.matchAll(/\bIAM_[A-Z_]+/g))
      if (!new RegExp(`\\b${variable}\\b`).test(serverSource)) problems.push(`${where(block)}: the server reads no ${variable}`);
  }
  assert.deepEqual(problems, []);
});

/** A shell block that starts the server, run on a free port over a temp data directory, stopped once it answers. */
async function runsServer(block: DocBlock): Promise<void> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'iam-snippet-'));
  const child = spawn('bash', ['-c', block.body], {
    cwd: root,
    detached: true,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', IAM_DATA_DIR: dataDir, IAM_ADMIN_PASSWORD: ADMIN.password, IAM_LOG: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    let ready = false;
    while (!ready && Date.now() < deadline && child.exitCode === null) {
      ready = await fetch(`${url}/api/health/ready`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.ok(ready, `${where(block)} serves (${output})`);
    // An origin the block allows may call the API from its page (CORS).
    for (const [, origin = ''] of block.body.matchAll(/IAM_CORS_ORIGINS=(\S+)/g)) {
      const preflight = await fetch(`${url}/api/user/profile`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.headers.get('access-control-allow-origin'), origin, `${where(block)} allows ${origin}`);
    }
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('the shell blocks not marked no-run start the server as they say', async () => {
  const runnable = shellBlocks.filter((block) => !block.info.startsWith('no-run:'));
  assert.ok(runnable.length > 0, 'some shell block runs');
  for (const block of runnable) {
    assert.match(
      block.body,
      /\bnpx iam-console-server\b|\bnode dist-server\/main\.js\b/,
      `${where(block)}: only server starts run here; mark others no-run: <reason>`,
    );
    await runsServer(block);
  }
});

/** A block that is an HTTP request: a request line, then headers. */
function isHttpRequest(block: DocBlock): boolean {
  return block.language === '' && /^(GET|POST|PUT|PATCH|DELETE) \S+( HTTP\/1\.1)?\n/.test(block.body);
}

test('the HTTP requests of the docs reach the route they name (replayed without a session: refused, not missing)', async () => {
  const requests = blocks.filter(isHttpRequest);
  assert.ok(requests.length > 0, 'the docs show HTTP requests');
  const server = await startServer();
  try {
    for (const block of requests) {
      const [requestLine = '', ...headerLines] = block.body.trim().split('\n');
      const [method = 'GET', target = ''] = requestLine.split(' ');
      const url = target.replace('<IAM_PUBLIC_URL>', server.url);
      assert.ok(url.startsWith(server.url), `${where(block)}: the request names <IAM_PUBLIC_URL>`);
      const headers = Object.fromEntries(
        headerLines.map((line) => line.split(/:\s*/, 2) as [string, string]).map(([name, value]) => [name, value.replace(/<[^>]+>/g, 'not-a-real-token')]),
      );
      const answer = await fetch(url, { method, headers });
      const body = (await answer.json()) as { code?: number; message?: string };
      // The route exists and checks its caller: a made-up token gets the envelope's 401.
      assert.equal(answer.status, 401, `${where(block)}: ${method} ${url} answered ${answer.status} ${JSON.stringify(body)}`);
      assert.equal(typeof body.message, 'string');
    }
  } finally {
    await server.stop();
  }
});

test("README's sentence on which suite runs on which Node.js line is scripts/test.mjs's (scripts/test-node-lines.mjs)", () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const lines =
    /The server tests run on SQLite under Node\.js (\d+) and on PostgreSQL under Node\.js (\d+),.*?the unit tests run on Node\.js (\d+) too, and a sign-in on SQLite with the engines check on Node\.js ([\d, and]+?) \(([\d, and]+?) are fetched from the npm registry/.exec(
      readme,
    );
  assert.ok(lines, 'README.md states which suite runs on which Node.js line');
  const [, sqlite, postgres, unit, signIn, fetched] = lines;
  /** The majors of a list such as "22 and 26" or "24, 22 and 26". */
  const majors = (list: string | undefined) => (list?.match(/\d+/g) ?? []).map(Number);
  assert.equal(Number(sqlite), sqliteNodeMajor, "README, the server suite's SQLite pass");
  assert.equal(Number(postgres), postgresNodeMajor, "README, the server suite's PostgreSQL pass");
  assert.deepEqual(
    [Number(unit)],
    otherNodeMajors.filter((major) => !signInOnlyNodeMajors.includes(major)),
    'README, the unit tests on the other lines',
  );
  assert.deepEqual(majors(signIn), signInOnlyNodeMajors, 'README, the sign-in on SQLite');
  const others = new Set([...otherNodeMajors, sqliteNodeMajor, postgresNodeMajor]);
  assert.deepEqual(new Set(majors(fetched)), others, 'README, the Node.js lines fetched from the npm registry');
});

test("the bundle figures of the docs are the build's: budgets from scripts/check-bundle.mjs, sizes measured in dist/", () => {
  const graph = bundleGraph(join(root, 'dist'));
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const architecture = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const kib = (bytes: number) => bytes / 1024;
  const budget = (entry: string) => budgets.find((candidate) => candidate.entry === entry)!;
  /** `stated` KiB (rounded in the text) against `bytes` measured: within 1 KiB. */
  const about = (what: string, stated: string | undefined, bytes: number) =>
    assert.ok(Math.abs(Number(stated) - kib(bytes)) <= 1, `${what}: the docs say ${stated} KiB, the build measures ${kib(bytes).toFixed(1)} KiB`);

  const login = graph.firstVisit('login.js', []);
  const sign = /the `login` entry: about (\d+) KiB min\+gzip in (\d+) files, held under (\d+) KiB\s+with (\d+)% of that kept free/.exec(readme);
  assert.ok(sign, 'README.md states what the login entry loads');
  about('README, the login entry', sign[1], login.bytes);
  assert.equal(Number(sign[2]), login.files, 'README, the login entry: files');
  assert.equal(Number(sign[3]) * 1024, budget('login.js').firstLoad, "README, the login entry's budget");
  assert.equal(Number(sign[4]) / 100, budget('login.js').keepHeadroom, "README, the login entry's headroom");

  // Token mode's page (README, docs/deployment.md): the login entry and the core entry together.
  const tokenPage = [...new Set([...login.names, ...graph.firstVisit('core.js', []).names])];
  const token = /With `\/dist\/core\.js` beside `\/dist\/login\.js` the page loads about (\d+) KiB min\+gzip in (\d+) files/.exec(readme);
  assert.ok(token, "README.md states what token mode's page loads");
  about("README, token mode's page", token[1], graph.sizeOf(tokenPage));
  assert.equal(Number(token[2]), tokenPage.length, "README, token mode's page: files");

  // The budget table of docs/architecture.md is the table of scripts/check-bundle.mjs.
  const row = (start: string) => architecture.split('\n').find((line) => line.startsWith(start)) ?? '';
  const loginRow = /≤ (\d+) KiB, with (\d+)% of it kept free \(≤ (\d+) KiB\)/.exec(row('| `<iam-login>`'));
  assert.ok(loginRow, 'docs/architecture.md states the login budget');
  const { firstLoad, keepHeadroom = 0 } = budget('login.js');
  assert.deepEqual(loginRow.slice(1).map(Number), [kib(firstLoad), keepHeadroom * 100, kib(firstLoad * (1 - keepHeadroom))]);
  assert.equal(Number(/≤ (\d+) KiB/.exec(row("| The console's first visit"))?.[1]) * 1024, budget('elements.js').firstLoad, 'first visit');
  assert.equal(Number(/≤ (\d+) KiB/.exec(row('| Each lazily loaded chunk'))?.[1]) * 1024, budget('elements.js').eachLazy, 'lazy chunks');
});
