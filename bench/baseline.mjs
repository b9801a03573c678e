// The two compiled servers the comparison runs (bench/compare.mjs): this tree's, built into
// dist-server/ by scripts/build-server.mjs, and a baseline's, built from a git ref in a temporary
// `git worktree` (removed once built). The baseline's build is kept under the system's temp folder by
// commit, so the next run against the same ref does not build it again; it finds its packages
// through a link to this tree's node_modules. Beside it, the baseline's own seed (server/seed/seed.ts,
// bundled): a server refuses a database that ran migrations it does not know, so when the
// baseline's migrations differ from this tree's, its copy of the database is seeded by its own code.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';

const git = (root, ...args) => {
  const { status, stdout, stderr } = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (status !== 0) throw new Error(`git ${args.join(' ')}: ${stderr.trim()}`);
  return stdout.trim();
};

/**
 * The ref compared against when none is given: the last tag reachable from HEAD, else the commit
 * this branch left main at, else HEAD~10 (on main itself).
 */
export function defaultBaselineRef(root) {
  const tag = spawnSync('git', ['describe', '--tags', '--abbrev=0'], { cwd: root, encoding: 'utf8' });
  if (tag.status === 0 && tag.stdout.trim()) return tag.stdout.trim();
  const head = git(root, 'rev-parse', 'HEAD');
  const forkPoint = spawnSync('git', ['merge-base', 'HEAD', 'main'], { cwd: root, encoding: 'utf8' });
  if (forkPoint.status === 0 && forkPoint.stdout.trim() && forkPoint.stdout.trim() !== head) return forkPoint.stdout.trim();
  return 'HEAD~10';
}

function buildServer(dir, log) {
  if (!existsSync(join(dir, 'scripts/build-server.mjs'))) throw new Error(`${dir}: no scripts/build-server.mjs at that ref (too old to compare against)`);
  const { status } = spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: dir, stdio: ['ignore', 2, 2] });
  if (status !== 0) throw new Error(`building the server in ${dir} failed`);
  log(`built ${dir}/dist-server`);
}

/** Builds this tree's server (always: a stale dist-server/ would compare the wrong code). */
export function buildCurrent(root, log) {
  buildServer(root, log);
  return {
    label: 'current',
    commit: `${git(root, 'rev-parse', '--short', 'HEAD')}${git(root, 'status', '--porcelain', '--untracked-files=no') ? '+changes' : ''}`,
    entry: join(root, 'dist-server/main.js'),
  };
}

/**
 * The baseline's compiled server for `ref`: { label, commit, entry, seed }, `seed` being the path of
 * its own bundled seed module when its migrations (server/db/migrations.ts) differ from this tree's.
 */
export function buildBaseline(root, ref, log) {
  const commit = git(root, 'rev-parse', '--short', `${ref}^{commit}`);
  const home = join(tmpdir(), 'iam-bench-baseline', commit);
  const entry = join(home, 'dist-server/main.js');
  const seed = join(home, 'seed.mjs');
  if (!existsSync(entry) || !existsSync(seed)) {
    log(`baseline ${ref} (${commit}): building in a temporary git worktree`);
    const tree = mkdtempSync(join(tmpdir(), 'iam-bench-worktree-'));
    git(root, 'worktree', 'add', '--detach', tree, commit);
    try {
      symlinkSync(join(root, 'node_modules'), join(tree, 'node_modules'), 'dir');
      buildServer(tree, log);
      rmSync(home, { recursive: true, force: true });
      mkdirSync(home, { recursive: true });
      cpSync(join(tree, 'dist-server'), join(home, 'dist-server'), { recursive: true });
      buildSync({
        entryPoints: [join(tree, 'server/seed/seed.ts')],
        outfile: seed,
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        logLevel: 'warning',
      });
      symlinkSync(join(root, 'node_modules'), join(home, 'node_modules'), 'dir');
    } finally {
      // The link first, so that removing the worktree cannot reach this tree's packages.
      rmSync(join(tree, 'node_modules'), { force: true });
      git(root, 'worktree', 'remove', '--force', tree);
    }
  } else {
    log(`baseline ${ref} (${commit}): built before, in ${home}`);
    // Its packages are this tree's: the link may name a tree that is gone (another worktree built it).
    rmSync(join(home, 'node_modules'), { force: true });
    symlinkSync(join(root, 'node_modules'), join(home, 'node_modules'), 'dir');
  }
  const sameMigrations = spawnSync('git', ['diff', '--quiet', commit, '--', 'server/db/migrations.ts'], { cwd: root }).status === 0;
  return { label: 'baseline', ref, commit, entry, ...(sameMigrations ? {} : { seed }) };
}
