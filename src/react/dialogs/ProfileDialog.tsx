// The "edit personal information" dialog (编辑个人信息): username (read-only), real name,
// avatar, mobile phone, email. On open it loads the user's basic info; on submit it saves
// (PUT /user/profile), reloads the session, shows 'Action Success' and closes. A new email address
// or mobile phone is pending until the code sent to it is entered: the dialog then stays open
// with a code field per pending address, and closes once every one is confirmed. Changing either
// also asks for the current password (where a password reset goes must not move with a session alone).
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import { useStore } from '../store';
import * as users from '../../core/api/users';
import { notifySuccess } from '../../core/messages';
import { $session, reload } from '../../core/session';
import { profileForm, type ProfileFormInput } from '../../core/validation/user';
import { unlessKept } from '../../core/validation/changed-fields';
import { useT } from '../i18n';
import { PasswordField, TextField } from '../widgets/TextFields';
import { transformPassword } from '../../core/password';
import * as ui from '../widgets/ui.css';
import { DialogFrame } from './DialogFrame';
import { ContactCodes, type PendingContacts } from './ContactCodes';
import { showServerFieldErrors } from './fieldErrors';
import * as styles from './dialog.css';
import { useFieldRules } from '../widgets/useFieldRules';

// The upload widget (and the core's image checks) load beside the dialog, not inside its chunk:
// the dialog opens at once and the avatar field follows a moment later, in a reserved space.
const ImageUpload = lazy(() => import('../widgets/ImageUpload').then((module) => ({ default: module.ImageUpload })));

export interface ProfileDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** After a successful save (the session is already reloaded). */
  onSaved?: (detail: { userId: string }) => void;
}

const empty: Required<ProfileFormInput> = { username: '', realName: '', avatar: '', mobilePhone: '', email: '', currentPassword: '' };
const editable = ['realName', 'avatar', 'mobilePhone', 'email', 'currentPassword'] as const;

export default function ProfileDialog({ open, onOpenChange, onSaved }: ProfileDialogProps) {
  const t = useT();
  // The names and phone numbers below follow the field rules in force (login settings).
  useFieldRules();
  const userId = useStore($session).user?.id;
  const [loaded, setLoaded] = useState(false);
  const [pending, setPending] = useState<PendingContacts>({});
  const [saved, setSaved] = useState({ mobilePhone: '', email: '' });
  // The stored name and phone pass as they are; a changed one follows the field rules in force.
  const schema = useRef<v.GenericSchema<ProfileFormInput>>(profileForm);
  const { register, handleSubmit, reset, setValue, setError, watch, formState } = useForm<ProfileFormInput>({
    resolver: (values, context, options) => valibotResolver(schema.current)(values, context, options),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    if (!open || !userId) return;
    let live = true;
    setLoaded(false);
    setPending({});
    users
      .basicInfo(userId)
      .then((info) => {
        if (!live) return;
        const contacts = { mobilePhone: info.mobilePhone ?? '', email: info.email ?? '' };
        const { entries } = profileForm;
        schema.current = v.object(
          { ...entries, realName: unlessKept(info.realName, entries.realName), mobilePhone: unlessKept(info.mobilePhone, entries.mobilePhone) },
          'rule.required',
        );
        reset({ ...empty, username: info.username, realName: info.realName ?? '', avatar: info.avatar ?? '', ...contacts });
        setSaved(contacts);
        setLoaded(true);
      })
      .catch(() => undefined); // shown by the HTTP client
    return () => {
      live = false;
    };
  }, [open, userId, reset]);

  const finish = async (id: string) => {
    await reload().catch(() => undefined);
    notifySuccess(t('console:done.profileSaved'));
    onSaved?.({ userId: id });
    onOpenChange(false);
  };

  const contactChanged = (watch('mobilePhone') ?? '').trim() !== saved.mobilePhone || (watch('email') ?? '').trim() !== saved.email;

  const onSubmit = handleSubmit(async (values) => {
    if (!userId) return;
    let answer: users.ProfileAnswer;
    try {
      answer = await users.updateProfile({
        realName: values.realName,
        avatar: values.avatar ?? '',
        mobilePhone: values.mobilePhone ?? '',
        email: values.email ?? '',
        ...(contactChanged && values.currentPassword ? { currentPassword: await transformPassword(values.currentPassword) } : {}),
      });
    } catch (error) {
      showServerFieldErrors(error, editable, setError);
      return;
    }
    const waiting: PendingContacts = {
      ...(answer.pendingEmail ? { email: answer.pendingEmail } : {}),
      ...(answer.pendingMobilePhone ? { mobilePhone: answer.pendingMobilePhone } : {}),
    };
    if (Object.keys(waiting).length) setPending(waiting);
    else await finish(userId);
  });

  const onConfirmed = (channel: keyof PendingContacts) => {
    const { [channel]: _confirmed, ...left } = pending;
    setPending(left);
    if (userId && !Object.keys(left).length) void finish(userId);
  };

  return (
    <DialogFrame open={open} onOpenChange={onOpenChange} title={t('console:profile.title')}>
      <form className={ui.form} noValidate onSubmit={(event) => void onSubmit(event)} aria-busy={!loaded || undefined}>
        <TextField label={t('console:profile.username')} readOnly registration={register('username')} autoComplete="username" />
        <TextField label={t('console:profile.realName')} required error={errors.realName?.message} registration={register('realName')} autoComplete="name" />
        <Suspense fallback={<div className={styles.uploadSpace} />}>
          <ImageUpload
            label={t('console:profile.avatar')}
            purpose="avatar"
            hint={t('upload.avatarType')}
            value={watch('avatar')}
            onChange={(url) => setValue('avatar', url, { shouldDirty: true })}
            disabled={!loaded}
          />
        </Suspense>
        <TextField
          label={t('console:profile.mobilePhone')}
          type="tel"
          inputMode="tel"
          error={errors.mobilePhone?.message}
          registration={register('mobilePhone')}
          autoComplete="tel"
        />
        <TextField label={t('console:profile.email')} type="email" error={errors.email?.message} registration={register('email')} autoComplete="email" />
        {contactChanged && (
          <PasswordField
            label={t('console:profile.currentPassword')}
            hint={t('console:profile.currentPasswordHint')}
            required
            error={errors.currentPassword?.message}
            registration={register('currentPassword')}
            autoComplete="current-password"
          />
        )}
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={() => onOpenChange(false)}>
            {t('console:action.cancel')}
          </button>
          <button type="submit" className={ui.button.primary} disabled={!loaded || isSubmitting} part="primary-button">
            {t('console:action.save')}
          </button>
        </div>
      </form>
      <ContactCodes pending={pending} onConfirmed={onConfirmed} />
    </DialogFrame>
  );
}
