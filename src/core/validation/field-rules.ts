// The rules of the fields that name people and organisations (real name, username, mobile phone,
// tenant, app and role names), as a function of the platform's "field rules" login setting
// (src/core/schemas/settings.ts): `default` is the mainland rule set of validation.ts (names of
// letters, digits, _, - or Chinese; usernames of 3-20; mainland mobile numbers), `international`
// takes names in any script with spaces, apostrophes, periods and hyphens, usernames that are an
// e-mail address or a UPN, and E.164 phone numbers (stored without their separators).
//
// One rule set for the browser and the server: the schemas built from `fieldRule` (the user forms,
// the API bodies, SCIM, the CSV import, the third-party sign-in) read the mode in force when they
// run, from the source the platform installs (`followFieldRules`): the console's store of the
// public login settings in the browser, the request's settings on the server
// (server/field-rules-scope.ts). Stored values are never re-validated when they are read.
// Apart from validation.ts so that the sign-in entry does not load it.
import * as v from 'valibot';
import { formatRuleMessage } from '../rule-message';
import { rules } from '../validation';

import { FieldRules, type FieldRulesMode } from './field-rules-modes';
import { visibleCharactersOnly } from './visible-text';

export { FieldRules, type FieldRulesMode } from './field-rules-modes';

/** A name in any script: a letter first, then letters, combining marks, digits and single spaces,
 *  apostrophes (' and ’), periods and hyphens between ("José O'Neil-Ünal", "J. R. R. Tolkien"). */
const personName = /^\p{L}[\p{L}\p{M}\p{N}'’.-]*(?: [\p{L}\p{M}\p{N}'’.-]+)*$/u;
/** Tenant, app and role names: a letter or digit first, then letters, marks, digits, single
 *  spaces, and ' ’ . , & _ -; never '/', which separates a tenant path ("Acme/Sales"). */
const organisationName = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}'’.,&_-]*(?: [\p{L}\p{M}\p{N}'’.,&_-]+)*$/u;
/** A plain username (letters, digits, . _ -), or an e-mail address / user principal name
 *  (`alice@contoso.com`, `alice@contoso.onmicrosoft.com`): the forms Entra ID and Okta send. */
const accountName = /^[A-Za-z0-9._%+'-]+(?:@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+)?$/;
/** A phone number as people type it: E.164 with spaces, hyphens, periods and parentheses. */
const typedPhone = /^\+[\d ().-]+$/;
/** E.164: a country code that does not start with 0, at most 15 digits in all. */
const e164 = /^\+[1-9]\d{6,14}$/;

/** A required text rule: empty answers 'rule.required', a control or format character
 *  `rule.visibleCharacters` (the shared predicate of ./visible-text.ts; the patterns below refuse
 *  them too, this only says why), a length outside [min, max] or a pattern mismatch `message`. */
function internationalText(message: string, pattern: RegExp, min: number, max: number) {
  return v.pipe(
    v.string('rule.required'),
    v.nonEmpty('rule.required'),
    visibleCharactersOnly('rule.visibleCharacters'),
    v.minLength(min, message),
    v.maxLength(max, message),
    v.regex(pattern, message),
  );
}

/** An E.164 number with the usual separators; the output is the number without them. */
const internationalPhone = v.pipe(
  v.string('rule.required'),
  v.nonEmpty('rule.required'),
  v.regex(typedPhone, 'rule.phoneInternational'),
  v.transform((typed: string) => `+${typed.replace(/\D/g, '')}`),
  v.regex(e164, 'rule.phoneInternational'),
);

const sets = {
  [FieldRules.Default]: {
    realName: rules.realName,
    username: rules.username,
    mobilePhone: rules.mobilePhone,
    tenantName: rules.tenantName,
    appName: rules.appName,
    roleName: rules.roleName,
  },
  [FieldRules.International]: {
    realName: internationalText('rule.realNameInternational', personName, 1, 100),
    username: internationalText('rule.usernameInternational', accountName, 3, 128),
    mobilePhone: internationalPhone,
    tenantName: internationalText(formatRuleMessage('rule.nameInternational', { max: 50 }), organisationName, 2, 50),
    appName: internationalText(formatRuleMessage('rule.nameInternational', { max: 50 }), organisationName, 2, 50),
    roleName: internationalText(formatRuleMessage('rule.nameInternational', { max: 30 }), organisationName, 2, 30),
  },
};
export type FieldRuleName = keyof (typeof sets)[FieldRulesMode];

/** The rule set of `mode`. */
export function fieldRules(mode: FieldRulesMode) {
  return sets[mode];
}

let modeInForce: () => FieldRulesMode = () => FieldRules.Default;

/** Makes the `fieldRule` schemas follow `source` (the browser's settings store, the server's
 *  request scope). */
export function followFieldRules(source: () => FieldRulesMode): void {
  modeInForce = source;
}

// Typed as taking a string (what a form field holds); any input is checked at run time.
type RuleSchema = v.GenericSchema<string, string>;
/** A schema that applies the rule `name` of the mode in force when it runs. */
const following = (name: FieldRuleName) => v.lazy(() => sets[modeInForce()][name] as RuleSchema);

/** The rules of the mode in force, for schemas (forms, API bodies, SCIM, imports). */
export const fieldRule = {
  realName: following('realName'),
  username: following('username'),
  mobilePhone: following('mobilePhone'),
  tenantName: following('tenantName'),
  appName: following('appName'),
  roleName: following('roleName'),
};
