// Lint: typescript-eslint's recommended rules plus the import direction of docs/architecture.md
// (elements → react → core; server → core only; core imports no UI code).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const uiPackages = ['react', 'react-dom', 'react-dom/*', 'react/*', '@nanostores/react', '@radix-ui/*', 'wouter', 'wouter/*', 'react-hook-form', '@hookform/*', '@r2wc/*', '@tanstack/react-*'];
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'dist-server/**', 'packages/*/dist/**', 'packages/*/dist-server/**', 'packages/*/custom-elements.json', 'data/**', 'coverage/**', 'custom-elements.json', '.tmp/**'] },
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
      ...restrict(['**/elements/**', '**/elements'], 'src/react never imports src/elements'),
    },
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
