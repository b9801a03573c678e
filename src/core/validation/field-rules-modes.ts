// The names of the field rules modes (src/core/validation/field-rules.ts), apart from the rules so
// that the login settings' schema (which the console's shell loads) does not carry the rules.
export const FieldRules = { Default: 'default', International: 'international' } as const;
export type FieldRulesMode = (typeof FieldRules)[keyof typeof FieldRules];
export const fieldRulesModes = Object.values(FieldRules);
