// End-to-end harness: the real server (compiled, dist-server/main.js) on a free port with a temp
// data dir, Debian's Chromium through playwright-core, and a few API calls as the administrator
// (to create the ordinary users a test needs). Pages collect console errors and page errors.
//
// IAM_E2E_CWD runs the server from another directory (its ./dist is the bundle served), e.g. a
// private build; by default the repository root (what `npm run build` made). The server runs on
// the Node.js that runs the test (scripts/test.mjs: 24 for the e2e files, several to a process,
// scripts/test-files-together.mjs; this one for the host files).
import { spawn, type ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { transformPassword } from '../../src/core/password';

const root = fileURLToPath(new URL('../..', import.meta.url));

// scripts/chromium.mjs has no typings: import it by URL and say what it gives.
const { chromiumArgs } = (await import(new URL('../../scripts/chromium.mjs', import.meta.url).href)) as { chromiumArgs: string[] };

export const ADMIN = { username: 'admin', password: 'Admin-e2e-2024' } as const;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningServer {
  url: string;
  stop: () => Promise<void>;
}

/** The built server on a free port with a fresh database; `env` adds to its environment (a
 *  function of the port when a variable names the server's own address, e.g. IAM_PUBLIC_URL). */
export async function startServer(env: Record<string, string> | ((port: number) => Record<string, string>) = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'iam-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [join(root, 'dist-server/main.js')], {
    cwd: process.env.IAM_E2E_CWD || root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      IAM_DATA_DIR: dataDir,
      IAM_ADMIN_USERNAME: ADMIN.username,
      IAM_ADMIN_PASSWORD: ADMIN.password,
      IAM_LOG: '0',
      // No proxy moves away from a test's server: SIGTERM stops it at once (the default grace of
      // 10 s would outlast stop()'s 5 s wait on every file).
      IAM_SHUTDOWN_GRACE_MS: '0',
      ...(typeof env === 'function' ? env(port) : env),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const answer = await fetch(`${url}/api/config`);
      if (answer.ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`the server did not answer within 30 s:\n${output}`);
}

/** Whether this process runs several test files one after another (scripts/test-files-together.mjs). */
const filesTogether = /test-files-together\.mjs$/.test(process.argv[1] ?? '');

/**
 * How long the process's Chromium stays open after the last file let it go, for the next file of
 * the process to take it (launching one costs 1-2 s of CPU, and a fresh one's first page 2-3 s
 * more than a page in a new context of a running one).
 */
const keptForNextFileMs = 5000;

/** The Chromium of this process while some file holds it (or the next file may). */
interface SharedBrowser {
  browser: Promise<Browser>;
  holders: number;
  closing?: NodeJS.Timeout;
}
let shared: SharedBrowser | undefined;

/**
 * Chromium for one test file, which closes it with `close()` when it is done. Files that run in one
 * process share one Chromium (each file's pages in contexts of their own, as in a process of its own):
 * the file gets a view of it whose `contexts()` are the file's, and whose `close()` closes them and
 * lets the Chromium go, to close once no file holds it (at once when the process runs one file).
 */
export async function launchBrowser(): Promise<Browser> {
  if (!shared) {
    const launched = chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromiumArgs });
    const entry: SharedBrowser = { browser: launched, holders: 0 };
    shared = entry;
    launched.then(
      (browser) => browser.on('disconnected', () => shared === entry && (shared = undefined)),
      () => shared === entry && (shared = undefined),
    );
  }
  const entry = shared;
  clearTimeout(entry.closing);
  entry.holders += 1;
  const release = (browser: Browser) => {
    entry.holders -= 1;
    if (entry.holders > 0) return;
    const close = () => {
      if (shared === entry) shared = undefined;
      return browser.close();
    };
    if (filesTogether) entry.closing = setTimeout(() => void close(), keptForNextFileMs);
    else return close();
  };
  const browser = await entry.browser.catch((error: unknown) => {
    entry.holders -= 1;
    throw error;
  });
  return fileView(browser, () => release(browser));
}

/** `browser` as one file sees it: the contexts it opens, closed (and the browser let go) by its `close()`. */
function fileView(browser: Browser, release: () => Promise<void> | void): Browser {
  const contexts = new Set<BrowserContext>();
  const own = (context: BrowserContext) => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  let closed: Promise<void> | undefined;
  const overrides: Partial<Browser> = {
    newContext: async (options) => own(await browser.newContext(options)),
    newPage: async (options) => {
      const page = await browser.newPage(options);
      own(page.context());
      return page;
    },
    contexts: () => [...contexts],
    close: () =>
      (closed ??= (async () => {
        await Promise.all([...contexts].map((context) => context.close()));
        await release();
      })()),
  };
  return new Proxy(browser, {
    get(target, key) {
      if (Object.hasOwn(overrides, key)) return overrides[key as keyof Browser];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A test file's server and Chromium, started at once (top-level await in the file) and stopped
 * after its tests. (Node 20 does not wait for one root `before` hook before running the next.)
 */
export async function startServerAndBrowser(env: Record<string, string> = {}): Promise<{ server: RunningServer; browser: Browser }> {
  const [server, browser] = await Promise.allSettled([startServer(env), launchBrowser()]);
  if (server.status === 'rejected' || browser.status === 'rejected') {
    if (server.status === 'fulfilled') await server.value.stop();
    if (browser.status === 'fulfilled') await browser.value.close();
    throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
  }
  after(async () => {
    await browser.value.close();
    await server.value.stop();
  });
  return { server: server.value, browser: browser.value };
}

/**
 * Browser messages that are not errors of the console: Chromium logs every HTTP error answer of a
 * fetch as "Failed to load resource". The session read of a visitor who is not signed in answers
 * 401 by design; a test that expects another failing call names it.
 */
function expectedNetworkLog(message: ConsoleMessage, expected: readonly RegExp[]): boolean {
  if (!message.text().startsWith('Failed to load resource')) return false;
  const url = message.location().url;
  return [/\/api\/cas\/session$/, ...expected].some((pattern) => pattern.test(url));
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught page errors seen so far. */
  errors: string[];
}

/** A page in a fresh context (own cookies) that records console errors and page errors. */
export async function openPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; expectedFailures?: RegExp[] } = {},
): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !expectedNetworkLog(message, options.expectedFailures ?? []))
      errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  return { page, context, errors };
}

/** Fills the sign-in form at /login and submits it; what follows (home, a next step) is the
 *  caller's to wait for. `labels` name the form's fields in another language. */
export async function submitSignIn(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
  labels = { username: 'Username', password: 'Password', submit: 'Sign in' },
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel(labels.username).fill(username);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: labels.submit }).click();
}

/** An API session as some user (cookie kept; Origin sent for the server's CSRF check). */
export class ApiClient {
  private cookie = '';
  constructor(private readonly baseUrl: string) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const answer = await fetch(`${this.baseUrl}/api${path}`, {
      method,
      headers: { origin: this.baseUrl, cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = answer.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    if (setCookie) this.cookie = setCookie;
    const envelope = (await answer.json()) as { code: number; message: string; data: T };
    if (!answer.ok || envelope.code !== 0) throw new Error(`${method} ${path}: ${answer.status} ${envelope.message}`);
    return envelope.data;
  }

  /** POST /file/upload?purpose=… (multipart); answers the stored file's url. */
  async upload(purpose: string, name: string, bytes: Uint8Array, type: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const answer = await fetch(`${this.baseUrl}/api/file/upload?purpose=${encodeURIComponent(purpose)}`, {
      method: 'POST',
      headers: { origin: this.baseUrl, cookie: this.cookie },
      body: form,
    });
    const envelope = (await answer.json()) as { code: number; message: string; data: { url: string } };
    if (!answer.ok || envelope.code !== 0) throw new Error(`upload: ${answer.status} ${envelope.message}`);
    return envelope.data.url;
  }

  async signIn(username: string, password: string): Promise<void> {
    await this.call('POST', '/authc/login', { username, password: await transformPassword(password) });
  }

  /** Creates an enabled ordinary user (no admin rights) and answers its id. */
  async createUser(user: { username: string; realName: string; password: string }): Promise<string> {
    const created = await this.call<{ id: string }>('POST', '/user', { ...user, password: await transformPassword(user.password), extraProp: {} });
    return created.id;
  }
}
