// The personal center's recovery codes: how many are left; a new set of ten (confirmed with the
// current password; the old set stops working), shown this once with Copy and Download (a text
// file). Only for people with a passkey or an authenticator app: the server says whether. A lazily
// loaded chunk of the screen (a LazyCard, with RecoveryCodesStandIn in its place until it comes).
import { useRef, useState } from 'react';
import { useStore } from '../../store';
import { generateRecoveryCodes, recoveryCodeStatusOf } from '../../../core/api/account';
import { $session } from '../../../core/session';
import { useT } from '../../i18n';
import { Card } from '../../widgets/Card';
import { useCopy } from '../../widgets/useCopy';
import { useResource } from '../../widgets/useResource';
import { saveFile } from '../../widgets/saveFile';
import * as ui from '../../widgets/ui.css';
import { RecoveryStatusStandIn } from './RecoveryCodesStandIn';
import * as styles from './UserInfoScreen.css';
import { CurrentPasswordForm } from './CurrentPasswordForm';

type Step = { kind: 'idle' } | { kind: 'confirming' } | { kind: 'shown'; codes: string[] };

/** The new codes, this once: copy them, download them as a text file, or say they are saved. */
function ShownCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  const username = useStore($session).user?.username ?? '';
  const list = useRef<HTMLOListElement>(null);
  const { copy, manual } = useCopy();
  const text = codes.join('\n');
  const download = () =>
    saveFile(
      new Blob([`${t('account:recovery.fileHeader', { username })}\n\n${text}\n`], { type: 'text/plain;charset=utf-8' }),
      `recovery-codes-${username}.txt`,
    );
  return (
    <div className={styles.steps}>
      <ol ref={list} className={styles.codes} aria-label={t('account:recovery.listLabel')}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p className={ui.formError}>{t('account:recovery.once')}</p>
      {manual && <p className={ui.hint}>{t('account:recovery.copyManually')}</p>}
      <div className={ui.actions}>
        <button type="button" className={ui.button.secondary} onClick={() => void copy(text, list.current, t('account:recovery.copied'))}>
          {t('account:recovery.copy')}
        </button>
        <button type="button" className={ui.button.secondary} onClick={download}>
          {t('account:recovery.download')}
        </button>
        <button type="button" className={ui.button.primary} onClick={onDone}>
          {t('account:recovery.done')}
        </button>
      </div>
    </div>
  );
}

/** `factorsChanged` changes when the person turns an authenticator app on or off. Its texts (the
 *  `account` namespace) are loaded before it renders (LazyCard). */
export default function RecoveryCodesCard({ factorsChanged }: { factorsChanged: number }) {
  const t = useT();
  const status = useResource(recoveryCodeStatusOf, [factorsChanged]);
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  const data = status.data;
  const action =
    data?.available && step.kind === 'idle' ? (
      <button type="button" className={data.generatedAt === null ? ui.button.primary : ui.button.secondary} onClick={() => setStep({ kind: 'confirming' })}>
        {t(data.generatedAt === null ? 'account:recovery.generate' : 'account:recovery.regenerate')}
      </button>
    ) : undefined;

  return (
    <Card id="iam-userinfo-recovery" title={t('account:recovery.title')} action={action}>
      <p className={styles.text}>{t('account:recovery.text')}</p>
      {status.failed ? (
        <p className={ui.empty}>{t('console:unavailable')}</p>
      ) : !data ? (
        <RecoveryStatusStandIn />
      ) : !data.available ? (
        <p className={ui.muted}>{t('account:recovery.unavailable')}</p>
      ) : (
        <p className={styles.status}>{data.generatedAt === null ? t('account:recovery.none') : t('account:recovery.remaining', { count: data.remaining })}</p>
      )}
      {step.kind === 'confirming' && (
        <CurrentPasswordForm
          text={t('account:recovery.confirmText')}
          label={t('account:recovery.password')}
          submitLabel={t('account:recovery.submit')}
          onCancel={() => setStep({ kind: 'idle' })}
          onPassword={async (password) => {
            setStep({ kind: 'shown', codes: (await generateRecoveryCodes(password)).codes });
            status.reload();
          }}
        />
      )}
      {step.kind === 'shown' && <ShownCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />}
    </Card>
  );
}
