// Every validation rule, once, for the forms AND the server (which builds its request
// schemas and its OpenAPI document from these rules with @valibot/to-json-schema).
//
// - The message of every issue is an i18n key `rule.*` (see rule-message.ts for parameters).
// - Field rules use only type, length, value and ONE regex action each, so they convert to JSON
//   Schema. The exceptions are `rules.json` (a `check`) and the confirm-password comparison,
//   which lives at form level (`forward(partialCheck(…))`); convert those with `errorMode: 'ignore'`.
// - Missing or non-string input fails with 'rule.required'.
import * as v from 'valibot';
import { PASSWORD } from './config';
import { formatRuleMessage } from './rule-message';
import { INVISIBLE_CHARACTERS } from './validation/visible-text';
import type { FieldErrors } from './types';

export { loginCaptcha, loginCode, loginForm, type LoginFormInput } from './validation/login';
// The rules of users and profiles (forms and API bodies) are in ./validation/user.ts, out of the sign-in entry.

/** Letters, digits, underscore, hyphen and Chinese (CJK Unified Ideographs): the name character set. */
const NAME_CHARS = '\\w\\u4e00-\\u9fa5-';
/** Characters of one path segment. */
const SEGMENT = '[\\w.~-]';

/** A string rule: required string, optional length bounds, then at most one pattern. */
function text(message: string, pattern?: RegExp, length?: { min?: number; max?: number }) {
  const actions = [
    ...(length?.min !== undefined ? [v.minLength<string, number, string>(length.min, message)] : []),
    ...(length?.max !== undefined ? [v.maxLength<string, number, string>(length.max, message)] : []),
    ...(pattern ? [v.regex<string, string>(pattern, message)] : []),
  ];
  return v.pipe(v.string('rule.required'), ...actions);
}

/** A required string rule: empty answers 'rule.required', anything else wrong answers `message`. */
function requiredText(message: string, pattern: RegExp) {
  return v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.regex(pattern, message));
}

/** An integer number between `min` and `max` inclusive. */
function integerBetween(min: number, max: number, message: string) {
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

/** What is wrong with a code that fails `patterns.safeCode`, as a rule message: its length, its
 *  first or last character, or a character it may not hold (named). The hint says the whole rule;
 *  the error says the cause. */
function safeCodeProblem(value: unknown): string {
  const code = String(value);
  if (code.length < 2 || code.length > 20) return formatRuleMessage('rule.safeCodeLength', { length: code.length });
  if (/\s/.test(code)) return 'rule.safeCodeSpace';
  const stray = /[^\w-]/.exec(code);
  if (stray) return formatRuleMessage('rule.safeCodeChar', { char: stray[0] });
  if (!/^[A-Za-z]/.test(code)) return 'rule.safeCodeStart';
  return 'rule.safeCodeEnd';
}

function isJson(value: string): boolean {
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

export const patterns = {
  /** Mainland mobile: 11 digits, 1 then 3-9. */
  mobilePhone: /^1[3-9]\d{9}$/,
  /** A mainland mobile or a landline with an area code (0xx-xxxxxxx). */
  phone: /^(?:1[3-9]\d{9}|0\d{2,3}-?\d{7,8})$/,
  realName: new RegExp(`^[${NAME_CHARS}]{2,20}$`),
  username: /^[\w-]{3,20}$/,
  /** 6-20 characters with at least one digit and one non-digit. */
  password: new RegExp(`^(?=.*\\d)(?=.*\\D).{${PASSWORD.minLength},${PASSWORD.maxLength}}$`),
  roleName: new RegExp(`^[${NAME_CHARS}]{2,30}$`),
  /** Tenant and app names: the name set, 2-50 characters, not starting with '-'. */
  organisationName: new RegExp(`^(?!-)[${NAME_CHARS}]{2,50}$`),
  /** 2-20 characters: a letter first, a letter or digit last, letters/digits/_/- between. */
  safeCode: /^[A-Za-z][\w-]{0,18}[A-Za-z0-9]$/,
  /** 2-60 characters starting with a letter or a Chinese character; no invisible ones (visible-text.ts). */
  resourceName: new RegExp(`^[A-Za-z\u4e00-\u9fa5][^${INVISIBLE_CHARACTERS}]{1,59}$`),
  /** Free text that must not start with http (nor https), in any letter case; no invisible characters but line breaks and tabs. */
  notLink: new RegExp(`^(?![Hh][Tt][Tt][Pp])(?:[\\t\\n\\r]|[^${INVISIBLE_CHARACTERS}])*$`),
  domain: /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/,
  /** Absolute or relative path of segments made of letters, digits, '.', '~', '_' and '-'. */
  path: new RegExp(`^\\/?(?:${SEGMENT}+\\/)*${SEGMENT}*$`),
  absolutePath: new RegExp(`^\\/(?:${SEGMENT}+\\/)*${SEGMENT}*$`),
  relativePath: new RegExp(`^(?:${SEGMENT}+\\/)*${SEGMENT}*$`),
  /** http(s) URLs only: other schemes (javascript:, data:) are never valid links. */
  url: /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/,
  noChinese: /^[^\u4e00-\u9fa5]*$/,
} as const;

export const rules = {
  required: v.pipe(v.string('rule.required'), v.regex(/\S/, 'rule.required')),
  mobilePhone: requiredText('rule.phone', patterns.mobilePhone),
  phone: requiredText('rule.phoneNumber', patterns.phone),
  email: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.email('rule.email')),
  realName: requiredText('rule.realName', patterns.realName),
  username: requiredText('rule.username', patterns.username),
  newPassword: requiredText('rule.password', patterns.password),
  /** Old password, administrator password: only required. */
  currentPassword: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required')),
  roleName: requiredText('rule.roleName', patterns.roleName),
  tenantName: requiredText('rule.tenantName', patterns.organisationName),
  appName: requiredText('rule.appName', patterns.organisationName),
  safeCode: v.pipe(
    v.string('rule.required'),
    v.nonEmpty('rule.required'),
    v.regex(patterns.safeCode, (issue) => safeCodeProblem(issue.input)),
  ),
  resourceName: requiredText('rule.resourceName', patterns.resourceName),
  description: text('rule.description', patterns.notLink, { min: 2, max: 255 }),
  remark: text('rule.remark', patterns.notLink, { min: 2, max: 500 }),
  domain: requiredText('rule.domain', patterns.domain),
  path: requiredText('rule.path', patterns.path),
  absolutePath: requiredText('rule.absolutePath', patterns.absolutePath),
  relativePath: requiredText('rule.relativePath', patterns.relativePath),
  url: requiredText('rule.url', patterns.url),
  json: v.pipe(v.string('rule.required'), v.nonEmpty('rule.required'), v.check(isJson, 'rule.json')),
  port: integerBetween(1, 65535, 'rule.port'),
  range: (min: number, max: number) => integerBetween(min, max, formatRuleMessage('rule.range', { min, max })),
  noChinese: text('rule.noChinese', patterns.noChinese),
  positiveInteger: v.pipe(v.number('rule.positiveInteger'), v.integer('rule.positiveInteger'), v.minValue(1, 'rule.positiveInteger')),
  maxLength: (max: number) => text(formatRuleMessage('rule.maxLength', { max }), undefined, { max }),
  serialNumber: v.pipe(v.string('rule.serialNumber'), v.regex(/\S/, 'rule.serialNumber')),
} as const;

/** An optional form field: absent, empty, or valid by `rule`. */
export function optionalField<TRule extends v.GenericSchema<unknown, string>>(rule: TRule) {
  return v.optional(v.union([v.literal(''), rule]));
}

// A type alias (not an interface): valibot's partial checks need an implicit index signature.
type PasswordPair = { newPassword: string; confirmPassword: string };

/** The confirm-password comparison, reported on `confirmPassword` (form level: it compares two fields). */
const passwordPairMatches = v.forward<PasswordPair, v.PartialCheckIssue<PasswordPair>, ['confirmPassword']>(
  v.partialCheck<PasswordPair, [['newPassword'], ['confirmPassword']], PasswordPair, 'rule.confirmPasswordMismatch'>(
    [['newPassword'], ['confirmPassword']],
    (input) => input.newPassword === input.confirmPassword,
    'rule.confirmPasswordMismatch',
  ),
  ['confirmPassword'],
);

/** `passwordPairMatches` typed for a larger form: it only reads the two fields and passes the input through. */
function confirmationMatches<TInput extends PasswordPair>() {
  return passwordPairMatches as unknown as v.BaseValidation<TInput, TInput, v.PartialCheckIssue<PasswordPair>>;
}

const confirmPassword = v.pipe(v.string('rule.confirmPasswordRequired'), v.nonEmpty('rule.confirmPasswordRequired'));

/** Self mode of the password dialog: old password, new password, confirmation. */
const selfPasswordFields = v.object({ oldPassword: rules.currentPassword, newPassword: rules.newPassword, confirmPassword }, 'rule.required');
export const selfPasswordForm = v.pipe(selfPasswordFields, confirmationMatches<v.InferOutput<typeof selfPasswordFields>>());

/** User mode of the password dialog: the administrator's own password, new password, confirmation. */
const adminResetFields = v.object(
  { username: v.string('rule.required'), adminPassword: rules.currentPassword, newPassword: rules.newPassword, confirmPassword },
  'rule.required',
);
export const adminResetForm = v.pipe(adminResetFields, confirmationMatches<v.InferOutput<typeof adminResetFields>>());

export type SelfPasswordFormInput = v.InferInput<typeof selfPasswordForm>;
export type AdminResetFormInput = v.InferInput<typeof adminResetForm>;

export type ValidationResult<T> = { success: true; output: T } | { success: false; fields: FieldErrors['fields'] };

/** Validates `input`; on failure lists the first issue of each field as `{ field, rule }` (the 400 answer's shape).
 *  Issues without a path (the input itself) are reported with field ''. */
export function validate<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): ValidationResult<v.InferOutput<TSchema>> {
  const result = v.safeParse(schema, input);
  if (result.success) return { success: true, output: result.output };
  const fields: FieldErrors['fields'] = [];
  for (const issue of result.issues) {
    const field = v.getDotPath(issue) ?? '';
    if (!fields.some((entry) => entry.field === field)) fields.push({ field, rule: issue.message });
  }
  return { success: false, fields };
}
