// The Debian packages the test suites drive as real parts, installed by `npm test` itself when some
// are missing and this process may (root with apt-get); otherwise it names the one command to run
// and goes on (the tests that need a missing part then fail, naming it). `.ci/run` calls it before
// `npm install` too. Run alone: `node scripts/system-packages.mjs`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Each package and what needs it. */
export const systemPackages = {
  chromium: 'the browser, e2e and host suites (or CHROME_PATH)',
  postgresql: "the server suite's second database (throwaway clusters: scripts/postgres.mjs)",
  nginx: 'the documented proxy configuration and rolling restarts',
  haproxy: 'the documented HAProxy configuration',
  slapd: 'the directory tests (test/server/slapd.ts)',
  'ldap-utils': 'the directory tests (ldapadd, ldapmodify)',
  'python3-pysaml2': 'a SAML service provider the IdP is tested against (test/server/python-saml-sps.py)',
  'python3-lasso': "mod_auth_mellon's SAML library, a service provider the IdP is tested against",
  'python3-onelogin-saml2': "OneLogin's python3-saml, a service provider the IdP is tested against",
  xmlsec1: "pysaml2's signatures and encryption",
  'fonts-noto-cjk': 'Chinese screens drawn as text in screenshots',
};

/** The packages not installed here (none when dpkg is not there to ask: not Debian). */
function missing() {
  if (!existsSync('/usr/bin/dpkg-query')) return [];
  const names = Object.keys(systemPackages);
  // dpkg-query exits 1 when it knows some name not at all; what it prints is still the answer.
  const { stdout } = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\n', ...names], { encoding: 'utf8' });
  const installed = new Set(
    stdout
      .split('\n')
      .filter((line) => line.endsWith(' installed'))
      .map((line) => line.split(' ')[0]),
  );
  return names.filter((name) => !installed.has(name));
}

export function ensureSystemPackages() {
  const absent = missing();
  if (!absent.length) return;
  const command = `apt-get install -y --no-install-recommends ${absent.join(' ')}`;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    console.error(
      `Missing Debian packages some tests need:\n${absent.map((name) => `  ${name}: ${systemPackages[name]}`).join('\n')}\nInstall them with:  sudo ${command}`,
    );
    return;
  }
  console.log(`Installing the Debian packages some tests need: ${absent.join(' ')} …`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', command.split(' ').slice(1), { stdio: 'inherit', env });
}

if (import.meta.url === `file://${process.argv[1]}`) ensureSystemPackages();
