// Style isolation of <iam-console> (hostile host CSS does not reach its shadow content; its styles
// do not leak out to the host's elements) and memory routing that never touches the host's URL or
// history while following `route`.
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import '../../dist/elements.js';
import { api, byRole, signIn, until } from './console/helpers.js';
import { adminCredentials, type Credentials, type IamElement } from './helpers.js';

const hostile = new CSSStyleSheet();
hostile.replaceSync('* { color: red !important; font-size: 40px !important } button { display: none !important }');

let admin: Credentials;

before(async () => {
  admin = await adminCredentials();
  await setViewport({ width: 1280, height: 800 });
  await signIn(admin.username, admin.password);
});

// The browser's cookies are shared by the test files: the next file starts signed out.
after(() => api('GET', '/cas/logout'));

afterEach(() => {
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== hostile);
  fixtureCleanup();
});

/** Colour, size and display of an element, as the browser computes them. */
function looks(element: Element) {
  const style = getComputedStyle(element);
  return { color: style.color, fontSize: style.fontSize, display: style.display, fontFamily: style.fontFamily, background: style.backgroundColor };
}

describe('style isolation', () => {
  it("hostile host CSS does not change the console's shadow content", async () => {
    const element = await fixture(html`<iam-console routing="memory" route="/profile/userInfo"></iam-console>`);
    const root = element.shadowRoot;
    const heading = await until(() => byRole(root, 'heading', 'Personal center'), 'no personal center');
    const button = byRole(root, 'button', 'Change password');
    const before = { heading: looks(heading), button: looks(button) };

    document.adoptedStyleSheets = [...document.adoptedStyleSheets, hostile];
    const after = { heading: looks(heading), button: looks(button) };
    expect(after).to.deep.equal(before);
    expect(after.button.display).to.not.equal('none');
    expect(after.heading.color).to.not.equal('rgb(255, 0, 0)');
    expect(after.heading.fontSize).to.not.equal('40px');
    // The hostile sheet does apply to the page itself (so the comparison above could fail).
    const outside = await fixture(html`<button type="button">Host button</button>`);
    expect(getComputedStyle(outside).display).to.equal('none');
  });

  it("the console's styles do not leak out to the host's elements", async () => {
    const host = await fixture(
      html`<div>
        <h2>Host heading</h2>
        <button type="button">Host button</button>
        <p class="content">Host text</p>
      </div>`,
    );
    const [heading, button, text] = host.children;
    const before = [looks(heading), looks(button), looks(text)];
    const element = await fixture(html`<iam-console routing="memory" route="/profile/userInfo"></iam-console>`);
    await until(() => byRole(element.shadowRoot, 'heading', 'Personal center'), 'no personal center');
    expect([looks(heading), looks(button), looks(text)]).to.deep.equal(before);
    expect(document.querySelectorAll('style')).to.have.length(0);
  });
});

describe('memory routing', () => {
  it('follows `route` and reports iam-navigate without touching location or history', async () => {
    const href = location.href;
    const length = history.length;
    const element = await fixture<IamElement>(html`<iam-console ui-embed routing="memory" route="/profile/userInfo"></iam-console>`);
    const root = element.shadowRoot;
    await until(() => byRole(root, 'heading', 'Personal center'), 'no personal center');
    expect(root.querySelector('header'), 'uiEmbed: no top bar').to.equal(null);

    const events: CustomEvent<{ path: string }>[] = [];
    element.addEventListener('iam-navigate', (event) => events.push(event as CustomEvent<{ path: string }>));
    element.route = '/operate/user';
    const event = await until(() => events.find((candidate) => candidate.detail.path === '/operate/user'), 'no iam-navigate to /operate/user');
    expect(event.bubbles && event.composed).to.equal(true);
    await until(() => byRole(root, 'heading', 'Users'), 'the route property did not navigate');

    element.setAttribute('route', '/profile/userInfo');
    await until(() => byRole(root, 'heading', 'Personal center'), 'the route attribute did not navigate back');
    expect(location.href).to.equal(href);
    expect(history.length).to.equal(length);
  });

  it('a route the host sets wins over the console announcing the page it is still on', async () => {
    const element: IamElement = Object.assign(document.createElement('iam-console'), { uiEmbed: true, routing: 'memory', route: '/profile/userInfo' });
    const announced: string[] = [];
    element.addEventListener('iam-navigate', (event) => announced.push((event as CustomEvent<{ path: string }>).detail.path));
    (await fixture(html`<div></div>`)).append(element);
    const root = element.shadowRoot;
    await until(() => announced.includes('/profile/userInfo') && byRole(root, 'heading', 'Personal center'), 'no personal center');
    element.setAttribute('route', '/operate/user');
    // What a re-render of the console does before its router has moved: the same page again.
    element.onNavigate({ path: '/profile/userInfo', title: 'Personal center – IAM Console' });
    expect(element.getAttribute('route')).to.equal('/operate/user');
    expect(announced, 'no event for a page the host has left').to.deep.equal(['/profile/userInfo']);
    await until(() => byRole(root, 'heading', 'Users'), "the host's route was overwritten");
    expect(element.getAttribute('route')).to.equal('/operate/user');
    expect(announced).to.include('/operate/user');
  });
});
