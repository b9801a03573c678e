// Component tests in headless Chromium against the BUILT bundle in dist/ (what ships): the test
// files (TypeScript, compiled for the browser by esbuild) import ../../dist/*.js, so `npm run build` comes first (scripts/test.mjs does it).
// The API is the real server (dist-server/, started through the e2e harness on a free port with a
// fresh database) behind this dev server's /api/, so the page and the API share one origin.
import { request } from 'node:http';
import { relative } from 'node:path';
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { tsImport } from 'tsx/esm/api';
import { chromiumArgs } from './scripts/chromium.mjs';

const { ADMIN, freePort, startServer } = await tsImport('./test/e2e/harness.ts', import.meta.url);

/** The page's origin: this dev server's. It forwards /api/ to the API server, which takes only its
 *  configured public origin as its own (never a request's Host), so that origin is this one. */
const port = await freePort();
const publicUrl = `http://localhost:${port}`;

/** Starts the API server with the dev server and stops it with it. Tests get the administrator's
 *  credentials with `executeServerCommand('iam-admin')` (@web/test-runner-commands). */
function apiServer() {
  let server;
  return {
    name: 'iam-api-server',
    async serverStart() {
      server = await startServer({ IAM_PUBLIC_URL: publicUrl });
    },
    async serverStop() {
      await server?.stop();
    },
    executeCommand({ command }) {
      return command === 'iam-admin' ? ADMIN : undefined;
    },
    /** The server's base URL (once started). */
    url: () => server?.url,
  };
}

/** Forwards /api/… to the API server as is. */
function proxyApi(target) {
  return (context, next) => {
    if (!context.path.startsWith('/api/')) return next();
    context.respond = false;
    return new Promise((resolve, reject) => {
      const upstream = request(new URL(context.url, target()), { method: context.method, headers: context.req.headers }, (answer) => {
        context.res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(context.res).on('finish', resolve);
      });
      upstream.on('error', reject);
      context.req.pipe(upstream);
    });
  };
}

/**
 * Counts every test of every session, and names each failure: `file > suite > test: message` for a
 * failed test, `file: message` for a file that failed as a whole (it did not load, or did not finish
 * within testsFinishTimeout), which counts as one failure.
 */
function outcome(sessions) {
  let passed = 0;
  const failures = [];
  for (const session of sessions) {
    const file = relative(process.cwd(), session.testFile);
    const before = failures.length;
    const walk = (suite, path) => {
      for (const test of suite.tests) {
        if (test.passed) passed += 1;
        else if (!test.skipped) failures.push(`${[file, ...path, test.name].join(' > ')}: ${test.error?.message ?? 'failed'}`);
      }
      for (const child of suite.suites) walk(child, [...path, child.name]);
    };
    if (session.testResults) walk(session.testResults, []);
    if (!session.passed && failures.length === before) {
      const errors = (session.errors ?? []).map((error) => error.message).join('; ');
      failures.push(`${file}: ${errors || 'failed'}`);
    }
  }
  return { passed, failures };
}

/** Ends the output with a plain `failed: …` line per failure (see outcome) and one `N passed, N
 *  failed` line (no colours), which scripts/test.mjs reads and repeats at the end of its output. */
function summaryLine() {
  let args;
  return {
    start(startArgs) {
      args = startArgs;
    },
    stop() {
      const { passed, failures } = outcome([...args.sessions.all()]);
      // After the default reporter's last progress output, so that these are the last lines.
      process.once('exit', () => {
        for (const failure of failures) console.log(`failed: ${failure.replace(/\s+/g, ' ').slice(0, 400)}`);
        console.log(`${passed} passed, ${failures.length} failed`);
      });
    },
  };
}

const api = apiServer();

export default {
  files: ['test/browser/**/*.test.ts'],
  // The production build of the test helpers' lit (quiet: no dev-mode warning).
  nodeResolve: { exportConditions: ['production'] },
  port,
  concurrency: 1,
  // Per file: its tests are bounded by mocha's timeout (10 s each), so this only ends a page that
  // stopped answering. A file whose report never arrived counts as one failure and its tests as
  // not run: a failed assertion on a DOM node used to do that (test/browser/failure-report.ts).
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 10_000 } },
  // TypeScript only: the bundle's own .js files are served as built (a `target` would have esbuild
  // compile every .js file again, dist/ included, on its first request).
  plugins: [esbuildPlugin({ ts: true }), api],
  middleware: [proxyApi(api.url)],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
        args: chromiumArgs,
      },
    }),
  ],
  reporters: [defaultReporter(), summaryLine()],
};
