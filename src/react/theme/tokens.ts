// The theme tokens: every colour, font and size the UI uses, as a CSS custom property `--iam-…`
// a host page may override. theme.css.ts gives them their values; scripts/manifest.mjs lists them
// (with these descriptions) in custom-elements.json. This module imports nothing: the build
// scripts load it on their own.
export const themeTokens = {
  color: {
    page: 'Page background',
    surface: 'Background of cards, dialogs and bars',
    text: 'Text',
    textMuted: 'Secondary text',
    border: 'Borders and separators',
    inputBackground: 'Background of inputs',
    inputBorder: 'Border of inputs',
    primary: 'Primary colour (buttons, links, selection)',
    primaryHover: 'Primary colour under the pointer',
    onPrimary: 'Text on the primary colour',
    focusRing: 'Keyboard focus ring',
    error: 'Error text',
    errorSurface: 'Background of error messages',
  },
  font: {
    family: 'Font family',
    sizeBase: 'Base font size',
    sizeSmall: 'Small font size',
    sizeTitle: 'Title font size',
  },
  radius: { base: 'Corner radius' },
  space: { xs: 'Spacing, extra small', sm: 'Spacing, small', md: 'Spacing, medium', lg: 'Spacing, large', xl: 'Spacing, extra large' },
  shadow: { card: 'Shadow of cards and dialogs' },
} as const;

/** The custom property of a token path (`['color', 'textMuted']` → `iam-color-text-muted`, without the dashes). */
export function tokenName(path: readonly string[]): string {
  return `iam-${path.map((part) => part.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)).join('-')}`;
}

/** Every token as `--iam-…` with its description. */
export function tokenList(): { name: string; description: string }[] {
  return Object.entries(themeTokens).flatMap(([group, tokens]) =>
    Object.entries(tokens).map(([token, description]) => ({ name: `--${tokenName([group, token])}`, description })),
  );
}
