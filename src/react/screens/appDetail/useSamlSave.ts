// Saving the app's SAML settings, shared by the metadata form and the settings form: the body is
// checked with the server's own schema first, then sent; a refusal lands under the field it names
// (`acsUrls.1.url` under the second URL) and its message above the form's buttons.
import { useState } from 'react';
import { saveSamlProvider, type SamlProviderAnswer, type SamlProviderChanges } from '../../../core/api/saml';
import { notifySuccess } from '../../../core/messages';
import { samlProviderBody } from '../../../core/schemas/saml';
import { validate } from '../../../core/validation';
import { refusalOf } from '../../widgets/admin/serverErrors';

export function useSamlSave(appId: string, onSaved: (answer: SamlProviderAnswer) => void) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  /** Checks and sends `body`; `missing` names a field the schema cannot require by itself. Answers whether it was saved. */
  const save = async (body: SamlProviderChanges, savedText: string, missing?: string): Promise<boolean> => {
    setFailure(undefined);
    const checked = validate(samlProviderBody, body);
    if (!checked.success || missing) {
      setErrors(checked.success ? { [missing!]: 'rule.required' } : Object.fromEntries(checked.fields.map(({ field, rule }) => [field, rule])));
      return false;
    }
    setErrors({});
    setBusy(true);
    try {
      const answer = await saveSamlProvider(appId, body);
      notifySuccess(savedText);
      onSaved(answer);
      return true;
    } catch (error) {
      const refusal = refusalOf(error);
      setErrors(Object.fromEntries(refusal.fields.map(({ field, message }) => [field, message])));
      setFailure(refusal.message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { errors, failure, busy, save };
}
