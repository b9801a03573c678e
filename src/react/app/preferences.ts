// The person's choices kept in localStorage: theme and side menu state. (The locale is kept by the
// core's setLocale.) Storage may be unavailable (privacy mode, sandboxed frames): the choice then
// lasts for the page only.
import { LAYOUT } from '../../core/config';
import { Theme } from '../../core/enums';

const THEME_KEY = 'iam-theme';

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Not kept; see above.
  }
}

export function isTheme(value: unknown): value is Theme {
  return value === Theme.Dark || value === Theme.Light;
}

export function storedTheme(): Theme | undefined {
  const saved = read(THEME_KEY);
  return isTheme(saved) ? saved : undefined;
}

export function saveTheme(theme: Theme): void {
  write(THEME_KEY, theme);
}

export function storedSidebarCollapsed(): boolean {
  return read(LAYOUT.sidebarStorageKey) === '1';
}

export function saveSidebarCollapsed(collapsed: boolean): void {
  write(LAYOUT.sidebarStorageKey, collapsed ? '1' : '0');
}
