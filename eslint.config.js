// Lint: typescript-eslint's recommended rules plus the import direction of docs/architecture.md
// (elements → react → core; server → core only; core imports no UI code; a screen never imports
// another screen, widgets import no screen). Import cycles are refused by the build: rollup's
// CIRCULAR_DEPENDENCY warning is an error there (rollup.config.mjs, onwarn).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const uiPackages = ['react', 'react-dom', 'react-dom/*', 'react/*', '@radix-ui/*', 'wouter', 'wouter/*', 'react-hook-form', '@hookform/*', '@r2wc/*'];
const restrict = (patterns, message, ...more) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }, ...more] }],
});
const noElements = [['**/elements/**', '**/elements'], 'src/react never imports src/elements'];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'dist-server/**',
      'packages/*/dist/**',
      'packages/*/dist-server/**',
      'packages/*/custom-elements.json',
      'data/**',
      'coverage/**',
      'custom-elements.json',
      '.tmp/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware rules, for the TypeScript files (tsconfig.json's project): promises that are
    // neither awaited nor handled, promises where a plain value is expected, awaiting a non-promise,
    // and type assertions that change nothing. Not test/types: a host's code that is compiled against
    // the packed typings (test/e2e/doc-snippets.test.ts), never run, whose types are the build's
    // output (packages/iam-console/dist/types, written while lint runs beside the build).
    files: ['**/*.{ts,tsx,mts}'],
    ignores: ['test/types/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test/describe/it return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    // The browser tests: @open-wc/testing's chai plugins type every assertion as promise-like, and
    // mocha awaits what its test bodies return.
    files: ['test/browser/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
  {
    files: ['src/react/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
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
    // What a page loads for <iam-login> (the sign-in entry, src/elements/login.ts, and its static
    // imports) has a size budget (scripts/check-bundle.mjs): the rarely used sign-in steps (second
    // factor, passkey, recovery code, phone code, forgotten and expired password, authenticator
    // set-up) load on demand through `lazy(() => import(…))`, so these files may import them for
    // their types only; nor do they import the console's screens, dialogs, widgets or UI libraries.
    files: [
      'src/elements/login.ts',
      'src/elements/iam-login.ts',
      'src/elements/define.ts',
      'src/elements/attribute-spec.ts',
      'src/elements/login-attributes.ts',
      'src/elements/provider/*.ts',
      'src/react/login/{LoginForm,Field,validateLogin,captchaImage,connect,publicSettings}.{ts,tsx}',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '(^|/)(SignInFlow|PasskeySignIn|SecondStepForm|PhoneCodeForm|ForgotPasswordForm|ExpiredPasswordForm|TotpSetupForm|NewPasswordFields|flowParts|flowSupport)$',
              allowTypeImports: true,
              message: 'a sign-in step loads on demand (lazy import): the sign-in entry imports it for its types only',
            },
            {
              group: ['@radix-ui/*', 'wouter', 'wouter/*', 'react-hook-form', '@hookform/*', '**/screens/**', '**/widgets/**', '**/dialogs/**', '**/app/**'],
              message: "the sign-in entry has a size budget: the console's screens, dialogs, widgets and UI libraries stay out of it",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict([...uiPackages, '**/react/**', '**/elements/**', '**/react', '**/elements'], 'src/core is framework-agnostic: no React, no UI code'),
  },
  {
    // Every API call of the browser is a declaration of src/core/contract, sent with call/callList or
    // addressed with urlOf (src/core/api/call.ts): no path and no answer type written by hand.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/core/api/call.ts', 'src/core/http.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportSpecifier[imported.name=/^(request|requestList|apiUrl)$/]',
          message: 'declare the call in src/core/contract and use call, callList or urlOf (src/core/api/call.ts)',
        },
        {
          selector: 'ImportDeclaration[source.value=/(^|\\/)http$/] > ImportNamespaceSpecifier',
          message: 'import what you need from the HTTP client by name: its request, requestList and apiUrl are for src/core/api/call.ts only',
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: restrict([...uiPackages, '**/src/react/**', '**/src/elements/**', '**/react/**', '**/elements/**'], 'the server never imports browser code'),
  },
);
