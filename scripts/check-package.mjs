// The `prepack` of each package in packages/ (run by `npm pack` and `npm publish` in its folder):
// every file its package.json points at (exports with their typings, bin, the custom elements
// manifest, the folders of `files`) must be there. A package packed before `npm run build` would
// otherwise ship without its code or typings while its exports still name them; the pack stops
// instead, naming what is missing and the command that builds it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The paths a manifest names (export conditions, bin entries, custom elements, files). */
export function namedPaths(manifest) {
  const targets = (value) => (typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(targets) : []);
  const named = [
    ...targets(manifest.exports),
    ...targets(manifest.bin),
    ...targets(manifest.types),
    ...targets(manifest.customElements),
    ...(manifest.files ?? []),
  ];
  return [...new Set(named.filter((path) => !path.includes('*')))];
}

/** The named paths missing from `folder`. */
export function missingFiles(folder) {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  return { name: manifest.name, missing: namedPaths(manifest).filter((path) => !existsSync(join(folder, path))) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { name, missing } = missingFiles(process.cwd());
  if (missing.length > 0) {
    console.error(`${name} is not built: ${missing.join(', ')} missing. Run  npm run build  at the repository root, then pack again.`);
    process.exit(1);
  }
}
