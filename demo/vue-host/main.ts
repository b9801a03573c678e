// A Vue 3 host page using the elements with their typings (HTMLElementEventMap and
// HTMLElementTagNameMap come from src/elements/types, what `iam-console/elements` ships). The
// elements load from /dist/elements.js (a separate script): this bundle has only the host.
//
// Render functions and Vue's runtime-only build: the template compiler builds code with
// `new Function`, which the strict CSP forbids. Without a compiler Vue resolves no component
// names, so `compilerOptions.isCustomElement` has nothing to act on (the runtime-only build
// ignores it): the iam-* tags go to h() as plain strings and Vue creates them as native custom
// elements: a `.` prefix sets a DOM property, a `^` prefix an attribute.
import { camelize, createApp, defineComponent, h, onMounted, ref, toHandlerKey } from 'vue';
import type {} from '../../src/elements/index';

type Locale = 'en' | 'zh';
type Theme = 'dark' | 'light';
type IamEvent = Extract<keyof HTMLElementEventMap, `iam-${string}`>;

/** Vue's listener prop for an iam-* event (`iam-navigate` → `onIamNavigate`), typed by the
 *  event map so that `event.detail` has the element's detail type. */
function on<Type extends IamEvent>(type: Type, listener: (event: HTMLElementEventMap[Type]) => void): Record<string, typeof listener> {
  return { [toHandlerKey(camelize(type))]: listener };
}

/** The host's own navigation: console routes in memory routing. */
const destinations = [
  { label: 'Home', route: '/home/index' },
  { label: 'Users', route: '/operate/user' },
  { label: 'Tenants', route: '/operate/tenant/list' },
  { label: 'My account', route: '/profile/userInfo' },
] as const;

/** The destination `path` belongs to (itself or a page below it). */
function isWithin(path: string, route: string): boolean {
  return path === route || path.startsWith(`${route}/`);
}

/** Whether the browser already has a session (GET /cas/login is public and answers either way). */
async function signedInAlready(): Promise<boolean> {
  try {
    const answer = (await (await fetch('/api/cas/login', { credentials: 'same-origin' })).json()) as { data?: { loginSuccess?: boolean } };
    return answer.data?.loginSuccess === true;
  } catch {
    return false;
  }
}

const HostApp = defineComponent(() => {
  const checked = ref(false);
  const signedIn = ref(false);
  const route = ref<string>('/home/index');
  const title = ref('');
  const status = ref('');
  const locale = ref<Locale>('en');
  const theme = ref<Theme>('light');

  onMounted(async () => {
    signedIn.value = await signedInAlready();
    checked.value = true;
  });

  const onSignedIn = on('iam-login-success', (event) => {
    status.value = `Signed in as ${event.detail.username}.`;
    signedIn.value = true;
  });
  const onLoginError = on('iam-error', (event) => {
    status.value = `Not signed in: ${event.detail.message}`;
  });
  const onNavigate = on('iam-navigate', (event) => {
    if (event.detail.external) return;
    route.value = event.detail.path;
    title.value = event.detail.title ?? '';
  });
  const onLogout = on('iam-logout', () => {
    status.value = 'Signed out.';
    signedIn.value = false;
  });

  const navigation = () =>
    h('nav', { 'aria-label': 'Vue host' }, [
      h(
        'ul',
        destinations.map(({ label, route: target }) =>
          h('li', { key: target }, [
            h(
              'a',
              {
                href: `#${target}`,
                'aria-current': isWithin(route.value, target) ? 'page' : undefined,
                // The host keeps its URL: the console's memory routing does the navigation.
                onClick: (event: MouseEvent) => {
                  event.preventDefault();
                  route.value = target;
                },
              },
              label,
            ),
          ]),
        ),
      ),
    ]);

  const switches = () =>
    h('div', { class: 'vue-host-switches' }, [
      h('button', { type: 'button', 'aria-pressed': String(locale.value === 'en'), onClick: () => (locale.value = 'en') }, 'English'),
      h('button', { type: 'button', lang: 'zh', 'aria-pressed': String(locale.value === 'zh'), onClick: () => (locale.value = 'zh') }, '中文'),
      h(
        'button',
        { type: 'button', onClick: () => (theme.value = theme.value === 'dark' ? 'light' : 'dark') },
        theme.value === 'dark' ? 'Light theme' : 'Dark theme',
      ),
    ]);

  // The locale and theme go to the elements as attributes (`^`); `route` as the console's property (`.`).
  const content = () => {
    if (!checked.value) return null;
    if (!signedIn.value) {
      return h('iam-login', { '^api-base': '/api', '^locale': locale.value, '^theme': theme.value, ...onSignedIn, ...onLoginError });
    }
    return h('iam-console', {
      '^api-base': '/api',
      '^locale': locale.value,
      '^theme': theme.value,
      '^routing': 'memory',
      'ui-embed': '',
      '.route': route.value,
      ...onNavigate,
      ...onLogout,
    });
  };

  return () => [
    h('header', { class: 'vue-host-bar' }, [
      h('strong', 'Vue host'),
      h('span', { class: 'vue-host-title' }, title.value),
      h('span', { role: 'status' }, status.value),
      switches(),
    ]),
    h('div', { class: 'vue-host-layout' }, [signedIn.value ? navigation() : null, h('main', [content()])]),
  ];
});

const mountPoint = document.getElementById('vue-host');
if (mountPoint) createApp(HostApp).mount(mountPoint);
