// <iam-console> from the built bundle (dist/elements.js) in headless Chromium, against the real
// API server: its sign-in page, memory routing and events, the side menu (ACL entries, unique-open,
// collapse kept in localStorage, 160/54 px, a drawer below 992 px), the theme switch and logout.
import { expect, fixture, fixtureCleanup, html, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import '../../../dist/elements.js';
import { adminCredentials, type Credentials } from '../helpers.js';
import { allByRole, api, byLabel, byRole, byText, nameOf, type, until } from './helpers.js';

let admin: Credentials;

before(async () => {
  admin = await adminCredentials();
  localStorage.clear();
  // The browser's cookies are shared by every test file: start as a visitor whatever ran before.
  await api('GET', '/cas/logout');
});

beforeEach(() => setViewport({ width: 1280, height: 800 }));
afterEach(() => fixtureCleanup());

/** A console in memory routing at `route`; `announced` resolves on its first iam-navigate (the
 *  page is shown with its title: the console has settled, so a click is not lost to it). */
async function mount(route: string) {
  const element = Object.assign(document.createElement('iam-console'), { routing: 'memory', route });
  const announced = new Promise((resolve) => element.addEventListener('iam-navigate', resolve, { once: true }));
  (await fixture(html`<div></div>`)).append(element);
  return { element, root: element.shadowRoot, announced };
}

const menuOf = (root: ParentNode) => byRole(root, 'navigation', 'Main menu');

describe('<iam-console>', () => {
  it('sends a visitor to its sign-in page, checks the form, signs in by labels and goes back', async () => {
    const pageUrl = location.href;
    const pageTitle = document.title;
    const { element, root } = await mount('/home/index');
    await until(() => byRole(root, 'heading', 'Sign in'), 'no sign-in page');
    // Memory routing: the element's route follows the console; the page's URL and title stay.
    expect(element.getAttribute('route')).to.equal('/login?redirect=%2Fhome%2Findex');
    expect(location.href).to.equal(pageUrl);

    byRole(root, 'button', 'Sign in').click();
    await until(() => byText(root, 'Please enter the correct user name'), 'no username message');
    expect(byText(root, 'The password can not be less than 6 digits')).to.not.equal(null);

    type(byLabel(root, 'Username'), admin.username);
    type(byLabel(root, 'Password'), admin.password);
    const navigated = oneEvent(element, 'iam-navigate');
    byRole(root, 'button', 'Sign in').click();
    await until(() => byRole(root, 'heading', `Welcome back, ${admin.username}`), 'no home page after signing in');
    const { detail, bubbles, composed } = await navigated;
    expect({ bubbles, composed }).to.deep.equal({ bubbles: true, composed: true });
    expect(detail.path).to.equal('/home/index');
    expect(detail.title).to.equal('Home – IAM Console');
    expect(element.getAttribute('route')).to.equal('/home/index');
    expect(location.href).to.equal(pageUrl);
    expect(document.title).to.equal(pageTitle);
  });

  it('navigates when the host sets `route`, and answers 404 for an unknown one', async () => {
    const { element, root } = await mount('/home/index');
    await until(() => byRole(root, 'heading', `Welcome back, ${admin.username}`), 'no home page');
    element.setAttribute('route', '/profile/userInfo');
    await until(() => byRole(root, 'heading', 'Personal center'), 'the route attribute did not navigate');
    element.setAttribute('route', '/no/such/page');
    await until(() => byRole(root, 'heading', 'Error: Page Not Found!'), 'no 404 page');
    expect(element.getAttribute('route')).to.equal('/404');
  });

  it('inside a host component’s closed shadow root, following a side menu entry puts the focus on the new page’s heading', async () => {
    // The page's document.activeElement stops at the host component, whose root is closed.
    const appRoot = (await fixture(html`<div></div>`)).attachShadow({ mode: 'closed' });
    const element = Object.assign(document.createElement('iam-console'), { routing: 'memory', route: '/profile/userInfo' });
    appRoot.append(element);
    const root = element.shadowRoot;
    await until(() => byRole(root, 'heading', 'Personal center'), 'no personal center');
    const home = await until(() => menuOf(root) && byRole(menuOf(root), 'link', 'Home'), 'no Home entry');
    home.focus();
    await sendKeys({ press: 'Enter' });
    const heading = await until(() => byRole(root, 'heading', `Welcome back, ${admin.username}`), 'no home page');
    await until(() => root.activeElement === heading, 'the focus did not go to the new heading');
  });

  it('the side menu: the permitted entries, one parent open at a time, collapse kept (160/54 px)', async () => {
    const { element, root, announced } = await mount('/home/index');
    await announced;
    await until(() => menuOf(root), 'no side menu');
    const menu = menuOf(root);
    const aside = menu.closest('aside');
    expect(aside.getBoundingClientRect().width).to.equal(160);
    expect(allByRole(menu, 'link').map(nameOf)).to.deep.equal(['Home']);

    const operations = byRole(menu, 'button', 'Operations');
    const personal = byRole(menu, 'button', 'Personal');
    operations.click();
    await until(() => operations.getAttribute('aria-expanded') === 'true', 'Operations did not open');
    expect(allByRole(menu, 'link').map(nameOf)).to.deep.equal([
      'Home',
      'Apps',
      'Users',
      'Tenants',
      'Login settings',
      'Channels',
      'Menu plans',
      'Audit log',
      'Provisioning (SCIM)',
      'Webhooks',
    ]);
    personal.click();
    await until(() => personal.getAttribute('aria-expanded') === 'true', 'Personal did not open');
    expect(operations.getAttribute('aria-expanded')).to.equal('false');
    expect(allByRole(menu, 'link').map(nameOf)).to.deep.equal(['Home', 'Messages', 'Message history', 'Personal center']);

    const navigated = oneEvent(element, 'iam-navigate');
    byRole(menu, 'link', 'Message history').click();
    expect((await navigated).detail.path).to.equal('/profile/messageHis');
    await until(() => byRole(menu, 'link', 'Message history').getAttribute('aria-current') === 'page', 'the entry is not marked current');

    byRole(root, 'button', 'Collapse the menu').click();
    await until(() => aside.getBoundingClientRect().width === 54, 'the menu did not collapse to 54 px');
    expect(localStorage.getItem('iam-sidebar-collapsed')).to.equal('1');
    // Collapsed entries keep their names (only the icons show).
    expect(byRole(menu, 'link', 'Home')).to.not.equal(null);

    fixtureCleanup();
    const again = await mount('/home/index');
    await until(() => menuOf(again.root), 'no side menu');
    expect(menuOf(again.root).closest('aside').getBoundingClientRect().width).to.equal(54);
    byRole(again.root, 'button', 'Expand the menu').click();
    await until(() => menuOf(again.root).closest('aside').getBoundingClientRect().width === 160, 'the menu did not expand');
    expect(localStorage.getItem('iam-sidebar-collapsed')).to.equal('0');
  });

  it('below 992 px the menu is a drawer that closes on route change', async () => {
    await setViewport({ width: 390, height: 844 });
    const { element, root, announced } = await mount('/home/index');
    await announced;
    expect(root.querySelector('aside')).to.equal(null);
    byRole(root, 'button', 'Open the menu').click();
    const drawer = await until(() => byRole(root, 'dialog', 'Main menu'), 'the drawer did not open');
    byRole(drawer, 'button', 'Personal').click();
    await until(() => byRole(drawer, 'link', 'Personal center'), 'Personal did not open');
    byRole(drawer, 'link', 'Personal center').click();
    await until(() => !byRole(root, 'dialog', 'Main menu'), 'the drawer stayed open');
    expect(element.getAttribute('route')).to.equal('/profile/userInfo');
  });

  it('switches the theme: the host attribute and the colours follow', async () => {
    const { element, root } = await mount('/home/index');
    await until(() => root.querySelector('header'), 'no top bar');
    const header = root.querySelector('header');
    const dark = getComputedStyle(header).backgroundColor;
    byRole(root, 'button', 'Switch to the light theme').click();
    await until(() => element.getAttribute('theme') === 'light', 'the theme attribute did not follow');
    await until(() => getComputedStyle(header).backgroundColor !== dark, 'the colours did not change');
    expect(localStorage.getItem('iam-theme')).to.equal('light');
    byRole(root, 'button', 'Switch to the dark theme').click();
    await until(() => getComputedStyle(header).backgroundColor === dark, 'the dark theme did not come back');
  });

  it('signs out after "Are you sure to logout?" and fires iam-logout', async () => {
    const { element, root } = await mount('/home/index');
    const trigger = await until(() => byRole(root, 'button', `Account menu of ${admin.username}`), 'no user menu');
    // A press as a mouse makes it: Radix's trigger opens on pointerdown, the stand-in button drawn
    // while the dropdown's chunk loads reacts to the click.
    trigger.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0, pointerType: 'mouse' }));
    trigger.click();
    const menu = await until(() => byRole(root, 'menu'), 'the user menu did not open');
    expect(allByRole(menu, 'menuitem').map(nameOf)).to.deep.equal(['Profile', 'Reset password', 'Sign out']);
    expect(byText(menu, 'Platform administrator')).to.not.equal(null);
    byRole(menu, 'menuitem', 'Sign out').click();
    const dialog = await until(() => byRole(root, 'dialog', 'Sign out'), 'no confirmation');
    expect(byText(dialog, 'Sign out of the console? You will need to sign in again to continue.')).to.not.equal(null);
    const loggedOut = oneEvent(element, 'iam-logout');
    byRole(dialog, 'button', 'Sign out').click();
    expect((await loggedOut).detail).to.deep.equal({ redirectURL: '/login' });
    await until(() => byRole(root, 'heading', 'Sign in'), 'not back at the sign-in page');
    expect(element.getAttribute('route')).to.equal('/login');
  });
});
