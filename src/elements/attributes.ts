// The one declaration of every element's attributes. From this table come each element's r2wc
// props (reactProps), its boolean attributes, its typings (AttributesOf for React JSX and the
// attribute interfaces, PropertiesOf for the element class), the attributes of custom-elements.json
// (scripts/manifest.mjs) and therefore docs/elements.md. test/unit/element-attributes.test.ts fails
// when one of them drifts. This module imports nothing: the build scripts load it on their own.

export interface AttributeSpec {
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

const apiBase = { property: 'apiBase', type: 'string', default: '/api', description: 'Base of the API.' } as const;
const locale = {
  property: 'locale', type: 'string', values: ['en', 'zh'], default: 'en',
  description: "Language of this element; unset means English, whatever the page's other elements use.",
} as const;
const theme = {
  property: 'theme', type: 'string', values: ['dark', 'light'], default: 'dark', elementOnly: true,
  description: "Colour theme of this element; unset means dark, whatever the page's other elements use.",
} as const;
const authMode = {
  property: 'authMode', type: 'string', values: ['cookie', 'token'], default: 'cookie',
  description: '`token` for pages on another origin: the session token stays in the bundle\'s memory (see iamFetch in docs/deployment.md).',
} as const;
const tokenName = {
  property: 'tokenName', type: 'string', default: 'token',
  description: "Token mode: the header for the token when the server's sign-in answer names none (this server always names its authConfig.tokenName, which wins).",
} as const;
const open = { property: 'open', type: 'boolean', description: 'Shows the dialog.' } as const;

/** The attributes every element that calls the API takes. */
const connection = { 'api-base': apiBase, locale, 'auth-mode': authMode, 'token-name': tokenName, theme } as const;

export const elementAttributes = {
  'iam-console': {
    ...connection,
    // The console's app renders the theme switch, so the theme is its prop too.
    theme: { ...theme, elementOnly: false },
    'ui-embed': { property: 'uiEmbed', type: 'boolean', description: 'No top bar or side menu: the host draws its own chrome, and the console is as tall as its container.' },
    routing: { property: 'routing', type: 'string', values: ['history', 'memory'], default: 'history', description: '`memory` never touches the host URL.' },
    base: { property: 'base', type: 'string', default: '/', description: 'History base path.' },
    route: { property: 'route', type: 'string', description: 'The current route in memory routing; follows the console and drives it.' },
  },
  'iam-login': {
    ...connection,
    redirect: { property: 'redirect', type: 'string', elementOnly: true, description: 'Where to go after a successful sign-in (same origin only).' },
  },
  'iam-profile-dialog': { ...connection, open },
  'iam-password-dialog': {
    ...connection,
    open,
    mode: { property: 'mode', type: 'string', values: ['self', 'user'], default: 'self', description: "Own password or a user's." },
    'user-id': { property: 'userId', type: 'string', description: 'The user whose password is reset (mode `user`).' },
    username: { property: 'username', type: 'string', description: 'Their username, shown in the dialog (mode `user`).' },
  },
  'iam-provider': {
    'api-base': { ...apiBase, elementOnly: true, description: 'Base of the API for the elements inside.' },
    locale: { ...locale, elementOnly: true, description: 'Language for the elements inside (an element\'s own attribute wins).' },
    theme: { ...theme, description: 'Colour theme for the elements inside (an element\'s own attribute wins).' },
  },
} as const satisfies Record<string, Record<string, AttributeSpec>>;

export type ElementTag = keyof typeof elementAttributes;
type Table<Tag extends ElementTag> = (typeof elementAttributes)[Tag];

/** The value an attribute takes in markup. */
type AttributeValue<Spec> = Spec extends { type: 'boolean' } ? boolean | '' : Spec extends { values: readonly (infer Value)[] } ? Value : string;
/** The value of the property an attribute drives. */
type PropertyValue<Spec> = Spec extends { type: 'boolean' } ? boolean : Spec extends { values: readonly (infer Value)[] } ? Value | (string & {}) : string;

/** The attributes of `Tag` as markup takes them (React 19 JSX, Vue templates). */
export type AttributesOf<Tag extends ElementTag> = { -readonly [Name in keyof Table<Tag>]?: AttributeValue<Table<Tag>[Name]> };

/** The properties of `Tag` that its React app receives (the class declares the element-only ones itself). */
export type PropertiesOf<Tag extends ElementTag> = {
  -readonly [Name in keyof Table<Tag> as Table<Tag>[Name] extends { elementOnly: true } ? never : Table<Tag>[Name] extends { property: infer Property extends string } ? Property : never]:
    PropertyValue<Table<Tag>[Name]> | undefined;
};

/** r2wc's `props` for `Tag`: every attribute its React app receives, by property name. */
export function reactProps<Tag extends ElementTag>(tag: Tag): Record<string, 'string' | 'boolean'> {
  const specs: readonly AttributeSpec[] = Object.values(elementAttributes[tag]);
  return Object.fromEntries(specs.filter((spec) => !spec.elementOnly).map((spec) => [spec.property, spec.type]));
}

/** The boolean attributes of `Tag` (present means on). */
export function booleanAttributes(tag: ElementTag): string[] {
  return Object.entries(elementAttributes[tag] as Record<string, AttributeSpec>).filter(([, spec]) => spec.type === 'boolean').map(([name]) => name);
}
