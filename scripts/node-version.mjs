// The one message on a Node.js the repository does not run on (`npm start`, `npm test`), instead of
// npm's EBADENGINE warnings and whatever a dependency throws later. The versions are the root
// package.json's `engines`, which its whole dependency tree accepts (test/unit/engines.test.ts).
import { readFileSync } from 'node:fs';
import semver from 'semver';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** Exits with one line naming the supported versions when this Node.js is not one of them. */
export function requireSupportedNode(command) {
  if (semver.satisfies(process.versions.node, engines.node)) return;
  console.error(
    `${command} needs Node.js ${engines.node.replaceAll(' || ', ', ')}; this is ${process.version}. Install a supported Node.js (22 or 24, the LTS lines), then run npm install again.`,
  );
  process.exit(1);
}
