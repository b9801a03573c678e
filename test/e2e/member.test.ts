// An ordinary user (created through the API by the administrator) sees only their own entries,
// gets /403 for the admin pages, reads their unread messages on the home page, and manages their
// avatar and sessions in the personal center. Each test has a member of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, ApiClient, openPage, type WatchedPage, startServerAndBrowser } from './harness';
import { signIn, until } from './admin-support';
import { tinyPng } from './images';

const PASSWORD = 'Member-e2e-1';

const { server, browser } = await startServerAndBrowser();
const admin = new ApiClient(server.url);
await admin.signIn(ADMIN.username, ADMIN.password);
// An app everybody may open: its menu plan has an item bound to no privilege.
const wikiApp = await admin.call<{ id: string }>('POST', '/apps', { name: 'Wiki', entrypoint: 'https://wiki.example.com/' });
await admin.call('POST', '/menu-plans', { appId: wikiApp.id, name: 'Wiki menu', items: [{ name: 'Pages', path: '/pages' }] });
// The unified top menu (topMenuType 'unify') lists the portal's apps in the top bar.
const { version } = await admin.call<{ version: number }>('GET', '/config');
await admin.call('PUT', '/config', { system: { topMenuType: 'unify' }, version });
let members = 0;

interface Member {
  username: string;
  realName: string;
  watched: WatchedPage;
  page: Page;
  /** A second, API-only session of the member. */
  otherSession: ApiClient;
}

/** Each test's own fixture: a new member with one unread message, signed in on a page of their own
 *  (through the sign-in form, or through the API where the test is about what comes after). */
async function signedInMember(through: 'form' | 'api' = 'api'): Promise<Member> {
  members += 1;
  const username = `mia-${members}`;
  const realName = `Mia_${members}`;
  const memberId = await admin.createUser({ username, realName, password: PASSWORD });
  await admin.call('POST', '/messages', { title: 'Welcome aboard', content: 'Your account is ready.', userIds: [memberId] });
  const otherSession = new ApiClient(server.url);
  await otherSession.signIn(username, PASSWORD);
  const watched = await openPage(browser);
  const { page } = watched;
  if (through === 'api') await signIn(page, server.url, username, PASSWORD);
  else {
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { name: `Welcome back, ${realName}` }).waitFor();
  return { username, realName, watched, page, otherSession };
}

const mainMenu = (page: Page) => page.getByRole('navigation', { name: 'Main menu' });

test('the member signs in and sees only their own entries', async () => {
  const { watched, page } = await signedInMember('form');
  assert.equal(new URL(page.url()).pathname, '/home/index');

  await mainMenu(page).getByRole('button', { name: 'Personal' }).click();
  const entries = await mainMenu(page).getByRole('link').allInnerTexts();
  assert.deepEqual(
    entries.map((text) => text.trim()),
    ['Home', 'Messages', 'Message history', 'Personal center'],
  );
  assert.equal(await mainMenu(page).getByRole('button', { name: 'Operations' }).count(), 0);

  // The home page: the apps they may open, no admin areas, the role, and the unread messages.
  const wiki = page.getByRole('region', { name: 'Your apps' }).getByRole('link', { name: /^Wiki/ });
  assert.equal(await wiki.getAttribute('href'), 'https://wiki.example.com/');
  assert.equal(await wiki.getAttribute('target'), '_blank');
  const topMenu = page.getByRole('navigation', { name: 'Apps' });
  assert.equal(await topMenu.getByRole('link', { name: /^Wiki/ }).getAttribute('href'), 'https://wiki.example.com/');
  await page.getByText('You have no administration areas. Your personal pages are in the menu.').waitFor();
  await page.getByText('Member', { exact: true }).first().waitFor();
  const messages = page.getByRole('region', { name: 'Unread messages' });
  await messages.getByText('Welcome aboard').waitFor();
  // The browser is a new device after the other session's sign-in (server/auth/devices.ts).
  await messages.getByText('New sign-in to your account').waitFor();
  await messages.getByRole('link', { name: 'All messages (2 unread)' }).waitFor();
  assert.deepEqual(watched.errors, []);
});

test('the admin pages answer 403 with the redirect query', async () => {
  const { watched, page, realName } = await signedInMember();
  for (const path of ['/operate/user', '/operate/setting', '/app/detail/anything', '/operate']) {
    await page.goto(`${server.url}${path}`);
    await page.getByRole('heading', { name: 'You do not have permissions to access this page' }).waitFor();
    const url = new URL(page.url());
    assert.equal(url.pathname, '/403');
    assert.equal(url.searchParams.get('redirect'), path);
    await page.getByText('Please contact your administrator').waitFor();
  }
  await page.getByRole('link', { name: 'Back to home' }).click();
  await page.getByRole('heading', { name: `Welcome back, ${realName}` }).waitFor();
  assert.deepEqual(watched.errors, []);
});

test('the personal center: avatar upload and signing out the other sessions', async () => {
  const { watched, page, username, realName, otherSession } = await signedInMember();
  await mainMenu(page).getByRole('button', { name: 'Personal' }).click();
  await mainMenu(page).getByRole('link', { name: 'Personal center' }).click();
  await page.getByRole('heading', { name: 'Personal center', level: 1 }).waitFor();
  const details = page.getByRole('region', { name: 'Details' });
  await details.getByText(username, { exact: true }).waitFor();

  // A wrong file type is refused before anything is sent.
  const avatarCard = page.getByRole('region', { name: 'Avatar' });
  await avatarCard.getByLabel('Avatar').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await avatarCard.getByText('Only png, jpg, jpeg, gif and svg images are allowed').nth(1).waitFor();

  await avatarCard.getByLabel('Avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: tinyPng(48, [200, 120, 40]) });
  await page.getByText('Profile photo updated').waitFor();
  await avatarCard.getByRole('img', { name: 'Avatar preview' }).waitFor();
  const topBarAvatar = page.getByRole('button', { name: `Account menu of ${realName}` }).locator('img');
  await topBarAvatar.waitFor();

  const sessions = page.getByRole('region', { name: 'Active sessions' });
  await sessions.getByText('This device').waitFor();
  assert.equal(await sessions.getByRole('listitem').count(), 2);
  await sessions.getByRole('button', { name: 'Sign out other sessions' }).click();
  await page.getByText('Signed out on every other device').waitFor();
  await sessions.getByRole('listitem').nth(1).waitFor({ state: 'detached' });
  assert.equal(await sessions.getByRole('listitem').count(), 1);
  await assert.rejects(otherSession.call('GET', '/cas/session'), /401/);
  assert.deepEqual(watched.errors, []);
});

test('a global menu plan orders and names the side menu; entries the member may not open stay out', async () => {
  const { watched, page } = await signedInMember();
  await page.goto(`${server.url}/profile/userInfo`);
  await page.getByRole('heading', { name: 'Personal center', level: 1 }).waitFor();
  const plan = await admin.call<{ id: string }>('POST', '/menu-plans', {
    appId: null,
    name: 'Portal menu',
    items: [
      {
        name: 'My desk',
        path: '/profile',
        icon: 'profile',
        children: [
          { name: 'About me', path: '/profile/userInfo' },
          { name: 'Inbox', path: '/profile/message' },
        ],
      },
      { name: 'Start', path: '/home/index', icon: 'home' },
      { name: 'People', path: '/operate/user' },
    ],
  });
  // The global plan changes every menu: gone again after this test, whatever happens in it.
  try {
    await page.reload();
    // The current page (the personal center) is under 'My desk', which is therefore open.
    const desk = mainMenu(page).getByRole('button', { name: 'My desk' });
    await desk.waitFor();
    // (The side menu opens the current page's parent in an effect when its items change.)
    await until(async () => (await desk.getAttribute('aria-expanded')) === 'true').catch(async () =>
      assert.equal(await desk.getAttribute('aria-expanded'), 'true'),
    );
    await mainMenu(page).getByRole('link', { name: 'About me' }).waitFor();
    const entries = await mainMenu(page).getByRole('link').allInnerTexts();
    assert.deepEqual(
      entries.map((text) => text.trim()),
      ['About me', 'Inbox', 'Start'],
    );
    await mainMenu(page).getByRole('link', { name: 'Inbox' }).click();
    await page.waitForURL((url) => url.pathname === '/profile/message');
  } finally {
    await admin.call('DELETE', `/menu-plans/${plan.id}`);
  }
  assert.deepEqual(watched.errors, []);
});
