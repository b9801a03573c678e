// Defaults "System config" and "Other settings", and the business constants
import type { AuthType, Theme, TopMenuType, YesNo } from './enums';

/** paging defaults. */
export const PAGING = { page: 1, size: 10 } as const;

/** HTTP client constants. `tracePath` is the trace collector, used only when tracing is on. */
export const HTTP = { apiBase: '/api', timeoutMs: 30_000, tracePath: '/trace' } as const;

/** upload limits (bytes; 1 KB = 1024 bytes) and preview widths (px). */
export const UPLOAD = {
  iconMaxBytes: 150 * 1024,
  faviconMaxBytes: 20 * 1024,
  iconPreviewWidth: 290,
  faviconPreviewWidth: 46,
} as const;

/** password length policy (before the transform). */
export const PASSWORD = { minLength: 6, maxLength: 20 } as const;

/** layout constants (px). */
export const LAYOUT = {
  mobileBreakpoint: 992,
  sidebarWidthOpen: 160,
  sidebarWidthCollapsed: 54,
  topNavHeight: 50,
  sideMenuMaxDepth: 2,
  sideMenuUniqueOpen: true,
  /** The local-storage key under which the side menu's collapsed state is kept. */
  sidebarStorageKey: 'iam-sidebar-collapsed',
} as const;

/** toast durations (ms). */
export const TOAST = { defaultMs: 5_000, forbiddenMs: 2_000, errorMs: 6_000 } as const;

/** timings (ms). */
export const TIMING = { errorThrottleMs: 100, searchDebounceMs: 50, menuScrollRefreshMs: 200 } as const;

/** remaining constants. */
export const APP = {
  fallbackVersion: 'v1.0.0',
  defaultLocale: 'en',
  defaultTheme: 'dark' as Theme,
  styleBasePath: '/scss',
  routerBase: '/',
  routerMode: 'history',
} as const;

/** "System config" (branding and login page). */
export interface SystemConfig {
  appName: string;
  appLogo: string;
  appBrandImage: string;
  appBrandImageLight: string;
  copyright: string;
  loginLogoPath: string;
  loginSign: string;
  supportThirdLogin: YesNo;
  globalMenu: string;
  projectScene: string;
  loginTheme: string;
  topMenuType: TopMenuType;
  tdIamUiUrl: string;
}

export interface AuthConfig {
  authType: AuthType;
  tokenName: string;
}

/** Menu allow/deny rules: entries are route paths or route names; see acl.ts `filterMenu`. */
export interface MenuConfig {
  allow: string[];
  deny: string[];
}

export interface BusinessConfig {
  /** The tracing switch: 'Y' sends traces to the collector at /trace. */
  skywalkingSwitch: YesNo;
  /** The ACL-check switch: 'N' disables the route permission check. */
  aclSwitch: YesNo;
}

/** "Other settings". */
export interface OtherSettings {
  showSettings: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  darkMode: boolean;
  uiEmbed: boolean;
  userBackendService: string;
  authConfig: AuthConfig;
  menuConfig: MenuConfig;
  moduleConfig: Record<string, unknown>;
  business: BusinessConfig;
}

export interface IamConfig {
  system: SystemConfig;
  settings: OtherSettings;
}

export const defaultSystemConfig: SystemConfig = {
  appName: 'IAM Console',
  appLogo: '',
  appBrandImage: '',
  appBrandImageLight: '',
  copyright: '',
  loginLogoPath: '',
  loginSign: '',
  supportThirdLogin: 'N',
  globalMenu: '',
  projectScene: 'td-iam',
  loginTheme: 'normal',
  topMenuType: 'self',
  tdIamUiUrl: '',
};

export const defaultOtherSettings: OtherSettings = {
  showSettings: false,
  fixedHeader: true,
  sidebarLogo: true,
  darkMode: true,
  uiEmbed: false,
  userBackendService: '',
  authConfig: { authType: 'default', tokenName: 'token' },
  menuConfig: { allow: [], deny: [] },
  moduleConfig: {},
  business: { skywalkingSwitch: 'N', aclSwitch: 'Y' },
};

export const defaultConfig: IamConfig = { system: defaultSystemConfig, settings: defaultOtherSettings };

/** A partial configuration: any nested object may be given in part. */
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue; // configuration may come from JSON: never touch prototypes
    // Own keys of the base object merge recursively; arrays and scalars replace.
    result[key] = Object.hasOwn(base, key) ? merge(base[key], value) : value;
  }
  return result as T;
}

/** The defaults merged with `partial` (nested objects merged key by key; undefined keeps the default). */
export function resolveConfig(partial: DeepPartial<IamConfig> = {}): IamConfig {
  return merge(structuredClone(defaultConfig), partial);
}
