// <iam-provider> from the built bundle (dist/elements.js): its api-base, locale and theme reach the
// iam-* elements inside it, also inside another element's shadow root, and follow live changes;
// an element's own attribute wins. Also: removing and re-adding an element.
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import '../../dist/elements.js';
import { byLabel, byRole, type IamElement } from './helpers.js';
import { until } from './console/helpers.js';

afterEach(() => fixtureCleanup());

/** An <iam-provider> holding a host whose shadow root holds a fresh `tag` element. */
async function providedInShadow(tag: string, attributes: { locale?: string; theme?: string }) {
  const provider = await fixture<IamElement>(
    html`<iam-provider api-base="/api" locale=${attributes.locale} theme=${attributes.theme}><div></div></iam-provider>`,
  );
  const shadow = provider.querySelector('div').attachShadow({ mode: 'open' });
  const element = document.createElement(tag);
  shadow.append(element);
  return { provider, element };
}

const cardOf = (element: Element, heading: string) => byRole(element, 'heading', heading).parentElement;

describe('<iam-provider>', () => {
  after(() => document.querySelector('iam-login')?.setAttribute('locale', 'en'));

  it('passes locale, theme and api-base to <iam-login> inside a shadow root, and follows changes live', async () => {
    const { provider, element } = await providedInShadow('iam-login', { locale: 'zh', theme: 'light' });
    await until(() => byLabel(element, '用户名'), 'the provider locale did not reach the form');
    expect(element.getAttribute('api-base')).to.equal('/api');
    expect(element.getAttribute('theme')).to.equal('light');
    expect(getComputedStyle(cardOf(element, '登录')).backgroundColor, 'light card').to.equal('rgb(255, 255, 255)');

    provider.setAttribute('locale', 'en');
    await until(() => byLabel(element, 'Username'), 'the locale did not switch live');
    provider.theme = 'dark';
    expect(element.getAttribute('theme')).to.equal('dark');
    expect(getComputedStyle(cardOf(element, 'Sign in')).backgroundColor, 'dark card').to.equal('rgb(19, 37, 28)');
  });

  it('leaves an attribute the element has itself', async () => {
    const provider = await fixture(html`<iam-provider theme="light"><iam-login theme="dark"></iam-login><iam-login></iam-login></iam-provider>`);
    const [own, inherited] = provider.querySelectorAll('iam-login');
    await until(() => byLabel(inherited, 'Username'), 'no form');
    expect(own.getAttribute('theme')).to.equal('dark');
    expect(inherited.getAttribute('theme')).to.equal('light');
    provider.removeAttribute('theme');
    expect(own.getAttribute('theme')).to.equal('dark');
    expect(inherited.hasAttribute('theme'), 'a value the provider no longer passes is dropped').to.equal(false);
  });

  it('reaches <iam-console> and both dialogs in shadow roots', async () => {
    for (const tag of ['iam-console', 'iam-profile-dialog', 'iam-password-dialog']) {
      const { provider, element } = await providedInShadow(tag, { locale: 'en', theme: 'light' });
      expect(element.getAttribute('theme'), tag).to.equal('light');
      provider.setAttribute('theme', 'dark');
      expect(element.getAttribute('theme'), tag).to.equal('dark');
      expect(element.getAttribute('api-base'), tag).to.equal('/api');
      fixtureCleanup();
    }
  });

  it('stops passing values to an element moved out of it, and picks them up again when it is re-added', async () => {
    const { provider, element } = await providedInShadow('iam-login', { locale: 'en', theme: 'light' });
    await until(() => byLabel(element, 'Username'), 'no form');
    const outside = await fixture(html`<section></section>`);
    outside.append(element);
    provider.setAttribute('theme', 'dark');
    expect(element.getAttribute('theme'), 'no longer inside the provider').to.equal('light');
    await until(() => byLabel(element, 'Username'), 'the re-added form did not render');

    provider.append(element);
    expect(element.getAttribute('theme'), 'inside again').to.equal('dark');
    await until(() => byLabel(element, 'Username'), 'the re-added form did not render');
    outside.remove();
  });
});
