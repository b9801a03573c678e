// /infoComplete: after a third-party (identity provider) sign-in the server may need more about
// the person before the account can be used. The query carries idpCode, token and access_ticket;
// the page reads the access info, asks for the missing details (the profile rules of §5) and
// submits the complement, then finishes the sign-in at /auth-redirect.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { Link, useSearch } from 'wouter';
import { accessInfo, complement } from '../../../core/api/thirdParty';
import { requestNavigation } from '../../../core/navigation';
import { AUTH_REDIRECT_PATH, LOGIN_PATH } from '../../../core/routes';
import { profileForm, type ProfileFormInput } from '../../../core/validation';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/fields';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as statusStyles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';

type Stage = 'loading' | 'form' | 'invalid';

export default function InfoCompleteScreen() {
  const t = useT();
  const query = new URLSearchParams(useSearch());
  const idpCode = query.get('idpCode') ?? '';
  const token = query.get('token') ?? '';
  const accessTicket = query.get('access_ticket') ?? query.get('accessTicket') ?? '';
  const [stage, setStage] = useState<Stage>(idpCode && token && accessTicket ? 'loading' : 'invalid');
  const { register, handleSubmit, reset, formState } = useForm<ProfileFormInput>({
    resolver: valibotResolver(profileForm),
    defaultValues: { realName: '', email: '', mobilePhone: '' },
  });

  useEffect(() => {
    if (!idpCode || !token || !accessTicket) return;
    let live = true;
    accessInfo(idpCode, token, accessTicket)
      .then((info) => {
        if (!live) return;
        if (!info.needComplement) {
          requestNavigation(AUTH_REDIRECT_PATH);
          return;
        }
        const known = info.complement ?? {};
        const text = (name: string) => (typeof known[name] === 'string' ? (known[name] as string) : '');
        reset({ realName: text('realName'), email: text('email'), mobilePhone: text('mobilePhone') });
        setStage('form');
      })
      .catch(() => live && setStage('invalid'));
    return () => {
      live = false;
    };
  }, [idpCode, token, accessTicket, reset]);

  const onSubmit = handleSubmit(async ({ realName, email, mobilePhone }) => {
    try {
      await complement(idpCode, accessTicket, { realName, email, mobilePhone });
    } catch {
      return; // shown by the HTTP client
    }
    requestNavigation(AUTH_REDIRECT_PATH);
  });

  if (stage !== 'form') {
    return (
      <StatusPage
        mark={<Icon name="userInfo" className={statusStyles.mark} />}
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
    <StatusPage mark={<Icon name="userInfo" className={statusStyles.mark} />} title={t('route.infoComplete')}>
      <p className={statusStyles.text}>{t('console:infoComplete.text')}</p>
      <form className={`${ui.form} ${ui.card}`} noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField label={t('console:profile.realName')} required error={errors.realName?.message} registration={register('realName')} autoComplete="name" />
        <TextField label={t('console:profile.email')} type="email" error={errors.email?.message} registration={register('email')} autoComplete="email" />
        <TextField label={t('console:profile.mobilePhone')} type="tel" error={errors.mobilePhone?.message} registration={register('mobilePhone')} autoComplete="tel" />
        <div className={ui.actions}>
          <button type="submit" className={ui.button.primary} disabled={isSubmitting}>
            {t('console:action.continue')}
          </button>
        </div>
      </form>
    </StatusPage>
  );
}
