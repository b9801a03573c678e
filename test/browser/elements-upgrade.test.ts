// Markup and properties that exist before dist/elements.js defines the elements still take
// effect (pre-upgrade); a second load of the module defines nothing twice; the dialogs' iam-close
// crosses a host's shadow root (bubbles + composed).
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { api, byRole, signIn, until } from './console/helpers.js';
import { adminCredentials, type Dispatched, type IamElement } from './helpers.js';

afterEach(() => fixtureCleanup());
// The browser's cookies are shared by the test files: the next file starts signed out.
after(() => api('GET', '/cas/logout'));

describe('the elements before their definition', () => {
  it('take markup and properties set before the script loaded', async () => {
    const admin = await adminCredentials();
    await signIn(admin.username, admin.password);
    document.body.insertAdjacentHTML(
      'beforeend',
      '<iam-provider id="early" theme="dark"><iam-console ui-embed routing="memory"></iam-console><iam-password-dialog></iam-password-dialog></iam-provider>',
    );
    const provider = document.getElementById('early') as IamElement;
    const consoleElement = provider.querySelector<IamElement>('iam-console');
    const dialog = provider.querySelector<IamElement>('iam-password-dialog');
    provider.theme = 'light';
    consoleElement.route = '/profile/userInfo';
    dialog.mode = 'self';
    dialog.open = true;
    expect(customElements.get('iam-console')).to.equal(undefined);

    await import('../../dist/elements.js');
    await until(() => byRole(consoleElement.shadowRoot, 'heading', 'Personal center'), 'the pre-upgrade route was lost');
    expect(consoleElement.getAttribute('route')).to.equal('/profile/userInfo');
    expect(provider.getAttribute('theme'), 'the provider property went through its accessor').to.equal('light');
    expect(consoleElement.getAttribute('theme'), 'and reached the console').to.equal('light');
    await until(() => byRole(dialog.shadowRoot, 'dialog', 'Reset password'), 'the pre-upgrade open dialog did not show');
    provider.remove();
  });

  it('loads twice without a define error, keeping the first definitions', async () => {
    const first = customElements.get('iam-console');
    const errors: string[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.message);
    window.addEventListener('error', onError);
    // Another URL: the browser evaluates the entry a second time (a second copy on the page).
    await import('../../dist/elements.js?second-copy');
    window.removeEventListener('error', onError);
    expect(errors).to.deep.equal([]);
    expect(customElements.get('iam-console') === first).to.equal(true);
    for (const tag of ['iam-login', 'iam-profile-dialog', 'iam-password-dialog', 'iam-provider']) expect(customElements.get(tag), tag).to.not.equal(undefined);
  });
});

describe('dialog events', () => {
  for (const [tag, name] of [
    ['iam-profile-dialog', 'Edit personal information'],
    ['iam-password-dialog', 'Reset password'],
  ]) {
    it(`${tag} fires iam-close, bubbling and composed, out of a host shadow root`, async () => {
      const host = await fixture(html`<div></div>`);
      const shadow = host.attachShadow({ mode: 'open' });
      const element: IamElement = document.createElement(tag);
      element.open = true;
      shadow.append(element);
      await until(() => byRole(element.shadowRoot, 'dialog', name), `no dialog "${name}"`);
      const closed = new Promise<Dispatched>((resolve) =>
        document.addEventListener('iam-close', (event) => resolve({ event: event as CustomEvent, target: event.composedPath()[0] }), { once: true }),
      );
      await sendKeys({ press: 'Escape' });
      const { event, target } = await closed;
      expect(event.bubbles && event.composed).to.equal(true);
      expect(event.detail).to.deep.equal({});
      expect(target === element, `the event comes from <${tag}>`).to.equal(true);
      expect(element.hasAttribute('open')).to.equal(false);
    });
  }
});
