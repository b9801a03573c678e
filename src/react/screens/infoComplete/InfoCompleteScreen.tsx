// /infoComplete: the way back from a third-party (identity provider) sign-in. The query carries
// idpCode, token and access_ticket; the page reads the access info. A person already linked to an
// account is signed in at once; a first-time person completes their data (username and real
// name required, §5 rules) and their account is made. When the provider's email is that of an
// existing account, the person first chooses: link to it (with its password) or make a new one.
// The sign-in then finishes at /auth-redirect.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import { Link, useSearch } from 'wouter';
import { accessInfo, complement } from '../../../core/api/thirdParty';
import { requestNavigation } from '../../../core/navigation';
import { AUTH_REDIRECT_PATH, LOGIN_PATH } from '../../../core/routes';
import { complementBody } from '../../../core/schemas/idp';
import { rules } from '../../../core/validation';
import { showServerFieldErrors } from '../../dialogs/fieldErrors';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/fields';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as statusStyles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';
import { LinkAccountForm } from './LinkAccountForm';

type Stage = 'loading' | 'choose' | 'link' | 'form' | 'invalid';

/** The server's complement body, with what a first-time account cannot do without. */
const complementForm = v.object({ ...complementBody.entries, username: rules.username, realName: rules.realName });
type ComplementValues = v.InferInput<typeof complementForm>;
const fields = ['username', 'realName', 'email', 'mobilePhone'] as const;

export default function InfoCompleteScreen() {
  const t = useT();
  const query = new URLSearchParams(useSearch());
  const idpCode = query.get('idpCode') ?? '';
  const token = query.get('token') ?? '';
  const accessTicket = query.get('access_ticket') ?? query.get('accessTicket') ?? '';
  const [stage, setStage] = useState<Stage>(idpCode && token && accessTicket ? 'loading' : 'invalid');
  const [existing, setExisting] = useState<string>();
  const { register, handleSubmit, reset, setError, formState } = useForm<ComplementValues>({
    resolver: valibotResolver(complementForm),
    defaultValues: { username: '', realName: '', email: '', mobilePhone: '' },
  });

  useEffect(() => {
    if (!idpCode || !token || !accessTicket) return;
    let live = true;
    accessInfo(idpCode, token, accessTicket)
      .then((info) => {
        if (!live) return;
        if (!info.needComplement) {
          // Already linked: redeeming the ticket signs the person in.
          return complement(idpCode, accessTicket, {}).then(() => requestNavigation(AUTH_REDIRECT_PATH));
        }
        // What the provider told about the person fills the form (the names are the providers').
        const known = info.complement ?? {};
        const text = (...names: string[]) => names.map((name) => known[name]).find((value): value is string => typeof value === 'string') ?? '';
        reset({ username: text('username', 'preferred_username'), realName: text('realName', 'name'), email: text('email'), mobilePhone: text('mobilePhone', 'phone_number') });
        setExisting(info.existingAccount?.username);
        setStage(info.existingAccount ? 'choose' : 'form');
      })
      .catch(() => live && setStage('invalid'));
    return () => {
      live = false;
    };
  }, [idpCode, token, accessTicket, reset]);

  const finish = () => requestNavigation(AUTH_REDIRECT_PATH);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await complement(idpCode, accessTicket, values);
    } catch (error) {
      showServerFieldErrors(error, fields, setError);
      return;
    }
    finish();
  });

  const mark = <Icon name="userInfo" className={statusStyles.mark} />;

  if (stage === 'choose' && existing) {
    return (
      <StatusPage mark={mark} title={t('route.infoComplete')}>
        <p className={statusStyles.text}>{t('console:infoComplete.existing', { username: existing })}</p>
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={() => setStage('form')}>
            {t('console:infoComplete.createNew')}
          </button>
          <button type="button" className={ui.button.primary} onClick={() => setStage('link')}>
            {t('console:infoComplete.link')}
          </button>
        </div>
      </StatusPage>
    );
  }

  if (stage === 'link' && existing) {
    return (
      <StatusPage mark={mark} title={t('route.infoComplete')}>
        <LinkAccountForm idpCode={idpCode} accessTicket={accessTicket} username={existing} onLinked={finish} onBack={() => setStage('choose')} />
      </StatusPage>
    );
  }

  if (stage !== 'form') {
    return (
      <StatusPage
        mark={mark}
        title={t('route.infoComplete')}
        actions={
          stage === 'invalid' && (
            <Link href={LOGIN_PATH} className={ui.button.primary}>
              {t('login:submit')}
            </Link>
          )
        }
      >
        <p className={statusStyles.text} role="status">
          {stage === 'invalid' ? t('console:infoComplete.invalid') : t('console:loading')}
        </p>
      </StatusPage>
    );
  }

  const { errors, isSubmitting } = formState;
  return (
    <StatusPage mark={mark} title={t('route.infoComplete')}>
      <p className={statusStyles.text}>{t('console:infoComplete.text')}</p>
      <form className={`${ui.form} ${ui.card}`} noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label={t('console:profile.username')} required error={errors.username?.message} registration={register('username')} autoComplete="username" />
        <TextField label={t('console:profile.realName')} required error={errors.realName?.message} registration={register('realName')} autoComplete="name" />
        <TextField label={t('console:profile.email')} type="email" error={errors.email?.message} registration={register('email')} autoComplete="email" />
        <TextField label={t('console:profile.mobilePhone')} type="tel" error={errors.mobilePhone?.message} registration={register('mobilePhone')} autoComplete="tel" />
        <div className={ui.actions}>
          {existing && (
            <button type="button" className={ui.button.secondary} onClick={() => setStage('choose')}>
              {t('console:infoComplete.back')}
            </button>
          )}
          <button type="submit" className={ui.button.primary} disabled={isSubmitting}>
            {t('console:action.continue')}
          </button>
        </div>
      </form>
    </StatusPage>
  );
}
