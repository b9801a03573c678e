// A React 19 host page using the elements with their typings: the JSX intrinsic elements and
// HTMLElementEventMap come from src/elements/types (what `iam-console/elements` ships). The
// elements themselves load from /dist/elements.js (a separate script): this bundle has only the host.
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type {} from '../../src/elements/index';

type Theme = 'dark' | 'light';

/** Subscribes `listener` to the typed iam-* event `type` of the element behind `ref`. */
function useElementEvent<Type extends keyof HTMLElementEventMap>(
  ref: { current: HTMLElement | null },
  type: Type,
  listener: (event: HTMLElementEventMap[Type]) => void,
): void {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    element.addEventListener(type, listener);
    return () => element.removeEventListener(type, listener);
  }, [ref, type, listener]);
}

function HostApp() {
  const consoleRef = useRef<HTMLElementTagNameMap['iam-console']>(null);
  const [theme, setTheme] = useState<Theme>('light');
  const [route, setRoute] = useState('/home/index');
  const [title, setTitle] = useState('');
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const [saved, setSaved] = useState('');
  const passwordRef = useRef<HTMLElementTagNameMap['iam-password-dialog']>(null);
  const profileRef = useRef<HTMLElementTagNameMap['iam-profile-dialog']>(null);

  const onNavigate = useState(() => (event: HTMLElementEventMap['iam-navigate']) => {
    if (event.detail.external) return;
    setRoute(event.detail.path);
    setTitle(event.detail.title ?? '');
  })[0];
  const onPasswordClose = useState(() => () => setPasswordOpen(false))[0];
  const onProfileClose = useState(() => () => setProfileOpen(false))[0];
  const onProfileSaved = useState(
    () => (event: HTMLElementEventMap['iam-profile-saved']) => setSaved(`Profile saved (${event.detail.userId.slice(0, 8)}).`),
  )[0];
  useElementEvent(consoleRef, 'iam-navigate', onNavigate);
  useElementEvent(passwordRef, 'iam-close', onPasswordClose);
  useElementEvent(profileRef, 'iam-close', onProfileClose);
  useElementEvent(profileRef, 'iam-profile-saved', onProfileSaved);

  return (
    <iam-provider api-base="/api" theme={theme}>
      <header className="react-host-bar">
        <strong>React host</strong>
        <span className="react-host-title">{title}</span>
        <span role="status">{saved}</span>
        <button type="button" onClick={() => setRoute('/home/index')}>
          Home
        </button>
        <button type="button" onClick={() => setRoute('/profile/userInfo')}>
          My account
        </button>
        <button type="button" onClick={() => setProfileOpen(true)}>
          Edit profile
        </button>
        <button type="button" onClick={() => setPasswordOpen(true)}>
          Change password
        </button>
        <button type="button" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}>
          {theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
      </header>
      <main>
        <iam-console ref={consoleRef} ui-embed routing="memory" route={route} />
      </main>
      {/* React 19 sets `open` as the element's property; iam-close sets the state back. */}
      <iam-password-dialog ref={passwordRef} mode="self" open={passwordOpen} />
      <iam-profile-dialog ref={profileRef} open={profileOpen} />
    </iam-provider>
  );
}

const root = document.getElementById('react-host');
if (root)
  createRoot(root).render(
    <StrictMode>
      <HostApp />
    </StrictMode>,
  );
