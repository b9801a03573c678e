// The `prepack` of each package in packages/ (run by `npm pack` and `npm publish` in its folder):
// every file its package.json points at (exports with their typings, bin, the custom elements
// manifest, the folders of `files`) must be there. A package packed before `npm run build` would
// otherwise ship without its code or typings while its exports still name them; the pack stops
// instead, naming what is missing and the command that builds it.
// The repository's packages are released together under one version (iam-console, iam-console-server
// and iam-console-sqlite-node20, the server's SQLite driver on Node.js 20): a package whose version
// differs from the others', or that depends on one of them by another range than that exact version,
// is not packed either, since its install would take a sibling from another release (or none).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packagesFolder = fileURLToPath(new URL('../packages', import.meta.url));

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

/** The name and version of each package in packages/. */
export function releasedPackages(folder = packagesFolder) {
  return readdirSync(folder)
    .filter((name) => existsSync(join(folder, name, 'package.json')))
    .map((name) => {
      const { name: packageName, version } = JSON.parse(readFileSync(join(folder, name, 'package.json'), 'utf8'));
      return { name: packageName, version };
    });
}

/** What keeps `manifest` out of step with the other packages of the release (`packages`). */
export function outOfStep(manifest, packages) {
  const problems = packages
    .filter((other) => other.name !== manifest.name && other.version !== manifest.version)
    .map((other) => `its version ${manifest.version} is not ${other.name}'s ${other.version}`);
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      const sibling = packages.find((other) => other.name === name);
      if (sibling && range !== sibling.version) problems.push(`${field} names ${name}@${range}, not its version ${sibling.version}`);
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { name, missing } = missingFiles(process.cwd());
  if (missing.length > 0) {
    console.error(`${name} is not built: ${missing.join(', ')} missing. Run  npm run build  at the repository root, then pack again.`);
    process.exit(1);
  }
  const problems = outOfStep(JSON.parse(readFileSync('package.json', 'utf8')), releasedPackages());
  if (problems.length > 0) {
    console.error(`${name} is out of step with the packages released beside it: ${problems.join('; ')}. Give packages/* one version.`);
    process.exit(1);
  }
}
