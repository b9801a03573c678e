// Runs the node:test files named on its command line in this one process, one after another:
// `node --import tsx [--test-reporter…] scripts/test-files-together.mjs file…` (scripts/test.mjs).
// Each file then pays its imports only for what the files before it did not load (the server's module
// graph through tsx costs every file of its own process 2.5-4 s of CPU before its first test), and
// what a file's harness keeps for the process (the e2e files' Chromium, test/e2e/harness.ts) serves
// the files after it.
//
// Each file is imported inside a suite named by its path, so what it declares at its top level stays
// its own: its `before`/`after` hooks run around its own tests (the runner's isolation=none would hang
// every file's hooks on the one root test: every `before` at the start, every `after` at the end),
// a failure is reported under the file's name, and its time is the suite's
// (scripts/file-times-reporter.mjs). A suite builds (imports its file) as soon as it is declared, so
// each file is declared once the suite before it has ended: a file that starts its server and browser
// at its top level (the e2e files) does so on its turn, not all of them at once at the start.
import { after, describe } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

for (const file of process.argv.slice(2)) {
  await new Promise((ended) => {
    describe(file, async () => {
      after(ended);
      await import(pathToFileURL(resolve(file)).href);
    });
  });
}
