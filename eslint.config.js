// Lint: typescript-eslint's recommended rules plus the import direction of docs/architecture.md
// (elements → react → core; server → core only; core imports no UI code; a screen never imports
// another screen, widgets import no screen). Import cycles are refused by the build: rollup's
// CIRCULAR_DEPENDENCY warning is an error there (rollup.config.mjs, onwarn).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const uiPackages = ['react', 'react-dom', 'react-dom/*', 'react/*', '@nanostores/react', '@radix-ui/*', 'wouter', 'wouter/*', 'react-hook-form', '@hookform/*', '@r2wc/*'];
const restrict = (patterns, message, ...more) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }, ...more] }],
});
const noElements = [['**/elements/**', '**/elements'], 'src/react never imports src/elements'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-server/**', 'data/**', 'coverage/**', 'custom-elements.json', '.tmp/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/react/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...restrict(...noElements),
    },
  },
  {
    // Screens are lazily loaded islands: what two screens share lives in src/react/widgets.
    files: ['src/react/screens/**/*.{ts,tsx}'],
    rules: restrict(...noElements, {
      regex: '^\\.\\./(?!\\.\\.?/)[^/]+/|/screens/',
      message: 'a screen never imports another screen: move what two screens share to src/react/widgets',
    }),
  },
  {
    files: ['src/react/widgets/**/*.{ts,tsx}'],
    rules: restrict(...noElements, { group: ['**/screens/**', '**/app/**'], message: 'widgets serve screens and the shell, and import neither' }),
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict([...uiPackages, '**/react/**', '**/elements/**', '**/react', '**/elements'], 'src/core is framework-agnostic: no React, no UI code'),
  },
  {
    files: ['server/**/*.ts'],
    rules: restrict([...uiPackages, '**/src/react/**', '**/src/elements/**', '**/react/**', '**/elements/**'], 'the server never imports browser code'),
  },
);
