// Component tests in headless Chromium against the BUILT bundle in dist/ (what ships): the test
// files import ../../dist/*.js, so `npm run build` comes first (scripts/test.mjs does it).
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { chromiumArgs } from './scripts/chromium.mjs';

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

export default {
  files: ['test/browser/**/*.test.js'],
  // The production build of the test helpers' lit (quiet: no dev-mode warning).
  nodeResolve: { exportConditions: ['production'] },
  concurrency: 1,
  testsFinishTimeout: 120_000,
  testFramework: { config: { timeout: 10_000 } },
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
