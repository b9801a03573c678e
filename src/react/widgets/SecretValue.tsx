// A secret shown once (an app's client secret, an authenticator app's setup key): the value as
// text (never in an attribute), a Copy button, and when the clipboard is not available the text
// is selected for Ctrl+C. Shared by the app detail and the personal center.
import { useId, useRef } from 'react';
import { useT } from '../i18n';
import * as ui from './ui.css';
import * as styles from './SecretValue.css';
import { useCopy } from './useCopy';

/** `warning` says that the value will not be shown again. */
export function SecretValue({ label, value, warning }: { label: string; value: string; warning: string }) {
  const t = useT();
  const id = useId();
  const text = useRef<HTMLElement>(null);
  const { copy, manual } = useCopy();

  return (
    <div className={ui.field} role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className={ui.label}>
        {label}
      </span>
      <div className={styles.row}>
        <code ref={text} className={styles.value}>
          {value}
        </code>
        <button
          type="button"
          className={ui.button.secondary}
          onClick={() => void copy(value, text.current, t('console:secret.copied'))}
          aria-label={t('console:secret.copyNamed', { name: label })}
        >
          {t('console:secret.copy')}
        </button>
      </div>
      {manual && <p className={ui.hint}>{t('console:secret.copyManually')}</p>}
      <p className={ui.formError}>{warning}</p>
    </div>
  );
}
