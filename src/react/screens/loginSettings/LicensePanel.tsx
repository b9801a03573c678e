// The license (operate/setting, third tab): its status, the request code with a copy button, and
// paste-and-activate of a new license from the vendor.
import { useId, useRef, useState, type FormEvent } from 'react';
import * as license from '../../../core/api/license';
import { formatDate } from '../../../core/format';
import { HttpError } from '../../../core/http';
import { notifySuccess } from '../../../core/messages';
import type { LicenseStatus } from '../../../core/types';
import { useT } from '../../i18n';
import { useCopy } from '../../widgets/useCopy';
import { useResource } from '../../widgets/useResource';
import * as ui from '../../widgets/ui.css';
import { tone } from '../../widgets/StatusBadge.css';
import * as styles from './settings.css';

/** Valid in the primary colour; not activated yet is no fault (neutral); the rest need action. */
const badgeTone: Record<LicenseStatus['status'], string> = {
  valid: tone.good,
  missing: tone.neutral,
  expired: tone.problem,
  invalid: tone.problem,
  over_limit: tone.problem,
};

function StatusCard({ status }: { status: LicenseStatus }) {
  const t = useT();
  const rows: [string, string][] = [
    [t('settings:license.status'), t(`settings:licenseStatus.${status.status}`)],
    [t('settings:license.licensee'), status.licensee ?? '—'],
    [t('settings:license.expiresAt'), status.expiresAt ? formatDate(status.expiresAt, 'YYYY-MM-DD') : '—'],
    [
      t('settings:license.users'),
      status.userLimit ? t('settings:license.usersOf', { users: status.users ?? 0, limit: status.userLimit }) : String(status.users ?? '—'),
    ],
  ];
  return (
    <section className={ui.card} aria-labelledby="iam-license-status">
      <div className={ui.cardHeader}>
        <h2 id="iam-license-status" className={ui.cardTitle}>
          {t('settings:license.title')}
        </h2>
        <span className={badgeTone[status.status]}>{t(`settings:licenseStatus.${status.status}`)}</span>
      </div>
      <dl className={styles.details}>
        {rows.map(([term, value]) => (
          <div key={term} className={styles.row}>
            <dt className={styles.term}>{term}</dt>
            <dd className={styles.detail}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function RequestCode() {
  const t = useT();
  const id = useId();
  const code = useResource(license.requestCode, []);
  const area = useRef<HTMLTextAreaElement>(null);
  const { copy, manual } = useCopy();

  return (
    <section className={ui.card} aria-labelledby={`${id}-title`}>
      <div className={ui.cardHeader}>
        <h2 id={`${id}-title`} className={ui.cardTitle}>
          {t('settings:license.requestCode')}
        </h2>
        <button
          type="button"
          className={ui.button.secondary}
          disabled={!code.data}
          onClick={() => code.data && void copy(code.data, area.current, t('settings:license.copied'))}
        >
          {t('settings:license.copy')}
        </button>
      </div>
      <p className={ui.hint}>{t('settings:license.requestCodeText')}</p>
      <label htmlFor={id} className={ui.visuallyHidden}>
        {t('settings:license.requestCode')}
      </label>
      <textarea id={id} ref={area} className={`${ui.input} ${styles.textArea} ${styles.code}`} readOnly value={code.data ?? t('console:loading')} />
      {manual && (
        <p role="status" className={ui.hint}>
          {t('settings:license.copyManually')}
        </p>
      )}
    </section>
  );
}

function Activate({ onActivated }: { onActivated: (status: LicenseStatus) => void }) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return setError(t('rule.required'));
    setBusy(true);
    setError(undefined);
    try {
      onActivated(await license.activate(text.trim()));
      setText('');
      notifySuccess(t('settings:license.activated'));
    } catch (failure) {
      setError(failure instanceof HttpError ? failure.message : t('message.requestFailed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className={`${ui.card} ${ui.form}`} noValidate onSubmit={(event) => void submit(event)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={ui.cardTitle}>
        {t('settings:license.activate')}
      </h2>
      <div className={ui.field}>
        <label htmlFor={id} className={ui.label}>
          {t('settings:license.newLicense')}
        </label>
        <textarea
          id={id}
          className={`${ui.input} ${styles.textArea} ${styles.code}`}
          value={text}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className={ui.fieldError}>
            {error}
          </p>
        )}
      </div>
      <div className={ui.actions}>
        <button type="submit" className={ui.button.primary} disabled={busy}>
          {t('settings:license.activateButton')}
        </button>
      </div>
    </form>
  );
}

export function LicensePanel({ status, onChange }: { status: LicenseStatus | undefined; onChange: (status: LicenseStatus) => void }) {
  const t = useT();
  return (
    <div className={styles.grid}>
      {status ? <StatusCard status={status} /> : <p className={ui.empty}>{t('console:loading')}</p>}
      <RequestCode />
      <Activate onActivated={onChange} />
    </div>
  );
}
