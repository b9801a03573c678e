// Entry `iam-console/react`: the components for React hosts that render them directly instead of
// through the custom elements. The styles travel with the components as one constructed
// stylesheet: adopt it once (`adoptStyles(document)`, or a shadow root), and pick the theme with
// `data-iam-theme="dark|light"` on a container; `--iam-*` custom properties override the theme.
export { LoginForm, type LoginFormProps, type LoginErrorDetail, type LoginSubmitDetail, type LoginSuccessDetail } from './login/LoginForm';
export { LocaleScope, useLocale, useT, useTexts, useTRule } from './i18n';
export { vars as themeVars } from './theme/theme.css';
export { adoptStyles, sharedStyleSheet } from './theme/sheet';
