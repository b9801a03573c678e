// Component tests in headless Chromium against the BUILT bundle in dist/ (what ships): the test
// files (TypeScript, compiled for the browser by esbuild) import ../../dist/*.js, so `npm run build` comes first (scripts/test.mjs does it).
// The API is the real server (dist-server/, started through the e2e harness on a free port with a
// fresh database) behind this dev server's /api/, so the page and the API share one origin.
import { request } from 'node:http';
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

/** Counts every test of every session; a test file that failed to load counts as one failure. */
function countTests(sessions) {
  let passed = 0;
  let failed = 0;
  const walk = (suite) => {
    for (const test of suite.tests) {
      if (test.passed) passed += 1;
      else if (!test.skipped) failed += 1;
    }
    suite.suites.forEach(walk);
  };
  for (const session of sessions) {
    const before = failed;
    if (session.testResults) walk(session.testResults);
    if (!session.passed && failed === before) failed += 1;
  }
  return { passed, failed };
}

/** Ends the output with one plain `N passed, N failed` line (no colours), which scripts/test.mjs reads. */
function summaryLine() {
  let args;
  return {
    start(startArgs) {
      args = startArgs;
    },
    stop() {
      const { passed, failed } = countTests([...args.sessions.all()]);
      // After the default reporter's last progress output, so it is the last such line.
      process.once('exit', () => console.log(`${passed} passed, ${failed} failed`));
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
  // Seven files one at a time took 154 s on a loaded 2-core machine: the whole run may take 5 minutes.
  testsFinishTimeout: 300_000,
  testFramework: { config: { timeout: 10_000 } },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022' }), api],
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
