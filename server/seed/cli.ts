// `npm run seed -- --users 100000 [--data-dir DIR] [--database-url URL] [--password P]`
// (scripts/seed.mjs loads this through tsx). Without --data-dir/--database-url it seeds what the
// server would open: DATABASE_URL, else IAM_DATA_DIR, else ./data.
import { parseArgs } from 'node:util';
import { PasswordPolicyError } from '../../src/core/password';
import { DEFAULT_SEED_PASSWORD, seed, SeedRefused } from './seed';

const usage = `Usage: npm run seed -- --users N [--data-dir DIR | --database-url URL] [--password P]
  --users N            seeded users the database should hold (default 1000); a larger N tops up
  --data-dir DIR       SQLite data dir (default: IAM_DATA_DIR or ./data)
  --database-url URL   PostgreSQL instead (default: DATABASE_URL when --data-dir is absent)
  --password P         the password of every seeded user (default ${DEFAULT_SEED_PASSWORD})`;

function options() {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '1000' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      password: { type: 'string', default: DEFAULT_SEED_PASSWORD },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const users = Number(values.users);
  if (!Number.isInteger(users) || users < 1 || users > 10_000_000)
    throw new SeedRefused(`--users must be a whole number from 1 to 10 000 000, not "${values.users}"`);
  if (values['data-dir'] && values['database-url']) throw new SeedRefused('give --data-dir or --database-url, not both');
  return { users, password: values.password, dataDir: values['data-dir'], databaseUrl: values['database-url'] };
}

function where(target: { dataDir?: string | undefined; databaseUrl?: string | undefined }): string {
  if (target.databaseUrl) return `PostgreSQL at ${new URL(target.databaseUrl).host}`;
  if (target.dataDir) return `SQLite in ${target.dataDir}`;
  return process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${process.env.IAM_DATA_DIR ?? './data'}`;
}

try {
  const target = options();
  console.log(`Seeding ${where(target)}`);
  const summary = await seed({
    users: target.users,
    password: target.password,
    log: (line) => console.log(line),
    ...(target.dataDir ? { dataDir: target.dataDir } : {}),
    ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
  });
  console.log(
    summary.added
      ? `Added ${summary.added} users in ${summary.seconds.toFixed(1)} s.`
      : `Nothing to add: the database already holds ${summary.seededUsers} seeded users (ask for more with a larger --users).`,
  );
  console.log(`Now: ${summary.totalUsers} users (${summary.seededUsers} seeded), ${summary.tenants} tenants, ${summary.apps} apps, ${summary.roles} roles.`);
  console.log(
    `Every seeded user signs in with the password: ${target.password}${summary.examples.length ? `   (for example as ${summary.examples.join(', ')})` : ''}`,
  );
} catch (error) {
  if (error instanceof SeedRefused) console.error(`Seed refused: ${error.message}`);
  else if (error instanceof PasswordPolicyError) console.error('Seed refused: --password must have 6-20 characters with a digit and a non-digit');
  else throw error;
  process.exitCode = 1;
}
