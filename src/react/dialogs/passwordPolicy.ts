// The password policy of the login settings (GET /settings/login/public): lengths and character
// classes on top of the rule. Passwords reach the server only transformed (hashed), so the
// policy can be checked only here, before the transform; the form's schema checks first.
import { useEffect } from 'react';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import * as v from 'valibot';
import { publicLoginSettings } from '../../core/api/public-settings';
import { loadNamespaces } from '../../core/i18n';
import { passwordRule, type PasswordPolicy } from '../../core/schemas/settings';
import { useResource } from '../widgets/useResource';

/** The policy in force, once read (its messages are in the `settings` namespace). */
export function usePasswordPolicy(): PasswordPolicy | undefined {
  const settings = useResource(publicLoginSettings, []);
  useEffect(() => {
    void loadNamespaces('settings');
  }, []);
  return settings.data?.passwordPolicy;
}

/** `resolver`, then the policy on `field` when the schema found nothing wrong with it. */
export function withPasswordPolicy<T extends FieldValues>(resolver: Resolver<T>, policy: PasswordPolicy | undefined, field: keyof T & string): Resolver<T> {
  if (!policy) return resolver;
  const rule = passwordRule(policy);
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    if (result.errors[field]) return result;
    const check = v.safeParse(rule, values[field]);
    if (check.success) return result;
    const errors = { ...result.errors, [field]: { type: 'policy', message: check.issues[0].message } } as FieldErrors<T>;
    return { values: {}, errors };
  };
}
