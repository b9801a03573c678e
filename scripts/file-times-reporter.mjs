// A node:test reporter that writes one line of JSON per test file run: `{"file":…,"ms":…}`, the
// file's whole wall time in its own process (imports, top-level servers and browsers, every test,
// the after hooks). scripts/test.mjs adds it to each run and prints the slowest files per suite.
// The runner reports a file's end as a `test:complete` event named by the file's path (absolute on
// Node.js 20, relative to the working directory on Node.js 24).
import { resolve } from 'node:path';

export default async function* fileTimes(source) {
  for await (const event of source) {
    if (event.type !== 'test:complete') continue;
    const { file, name, details } = event.data;
    if (file && resolve(name) === file && details?.duration_ms !== undefined) yield `${JSON.stringify({ file, ms: Math.round(details.duration_ms) })}\n`;
  }
}
