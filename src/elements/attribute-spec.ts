// The entries of the attribute tables (./attributes.ts gathers one table per element) and what the
// element classes derive from a table at run time: r2wc props and boolean attributes. Imports
// nothing, so that an entry bundles only the tables of its own elements.

interface AttributeSpec {
  /** The element property (camelCase) the attribute drives. */
  readonly property: string;
  readonly type: 'string' | 'boolean';
  /** The allowed values, when they are a closed set. */
  readonly values?: readonly string[];
  /** What an absent attribute means. */
  readonly default?: string;
  readonly description: string;
  /** Read by the element class itself (a CSS selector, a navigation), not passed to its React app. */
  readonly elementOnly?: boolean;
}

export const apiBase = { property: 'apiBase', type: 'string', default: '/api', description: 'Base of the API.' } as const;
export const locale = {
  property: 'locale',
  type: 'string',
  values: ['en', 'zh'],
  default: 'en',
  description: "Language of this element; unset means English, whatever the page's other elements use.",
} as const;
export const theme = {
  property: 'theme',
  type: 'string',
  values: ['dark', 'light'],
  default: 'dark',
  elementOnly: true,
  description: "Colour theme of this element; unset means dark, whatever the page's other elements use.",
} as const;
const authMode = {
  property: 'authMode',
  type: 'string',
  values: ['cookie', 'token'],
  default: 'cookie',
  description: "`token` for pages on another origin: the session token stays in the bundle's memory (see iamFetch in docs/deployment.md).",
} as const;
const tokenName = {
  property: 'tokenName',
  type: 'string',
  default: 'token',
  description:
    "Token mode: the header for the token when the server's sign-in answer names none (this server always names its authConfig.tokenName, which wins).",
} as const;
export const open = { property: 'open', type: 'boolean', description: 'Shows the dialog.' } as const;

export type AttributeTable = Record<string, AttributeSpec>;

/** The attributes every element that calls the API takes. */
export const connection = { 'api-base': apiBase, locale, 'auth-mode': authMode, 'token-name': tokenName, theme } as const;

/** r2wc's `props` of an element: every attribute its React app receives, by property name. */
export function reactProps(table: AttributeTable): Record<string, 'string' | 'boolean'> {
  return Object.fromEntries(
    Object.values(table)
      .filter((spec) => !spec.elementOnly)
      .map((spec) => [spec.property, spec.type]),
  );
}

/** The boolean attributes of an element (present means on). */
export function booleanAttributes(table: AttributeTable): string[] {
  return Object.entries(table)
    .filter(([, spec]) => spec.type === 'boolean')
    .map(([name]) => name);
}
