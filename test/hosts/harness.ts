// Host projects as a new user makes them: the browser package packed with `npm pack` (what the
// registry would serve), installed with npm into a fresh project in a temp folder, built with Vite,
// served by `vite preview` (its `/api` proxy forwarding to a real server), driven in Chromium.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import type { Page } from 'playwright-core';
import { ADMIN } from '../e2e/harness';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const browserPackage = join(root, 'packages/iam-console');

/** The policy README.md promises the elements work under. */
const strictCsp = "default-src 'self'; script-src 'self'; style-src 'self'";

/** The version ranges of the repository's own tooling, so a host installs what the cache holds. */
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
export function versions(...names: string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const range = rootManifest.devDependencies[name];
      if (!range) throw new Error(`${name} is not a devDependency of the repository`);
      return [name, range];
    }),
  );
}

/** npm's environment in a host project: the user's defaults, not the settings `npm test` hands its
 *  scripts from this repository's .npmrc (npm_config_*: its engine-strict among them). */
const npmEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_'))),
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
const installArgs = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: npmEnv });
}

/** A temp folder removed after the test file. */
export function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** `npm pack` of a package folder into `destination`; answers the tarball's path and its file list. */
export function pack(folder: string, destination: string): { tarball: string; files: string[]; unpackedSize: number; size: number } {
  const [result] = JSON.parse(npm(['pack', '--json', '--pack-destination', destination], folder)) as {
    filename: string;
    files: { path: string }[];
    unpackedSize: number;
    size: number;
  }[];
  if (!result) throw new Error(`npm pack in ${folder} answered nothing`);
  return { tarball: join(destination, result.filename), files: result.files.map((file) => file.path), unpackedSize: result.unpackedSize, size: result.size };
}

/** A temp folder holding `files` (path → text). */
function writeProject(prefix: string, files: Record<string, string>): string {
  const folder = tempFolder(prefix);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return folder;
}

/** A project made of `files` (path → text) and installed with npm from the local cache first. */
export function createProject(prefix: string, files: Record<string, string>): string {
  const folder = writeProject(prefix, files);
  npm(installArgs, folder);
  return folder;
}

/**
 * `createProject` without blocking: several hosts install at once (npm mostly waits on I/O). `node`:
 * the Node.js npm and the packages' install scripts run on (first on PATH), this one by default;
 * `env`: more of npm's environment.
 */
export async function createProjectAsync(
  prefix: string,
  files: Record<string, string>,
  { node = process.execPath, env = {} }: { node?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const folder = writeProject(prefix, files);
  const path = `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`;
  await promisify(execFile)('npm', installArgs, { cwd: folder, env: { ...npmEnv, ...env, PATH: path } });
  return folder;
}

/** The package that installs a command, where its name differs. */
const toolPackages: Record<string, string> = { tsc: 'typescript', 'react-router': '@react-router/dev', next: 'next', 'svelte-kit': '@sveltejs/kit' };

/** Runs a tool installed in the project (`tsc`, `vite`) and answers its output; throws with it on failure. */
export function runTool(folder: string, tool: string, args: string[]): string {
  const where = join(folder, 'node_modules', toolPackages[tool] ?? tool);
  const bin = JSON.parse(readFileSync(join(where, 'package.json'), 'utf8')) as { bin: Record<string, string> | string };
  const script = typeof bin.bin === 'string' ? bin.bin : bin.bin[tool];
  if (!script) throw new Error(`${tool} has no bin`);
  try {
    return execFileSync(process.execPath, [join(where, script), ...args], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${tool} ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

/** What a check (`runTool`) printed when it failed, '' when it passed: run while the file sets up,
 *  asserted by a test of its own. */
export function failureOf(folder: string, tool: string, args: string[]): string {
  try {
    runTool(folder, tool, args);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/** Signs the built-in administrator in through the page's `<iam-login>`; resolves once the embedded
 *  console welcomes them. */
export async function signInThroughLogin(page: Page): Promise<void> {
  const form = page.locator('iam-login');
  await form.getByLabel('Username').fill(ADMIN.username);
  await form.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await form.getByRole('button', { name: 'Sign in' }).click();
  await page
    .locator('iam-console')
    .getByRole('heading', { name: `Welcome back, ${ADMIN.username}` })
    .waitFor();
}

/** `vite preview` of the built project on `port`; resolves once it answers, stopped after the file. */
export function preview(folder: string, port: number): Promise<string> {
  return serve(folder, ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], port);
}

/** A Node server of the project (`script` and its arguments, run in `folder`) that listens on
 *  `port`; resolves with its URL once it answers, stopped after the file. `node`: the Node.js it runs
 *  on (this one by default); `env`: its environment beside this process's (`undefined` removes one). */
export async function serve(
  folder: string,
  [script, ...args]: string[],
  port: number,
  { env = {}, within = 30_000, node = process.execPath }: { env?: Record<string, string | undefined>; within?: number; node?: string } = {},
): Promise<string> {
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(node, [join(folder, script!), ...args], {
    cwd: folder,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (part) => (output += part));
  child.stderr?.on('data', (part) => (output += part));
  after(() => {
    child.kill('SIGTERM');
  });
  const deadline = Date.now() + within;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited:\n${output}`);
    try {
      if ((await fetch(url)).ok) return url;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${script} did not answer within ${within / 1000} s:\n${output}`);
}

/** The Vite configuration lines every host shares: README's dev proxy (also used by `vite
 *  preview`) and the strict policy on every page it serves. */
export function viteServerOptions(apiTarget: string): string {
  return `server: { proxy: { '/api': ${JSON.stringify(apiTarget)} } },\n  preview: { headers: { 'Content-Security-Policy': ${JSON.stringify(strictCsp)} } },`;
}

/** The TypeScript options of a host that checks the libraries' typings too. */
export const hostTsconfig = (extra: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'Bundler',
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        isolatedModules: true,
        types: [],
        ...extra,
      },
      include: ['src'],
    },
    null,
    2,
  );
