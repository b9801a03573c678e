// The theme contract: every colour, font and size the UI uses is a CSS custom property named
// `--iam-…` (the tokens of ./tokens.ts), so host pages can override any of them (e.g. `iam-login { --iam-color-primary: #06c }`).
// The themes are declared with zero specificity (`:where`) on the elements themselves, and with
// `:host` inside shadow roots (a host page's rules win over `:host` rules), so a host override
// always wins. A React host without the elements selects a theme with `data-iam-theme`.
import { createGlobalTheme, createGlobalThemeContract } from '@vanilla-extract/css';
import { themeTokens, tokenName } from './tokens';

export const vars = createGlobalThemeContract(themeTokens, (_value, path) => tokenName(path));

const shared = {
  font: {
    family: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif',
    sizeBase: '14px',
    sizeSmall: '12px',
    sizeTitle: '22px',
  },
  radius: { base: '6px' },
  space: { xs: '4px', sm: '8px', md: '16px', lg: '24px', xl: '32px' },
};

/** Default: dark, with a green primary. */
createGlobalTheme(':host, :where(iam-login, [data-iam-theme])', vars, {
  ...shared,
  color: {
    page: '#0d1a14',
    surface: '#13251c',
    text: '#e3efe8',
    textMuted: '#9db4a7',
    border: '#2a4236',
    inputBackground: '#0a1510',
    inputBorder: '#3a5a4a',
    primary: '#3ccf8a',
    primaryHover: '#5fdba0',
    onPrimary: '#05170e',
    focusRing: '#3ccf8a80',
    error: '#ff8f87',
    errorSurface: '#3a1a1a',
  },
  shadow: { card: '0 8px 24px rgb(0 0 0 / 35%)' },
});

createGlobalTheme(':host([theme="light"]), :where(iam-login[theme="light"], [data-iam-theme="light"])', vars, {
  ...shared,
  color: {
    page: '#f3f6f4',
    surface: '#ffffff',
    text: '#1b2a22',
    textMuted: '#56675e',
    border: '#d5e0d9',
    inputBackground: '#ffffff',
    inputBorder: '#b7c7bd',
    // Dark enough for 4.5:1 on the primary-tinted backgrounds (selected menu items, badges).
    primary: '#186b41',
    primaryHover: '#135634',
    onPrimary: '#ffffff',
    focusRing: '#186b4159',
    error: '#c0362c',
    errorSurface: '#fdecea',
  },
  shadow: { card: '0 6px 20px rgb(20 50 35 / 12%)' },
});
