// The public part of the login settings (GET /settings/login/public) that the sign-in form
// follows: the login method (a code by SMS instead of a password), a captcha asked from the first
// attempt, the password policy of the forms that set a new password. Read on every mount, so a
// saved change shows on the next page load.
import { useEffect, useState } from 'react';
import { publicLoginSettings } from '../../core/api/public-settings';
import type { PublicLoginSettings } from '../../core/schemas/settings';

/** undefined while loading; null when the settings could not be read (the form then keeps the
 *  plain username and password, and the server still asks for what it needs). */
export function usePublicLoginSettings(connection: unknown): PublicLoginSettings | null | undefined {
  const [settings, setSettings] = useState<PublicLoginSettings | null>();
  useEffect(() => {
    let current = true;
    publicLoginSettings().then(
      (value) => current && setSettings(value),
      () => current && setSettings(null),
    );
    return () => {
      current = false;
    };
  }, [connection]);
  return settings;
}
