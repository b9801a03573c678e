// Host projects as a new user makes them: the browser package packed with `npm pack` (what the
// registry would serve), installed with npm into a fresh project in a temp folder, built with Vite,
// served by `vite preview` (its `/api` proxy forwarding to a real server), driven in Chromium.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const browserPackage = join(root, 'packages/iam-console');

/** The policy README.md promises the elements work under. */
export const strictCsp = "default-src 'self'; script-src 'self'; style-src 'self'";

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

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
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

/** A project made of `files` (path → text) and installed with npm from the local cache first. */
export function createProject(prefix: string, files: Record<string, string>): string {
  const folder = tempFolder(prefix);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], folder);
  return folder;
}

/** Runs a tool installed in the project (`tsc`, `vite`) and answers its output; throws with it on failure. */
export function runTool(folder: string, tool: string, args: string[]): string {
  const bin = JSON.parse(readFileSync(join(folder, 'node_modules', tool === 'tsc' ? 'typescript' : tool, 'package.json'), 'utf8')) as {
    bin: Record<string, string> | string;
  };
  const script = typeof bin.bin === 'string' ? bin.bin : bin.bin[tool];
  if (!script) throw new Error(`${tool} has no bin`);
  try {
    return execFileSync(process.execPath, [join(folder, 'node_modules', tool === 'tsc' ? 'typescript' : tool, script), ...args], {
      cwd: folder,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`${tool} ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? ''}`);
  }
}

/** `vite preview` of the built project on `port`; resolves once it answers, stopped after the file. */
export async function preview(folder: string, port: number): Promise<string> {
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    process.execPath,
    [join(folder, 'node_modules/vite/bin/vite.js'), 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (part) => (output += part));
  child.stderr?.on('data', (part) => (output += part));
  after(() => {
    child.kill('SIGTERM');
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vite preview exited:\n${output}`);
    try {
      if ((await fetch(url)).ok) return url;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`vite preview did not answer within 30 s:\n${output}`);
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
