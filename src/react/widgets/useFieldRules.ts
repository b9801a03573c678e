// The field rules the login settings choose (GET /settings/login/public), for the console's forms:
// the core's `fieldRule` schemas (src/core/validation/field-rules.ts) follow the mode read last, and
// each form that uses them asks again when it opens, so a switch is followed without a reload.
import { useEffect, useState } from 'react';
import { publicLoginSettings } from '../../core/api/public-settings';
import { FieldRules, followFieldRules, type FieldRulesMode } from '../../core/validation/field-rules';

let readLast: FieldRulesMode = FieldRules.Default;
followFieldRules(() => readLast);

/** Keeps the browser's field rules to the settings'; answers the mode in force. */
export function useFieldRules(): FieldRulesMode {
  const [mode, setMode] = useState(readLast);
  useEffect(() => {
    let current = true;
    publicLoginSettings().then(
      (settings) => {
        readLast = settings.fieldRules;
        if (current) setMode(settings.fieldRules);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return mode;
}

/** After the settings screen saved a new mode. */
export function fieldRulesSaved(mode: FieldRulesMode): void {
  readLast = mode;
}
