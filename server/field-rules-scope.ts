// The field rules in force on the server (src/core/validation/field-rules.ts): each API request,
// SCIM call and the import job it starts validates with the rules of the login settings as that
// request read them. Outside a request (seeding, start-up) the default rules apply.
import { ScopedValue } from './async-scope';
import type { Ctx } from './context';
import { FieldRules, followFieldRules, type FieldRulesMode } from '../src/core/validation/field-rules';

const scope = new ScopedValue<FieldRulesMode>('field rules');
followFieldRules(() => scope.getStore() ?? FieldRules.Default);

/** The mode the login settings choose now. */
export async function fieldRulesOf(ctx: Ctx): Promise<FieldRulesMode> {
  return (await ctx.settings.get('login')).value.fieldRules;
}

/** Runs `work` (and everything it starts) under `mode`. */
export function underFieldRules<T>(mode: FieldRulesMode, work: () => T): T {
  return scope.run(mode, work);
}

/** Runs `work` under the mode the login settings choose now. */
export async function withFieldRules<T>(ctx: Ctx, work: () => T | Promise<T>): Promise<T> {
  return underFieldRules(await fieldRulesOf(ctx), work);
}
