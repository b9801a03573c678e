// Finds the Chromium that browser tests drive: CHROME_PATH, then the usual Debian paths.
// When none is there and this process may install one (root with apt-get), installs Debian's
// `chromium` and says so; otherwise stops with the one command to run.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The flags every headless launch uses on these machines (root needs --no-sandbox). */
export const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function found() {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return candidates.find((path) => existsSync(path));
}

function canInstall() {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

export function findChromium() {
  const path = found();
  if (path) return path;
  if (!canInstall()) {
    console.error('No Chromium found. Install it with:  sudo apt-get install -y chromium   (or set CHROME_PATH)');
    process.exit(1);
  }
  console.log("No Chromium found: installing Debian's chromium with apt-get …");
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', 'chromium'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const installed = found();
  if (!installed) throw new Error('apt-get installed chromium but no binary was found');
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(findChromium());
