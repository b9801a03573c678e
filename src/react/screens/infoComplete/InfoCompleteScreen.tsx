// /infoComplete: the way back from a third-party (identity provider) sign-in. The query carries
// idpCode, token and access_ticket; the page reads the access info. A person already linked to an
// account is signed in at once; a first-time person completes their data (username and real
// name required, rules) and their account is made. When the provider's email is that of an
// existing account, the person first chooses: link to it (with its password) or make a new one.
// When this browser is already signed in (as anyone), nothing happens until the person chooses to
// continue as the provider's identity (the server refuses a silent switch) or to stay as they are.
// The sign-in then finishes at /auth-redirect, unless the person owes a second step (their
// authenticator app, or an administrator's set-up of one): the page then asks for it with the step
// ticket the sign-in answered. A ticket opened in another browser than the one that started the
// sign-in is refused by the server: the page says so. An email or phone typed here that the
// provider did not vouch for is sent a code: once signed in, the page asks for it (the account's
// password is unknown to the person, so the profile could not take it later without a reset).
import { useCallback, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import { Link, useSearch } from 'wouter';
import { casSession } from '../../../core/api/auth';
import { accessInfo, complement } from '../../../core/api/third-party';
import { HttpError } from '../../../core/http';
import { requestNavigation } from '../../../core/navigation';
import { AUTH_REDIRECT_PATH, LOGIN_PATH } from '../../../core/routes';
import { complementBody } from '../../../core/schemas/idp-complement';
import type { ComplementAnswer, LoginAnswer, ThirdPartyAccessInfo } from '../../../core/types';
import { fieldRule } from '../../../core/validation/field-rules';
import { ContactCodes, type PendingContacts } from '../../dialogs/ContactCodes';
import { showServerFieldErrors } from '../../dialogs/fieldErrors';
import { useT } from '../../i18n';
import { TextField } from '../../widgets/TextFields';
import { Icon } from '../../widgets/Icon';
import { StatusPage } from '../../widgets/StatusPage';
import * as statusStyles from '../../widgets/StatusPage.css';
import * as ui from '../../widgets/ui.css';
import { LinkAccountForm } from './LinkAccountForm';
import SecondStepForm from '../../login/SecondStepForm';
import { useFieldRules } from '../../widgets/useFieldRules';

type Stage = 'loading' | 'confirm' | 'choose' | 'link' | 'form' | 'codes' | 'invalid' | 'elsewhere';

/** The server's complement body, with what a first-time account cannot do without. */
const complementForm = v.object({ ...complementBody.entries, username: fieldRule.username, realName: fieldRule.realName });
type ComplementValues = v.InferInput<typeof complementForm>;
const fields = ['username', 'realName', 'email', 'mobilePhone'] as const;

/** A text the provider told about the person, by the first of `names` it gave. */
const providerText = (info: ThirdPartyAccessInfo, ...names: string[]) =>
  names.map((name) => info.complement?.[name]).find((value): value is string => typeof value === 'string') ?? '';

/** Where a refused ticket leaves the page: 403 is the server saying this browser did not start the
 *  sign-in; anything else, an unknown, used or expired ticket. */
const failedStage = (error: unknown): Stage => (error instanceof HttpError && error.status === 403 ? 'elsewhere' : 'invalid');

export default function InfoCompleteScreen() {
  const t = useT();
  // The names and phone numbers below follow the field rules in force (login settings).
  useFieldRules();
  const query = new URLSearchParams(useSearch());
  const idpCode = query.get('idpCode') ?? '';
  const token = query.get('token') ?? '';
  const accessTicket = query.get('access_ticket') ?? query.get('accessTicket') ?? '';
  const [stage, setStage] = useState<Stage>(idpCode && token && accessTicket ? 'loading' : 'invalid');
  const [existing, setExisting] = useState<string>();
  const [info, setInfo] = useState<ThirdPartyAccessInfo>();
  /** Who this browser is signed in as when the page opened; going on then replaces that session,
   *  which the person confirmed on the 'confirm' stage (the only way past it). */
  const [signedInAs, setSignedInAs] = useState<string>();
  const switchAccount = signedInAs !== undefined;
  /** The second step the sign-in asks, with its step ticket. */
  const [secondStep, setSecondStep] = useState<LoginAnswer & { stepTicket: string }>();
  /** The typed addresses a code was sent to, still waiting for it (the 'codes' stage). */
  const [pending, setPending] = useState<PendingContacts>({});
  const { register, handleSubmit, reset, setError, formState } = useForm<ComplementValues>({
    resolver: valibotResolver(complementForm),
    defaultValues: { username: '', realName: '', email: '', mobilePhone: '' },
  });

  /** Signed in (second step done): the codes sent to typed addresses first, else on to /auth-redirect. */
  const finish = useCallback((waiting: PendingContacts) => {
    setSecondStep(undefined);
    if (Object.keys(waiting).length) setStage('codes');
    else requestNavigation(AUTH_REDIRECT_PATH);
  }, []);

  /** After the sign-in call: the second step it asks, else finished. `typed`: the complement's
   *  addresses, of which the answer names those a code was sent to. */
  const signedIn = useCallback(
    (answer: ComplementAnswer, typed: PendingContacts = {}) => {
      const waiting: PendingContacts = Object.fromEntries((answer.codeSentTo ?? []).map((field) => [field, typed[field]]).filter(([, address]) => address));
      setPending(waiting);
      if (answer.stepTicket) setSecondStep({ ...answer, stepTicket: answer.stepTicket });
      else finish(waiting);
    },
    [finish],
  );

  /** Goes on with the ticket: a linked person is signed in at once, a first-time one completes. */
  const proceed = useCallback(
    async (known: ThirdPartyAccessInfo, confirmed: boolean) => {
      if (!known.needComplement) {
        signedIn(await complement(idpCode, accessTicket, confirmed ? { switchAccount: true } : {}));
        return;
      }
      // What the provider told about the person fills the form (the names are the providers').
      const text = (...names: string[]) => providerText(known, ...names);
      reset({
        username: text('username', 'preferred_username'),
        realName: text('realName', 'name'),
        email: text('email'),
        mobilePhone: text('mobilePhone', 'phone_number'),
      });
      setExisting(known.existingAccount?.username);
      setStage(known.existingAccount ? 'choose' : 'form');
    },
    [idpCode, accessTicket, reset, signedIn],
  );

  useEffect(() => {
    if (!idpCode || !token || !accessTicket) return;
    let live = true;
    Promise.all([accessInfo(idpCode, token, accessTicket), casSession().catch(() => undefined)])
      .then(([known, session]) => {
        if (!live) return;
        setInfo(known);
        if (!session) return proceed(known, false);
        setSignedInAs(session.user.username);
        setStage('confirm');
      })
      .catch((error: unknown) => live && setStage(failedStage(error)));
    return () => {
      live = false;
    };
  }, [idpCode, token, accessTicket, proceed]);

  const onSubmit = handleSubmit(async (values) => {
    let answer: ComplementAnswer;
    try {
      answer = await complement(idpCode, accessTicket, switchAccount ? { ...values, switchAccount: true } : values);
    } catch (error) {
      showServerFieldErrors(error, fields, setError);
      return;
    }
    signedIn(answer, { email: values.email, mobilePhone: values.mobilePhone });
  });

  const mark = <Icon name="userInfo" className={statusStyles.mark} />;

  if (secondStep) {
    return (
      <StatusPage mark={mark} title={t('route.infoComplete')}>
        <SecondStepForm answer={secondStep} onSuccess={() => finish(pending)} onCancel={() => requestNavigation(LOGIN_PATH)} />
      </StatusPage>
    );
  }

  if (stage === 'codes') {
    const onConfirmed = (channel: keyof PendingContacts) => {
      const { [channel]: _confirmed, ...left } = pending;
      setPending(left);
      if (!Object.keys(left).length) requestNavigation(AUTH_REDIRECT_PATH);
    };
    return (
      <StatusPage mark={mark} title={t('route.infoComplete')}>
        <p className={statusStyles.text}>{t('console:infoComplete.codesText')}</p>
        <div className={ui.card}>
          <ContactCodes pending={pending} onConfirmed={onConfirmed} />
        </div>
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={() => requestNavigation(AUTH_REDIRECT_PATH)}>
            {t('console:infoComplete.skipCodes')}
          </button>
        </div>
      </StatusPage>
    );
  }

  if (stage === 'confirm' && info && signedInAs) {
    const identity = providerText(info, 'email', 'preferred_username', 'name') || idpCode;
    return (
      <StatusPage mark={mark} title={t('route.infoComplete')}>
        <p className={statusStyles.text}>{t('console:infoComplete.signedIn', { current: signedInAs })}</p>
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={() => requestNavigation(AUTH_REDIRECT_PATH)}>
            {t('console:infoComplete.stay', { current: signedInAs })}
          </button>
          <button type="button" className={ui.button.primary} onClick={() => void proceed(info, true).catch((error: unknown) => setStage(failedStage(error)))}>
            {t('console:infoComplete.continueAs', { identity })}
          </button>
        </div>
      </StatusPage>
    );
  }

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
        <LinkAccountForm
          idpCode={idpCode}
          accessTicket={accessTicket}
          username={existing}
          switchAccount={switchAccount}
          onLinked={signedIn}
          onBack={() => setStage('choose')}
        />
      </StatusPage>
    );
  }

  if (stage !== 'form') {
    return (
      <StatusPage
        mark={mark}
        title={t('route.infoComplete')}
        actions={
          (stage === 'invalid' || stage === 'elsewhere') && (
            <Link href={LOGIN_PATH} className={ui.button.primary}>
              {t('login:submit')}
            </Link>
          )
        }
      >
        <p className={statusStyles.text} role="status">
          {stage === 'loading' ? t('console:loading') : t(stage === 'elsewhere' ? 'console:infoComplete.otherBrowser' : 'console:infoComplete.invalid')}
        </p>
      </StatusPage>
    );
  }

  const { errors, isSubmitting } = formState;
  return (
    <StatusPage mark={mark} title={t('route.infoComplete')}>
      <p className={statusStyles.text}>{t('console:infoComplete.text')}</p>
      <form className={`${ui.form} ${ui.card}`} noValidate onSubmit={(event) => void onSubmit(event)}>
        <TextField
          label={t('console:profile.username')}
          required
          error={errors.username?.message}
          registration={register('username')}
          autoComplete="username"
        />
        <TextField label={t('console:profile.realName')} required error={errors.realName?.message} registration={register('realName')} autoComplete="name" />
        <TextField label={t('console:profile.email')} type="email" error={errors.email?.message} registration={register('email')} autoComplete="email" />
        <TextField
          label={t('console:profile.mobilePhone')}
          type="tel"
          error={errors.mobilePhone?.message}
          registration={register('mobilePhone')}
          autoComplete="tel"
        />
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
