// The one message on a Node.js the repository does not run on (`npm start`, `npm test`), instead of
// npm's EBADENGINE warnings and whatever a dependency throws later. The versions are the root
// package.json's `engines`, which its whole dependency tree accepts (test/unit/engines.test.ts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * semver from the repository's node_modules or, where those are not installed (on an unsupported
 * Node.js `npm install` stops before installing anything: .npmrc engine-strict), the copy of the npm
 * running this script (npm_execpath), so the message is the same in a clean clone.
 */
function loadSemver() {
  for (const from of [import.meta.url, process.env.npm_execpath]) {
    try {
      if (from) return createRequire(from)('semver');
    } catch {
      // not there: the next one
    }
  }
  return undefined;
}

/** Exits with one line naming the supported versions when this Node.js is not one of them. */
export function requireSupportedNode(command) {
  const semver = loadSemver();
  if (semver?.satisfies(process.versions.node, engines.node)) return;
  const supported = `Node.js ${engines.node.replaceAll(' || ', ', ')}`;
  console.error(
    semver
      ? `${command} needs ${supported}; this is ${process.version}. Install a supported Node.js (22, 24 or 26, the LTS lines), then run npm install again.`
      : `${command} needs ${supported} and the dependencies: run npm install first.`,
  );
  process.exit(1);
}
