// Screenshots of the console page that `npm start` serves (the real server, its CSP included, with
// sample data seeded through the API). Desktop (1280×800) in the dark theme: every main screen, the
// dialogs, 403/404 and the demo pages. The light theme on desktop and both themes on a phone
// (390×844): the main screens a newcomer looks at first (FEATURED) and the profile, password and
// user edit dialogs, plus the demo pages in light. Any console error, page error or CSP violation
// is reported and fails the run. Not a test (the suite does not run it): a tool for looking at pages.
// Usage: npm run screenshots (scripts/screenshots.mjs: builds if needed, writes docs/screenshots/),
// or after a build: node --import tsx test/e2e/screenshots.ts [out-dir]   (default /tmp/shots)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ADMIN, launchBrowser, openPage, startServer } from './harness';
import { consoleScreens, MEMBER, seedSample } from './a11y-support';

const outDir = process.argv[2] ?? '/tmp/shots';
const viewports = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } } as const;
const themes = ['dark', 'light'] as const;
/** Pictured in every variant; the other screens and dialogs only on desktop in the dark theme. */
const FEATURED = new Set([
  'sign-in',
  'home',
  'users',
  'tenants',
  'app-detail',
  'login-settings',
  'channels',
  'messages',
  'personal-center',
  'profile-dialog',
  'password-dialog',
  'user-edit-dialog',
  'audit-log',
  'menu-detail',
]);

/** Fonts loaded and animations (dialogs fade in) finished. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const root = document.querySelector('iam-console')?.shadowRoot;
    // An animation cancelled meanwhile (its element left) rejects `finished`: that is settled too.
    await Promise.all([...document.getAnimations(), ...(root?.getAnimations() ?? [])].map((animation) => animation.finished.catch(() => undefined)));
  });
}

mkdirSync(outDir, { recursive: true });
const server = await startServer();
const ids = await seedSample(server.url, 24);
const browser = await launchBrowser();
const demos = ['login', 'portal', 'react', 'vue'];
const problems: string[] = [];
try {
  for (const [device, viewport] of Object.entries(viewports)) {
    for (const theme of themes) {
      const { page, context, errors } = await openPage(browser, { viewport });
      await context.addInitScript((chosen) => localStorage.setItem('iam-theme', chosen), theme);
      const everything = device === 'desktop' && theme === 'dark';
      const wanted = (name: string) => everything || FEATURED.has(name);
      const shot = async (name: string) => {
        // The pointer rests in a corner, so no hover effect shows where the last click was.
        await page.mouse.move(viewport.width - 1, viewport.height - 1);
        await settled(page);
        const path = join(outDir, `console-${name}-${device}-${theme}.png`);
        await page.screenshot({ path });
        console.log(path);
      };

      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await shot('sign-in');

      await page.getByLabel('Username').fill(ADMIN.username);
      await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: /^Welcome back/ }).waitFor();
      await page.getByRole('region', { name: 'Recent sign-ins' }).getByRole('listitem').first().waitFor();
      await shot('home');

      await page.getByRole('button', { name: /^Account menu of / }).click();
      await page.getByRole('menuitem', { name: 'Profile' }).click();
      const profile = page.getByRole('dialog', { name: 'Edit personal information' });
      await profile.getByRole('button', { name: 'Save' }).and(page.locator(':enabled')).waitFor();
      await profile.getByRole('button', { name: 'Upload' }).waitFor();
      await shot('profile-dialog');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: /^Account menu of / }).click();
      await page.getByRole('menuitem', { name: 'Reset password' }).click();
      const password = page.getByRole('dialog', { name: 'Reset password' });
      await password.getByRole('button', { name: 'OK' }).click();
      await password.getByText('Please enter the password again').waitFor();
      await shot('password-dialog');
      await page.keyboard.press('Escape');

      for (const screen of consoleScreens(ids, 'en').filter(({ name }) => !['home', '403', '404'].includes(name) && wanted(name))) {
        await page.goto(`${server.url}${screen.path}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await screen.then?.(page);
        await shot(screen.name);
      }
      await page.goto(`${server.url}/operate/user`);
      await page.getByRole('cell', { name: MEMBER, exact: true }).waitFor();
      if (everything) {
        await page.getByRole('button', { name: 'New user' }).click();
        await page.getByRole('dialog').waitFor();
        await shot('user-create-dialog');
        await page.keyboard.press('Escape');
      }
      await page.getByRole('button', { name: `Edit ${MEMBER}`, exact: true }).click();
      await page.getByRole('dialog').waitFor();
      await shot('user-edit-dialog');
      await page.keyboard.press('Escape');
      if (everything) {
        await page.getByRole('button', { name: `More actions for ${MEMBER}` }).click();
        await page.getByRole('menuitem', { name: 'Delete' }).click();
        await page.getByRole('dialog').waitFor();
        await shot('delete-confirmation');
        await page.keyboard.press('Escape');
      }

      if (everything) {
        await page.goto(`${server.url}/403?redirect=%2Foperate%2Fuser`);
        await page.getByRole('heading', { name: 'You do not have permissions to access this page' }).waitFor();
        await shot('403');

        await page.goto(`${server.url}/no/such/page`);
        await page.getByRole('heading', { name: 'Error: Page Not Found!' }).waitFor();
        await shot('404');
      }

      if (device === 'desktop') {
        for (const demo of demos) {
          await page.goto(`${server.url}/demo/${demo}.html`);
          await page.waitForLoadState('networkidle');
          await page.mouse.move(viewport.width - 1, viewport.height - 1);
          const path = join(outDir, `demo-${demo}-${theme}.png`);
          await page.screenshot({ path });
          console.log(path);
        }
      }

      problems.push(...errors.map((error) => `${device}/${theme}: ${error}`));
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
if (problems.length) {
  console.error(`Problems:\n${problems.join('\n')}`);
  process.exitCode = 1;
}
