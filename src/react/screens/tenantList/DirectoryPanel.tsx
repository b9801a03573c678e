// A tenant's directory connection (LDAP / Active Directory, docs/ldap.md): the connection form
// (the bind secret is write-only: empty keeps the stored one; a preset fills the filters and the
// attribute mapping), "Test connection" naming the step that failed, "Synchronise now" and the
// synchronisation reports. Whether the directory is asked at first sign-ins is the platform
// administrator's to change; others see it. Loaded lazily with the tenant's "Directory" tab.
import { useEffect, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { valibotResolver } from '@hookform/resolvers/valibot';
import * as v from 'valibot';
import * as ldapApi from '../../../core/api/ldap';
import { appRoles, type UserAppRoles } from '../../../core/api/user-admin';
import type { LdapConnection, LdapSyncReport, LdapTestAnswer } from '../../../core/api/ldap';
import type { Tenant } from '../../../core/api/tenants';
import { LDAP_PRESET_SETTINGS } from '../../../core/ldap-presets';
import { LDAP_PRESETS, ldapConnectionBody } from '../../../core/schemas/ldap';
import { formatDate } from '../../../core/format';
import { notifySuccess } from '../../../core/messages';
import { useT, useTRule } from '../../i18n';
import { useInternationalRulesLink } from '../../widgets/admin/InternationalRulesHint';
import { PasswordField, TextField } from '../../widgets/TextFields';
import { CheckboxField, PlainTextField, SelectField, TextAreaField } from '../../widgets/admin/AdminFields';
import { refusalOf } from '../../widgets/admin/serverErrors';
import { useAdminScope } from '../../widgets/admin/scope';
import { RoleSelect } from './RoleSelect';
import * as ui from '../../widgets/ui.css';
import * as styles from '../../widgets/admin/admin.css';

type Values = v.InferInput<typeof ldapConnectionBody>;
type GroupRoleRow = { key: number; groupDn: string; roleId: string };
let nextRowKey = 0;
const rowsOf = (values: Values): GroupRoleRow[] => values.settings.groupRoles.map((entry) => ({ key: nextRowKey++, ...entry }));
const MAPPING_FIELDS = ['username', 'principalName', 'realName', 'email', 'mobilePhone', 'externalId', 'memberOf', 'accountControl', 'groupMember'] as const;

const blank: Values = {
  name: 'directory',
  enabled: true,
  bindSecret: '',
  settings: {
    url: '',
    startTls: false,
    caCertificate: '',
    bindDn: '',
    baseDn: '',
    netbiosDomain: '',
    preset: 'openLdap',
    ...LDAP_PRESET_SETTINGS.openLdap,
    groupRoles: [],
    syncIntervalMinutes: 0,
    allowLocalPasswords: true,
  },
  firstSignIn: false,
};
const valuesOf = (connection: LdapConnection | null): Values =>
  connection
    ? { name: connection.name, enabled: connection.enabled, firstSignIn: connection.firstSignIn, settings: connection.settings, bindSecret: '' }
    : blank;

/** A field's path as the server names it (`settings.bindDn`) when it is one of this form's. */
const formPath = (field: string) => field as Parameters<ReturnType<typeof useForm<Values>>['setError']>[0];

export default function DirectoryPanel({ tenant }: { tenant: Tenant }) {
  const t = useT();
  const [connection, setConnection] = useState<LdapConnection | null>();
  const [reports, setReports] = useState<LdapSyncReport[]>([]);
  const [failure, setFailure] = useState<string>();
  const [testAnswer, setTestAnswer] = useState<LdapTestAnswer>();
  const [busy, setBusy] = useState<'test' | 'sync'>();
  const { register, handleSubmit, setError, reset, setValue, getValues, formState } = useForm<Values>({
    resolver: valibotResolver(ldapConnectionBody),
    defaultValues: blank,
  });
  // The group → role rows live in component state (react-hook-form's field arrays would grow the
  // form library chunk every dialog shares); they join the values when the form is submitted.
  const [groupRoles, setGroupRoles] = useState<GroupRoleRow[]>([]);
  // The roles a group may map to: those of every app whose roles I may grant (the server checks the
  // same on save), read as the role list of my own account.
  const { userId, grantsAppRoles, platform } = useAdminScope();
  const [grantable, setGrantable] = useState<UserAppRoles[]>([]);
  const [roleFilter, setRoleFilter] = useState('');
  useEffect(() => {
    let live = true;
    if (userId && grantsAppRoles)
      appRoles(userId).then(
        (apps) => live && setGrantable(apps),
        () => undefined, // shown by the HTTP client
      );
    return () => {
      live = false;
    };
  }, [userId, grantsAppRoles]);
  const { errors, isSubmitting } = formState;

  useEffect(() => {
    let live = true;
    ldapApi.get(tenant.id).then(
      (found) => {
        if (!live) return;
        setConnection(found);
        reset(valuesOf(found));
        setGroupRoles(rowsOf(valuesOf(found)));
        if (found)
          void ldapApi.reports(tenant.id).then(
            (list) => live && setReports(list),
            () => undefined,
          );
      },
      () => undefined, // shown by the HTTP client
    );
    return () => {
      live = false;
    };
  }, [tenant.id, reset]);

  const applyPreset = () => {
    const preset = LDAP_PRESET_SETTINGS[getValues('settings.preset')];
    setValue('settings.userFilter', preset.userFilter, { shouldDirty: true });
    setValue('settings.groupFilter', preset.groupFilter, { shouldDirty: true });
    for (const field of MAPPING_FIELDS) setValue(`settings.mapping.${field}`, preset.mapping[field], { shouldDirty: true });
  };

  const submit = handleSubmit(async (values) => {
    setFailure(undefined);
    let saved: LdapConnection;
    try {
      // Left out, the first-sign-in choice stays as stored: only the platform administrator sends it.
      saved = await ldapApi.save(tenant.id, platform ? values : { ...values, firstSignIn: undefined });
    } catch (error) {
      const refusal = refusalOf(error);
      refusal.fields.forEach(({ field, message }) => setError(formPath(field), { type: 'server', message }));
      setFailure(refusal.message);
      return;
    }
    setConnection(saved);
    reset(valuesOf(saved));
    setGroupRoles(rowsOf(valuesOf(saved)));
    notifySuccess(t('admin:directory.saved'));
  });

  const onSubmit = (event: FormEvent) => {
    setValue(
      'settings.groupRoles',
      groupRoles.map(({ groupDn, roleId }) => ({ groupDn, roleId })),
    );
    return submit(event);
  };
  const changeRow = (key: number, change: Partial<GroupRoleRow>) => setGroupRoles((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  const runTest = async () => {
    setBusy('test');
    setTestAnswer(undefined);
    try {
      setTestAnswer(await ldapApi.test(tenant.id));
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(undefined);
    }
  };
  const runSync = async () => {
    setBusy('sync');
    try {
      const report = await ldapApi.synchronise(tenant.id);
      setReports((list) => [report, ...list.filter((item) => item.id !== report.id)]);
      notifySuccess(t('admin:directory.synced'));
    } catch {
      // shown by the HTTP client
    } finally {
      setBusy(undefined);
    }
  };

  if (connection === undefined) return <p role="status">{t('console:loading')}</p>;
  return (
    <div className={styles.stack}>
      <section className={ui.card} aria-labelledby="iam-directory-title">
        <div className={ui.cardHeader}>
          <h2 id="iam-directory-title" className={ui.cardTitle}>
            {t('admin:directory.title')}
          </h2>
        </div>
        {!connection && <p className={ui.muted}>{t('admin:directory.none')}</p>}
        <form className={ui.form} noValidate aria-labelledby="iam-directory-title" onSubmit={(event) => void onSubmit(event)}>
          <TextField label={t('admin:directory.name')} required autoComplete="off" error={errors.name?.message} registration={register('name')} />
          <TextField
            label={t('admin:directory.url')}
            required
            autoComplete="off"
            hint={t('admin:directory.urlHint')}
            error={errors.settings?.url?.message}
            registration={register('settings.url')}
          />
          <CheckboxField label={t('admin:directory.startTls')} registration={register('settings.startTls')} />
          <TextAreaField
            label={t('admin:directory.caCertificate')}
            hint={t('admin:directory.caHint')}
            error={errors.settings?.caCertificate?.message}
            registration={register('settings.caCertificate')}
          />
          <TextField
            label={t('admin:directory.bindDn')}
            required
            autoComplete="off"
            error={errors.settings?.bindDn?.message}
            registration={register('settings.bindDn')}
          />
          <PasswordField
            label={t('admin:directory.bindSecret')}
            required={!connection?.hasBindSecret}
            autoComplete="new-password"
            hint={connection?.hasBindSecret ? t('admin:directory.bindSecretKeep') : undefined}
            error={errors.bindSecret?.message}
            registration={register('bindSecret')}
          />
          <TextField
            label={t('admin:directory.baseDn')}
            required
            autoComplete="off"
            error={errors.settings?.baseDn?.message}
            registration={register('settings.baseDn')}
          />
          <TextField
            label={t('admin:directory.netbiosDomain')}
            hint={t('admin:directory.netbiosDomainHint')}
            autoComplete="off"
            error={errors.settings?.netbiosDomain?.message}
            registration={register('settings.netbiosDomain')}
          />
          <SelectField label={t('admin:directory.preset')} registration={register('settings.preset')}>
            {LDAP_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {t(`admin:directory.presets.${preset}`)}
              </option>
            ))}
          </SelectField>
          <div className={ui.actions}>
            <button type="button" className={ui.button.secondary} onClick={applyPreset}>
              {t('admin:directory.applyPreset')}
            </button>
          </div>
          <TextField
            label={t('admin:directory.userFilter')}
            required
            autoComplete="off"
            error={errors.settings?.userFilter?.message}
            registration={register('settings.userFilter')}
          />
          <TextField
            label={t('admin:directory.groupFilter')}
            autoComplete="off"
            error={errors.settings?.groupFilter?.message}
            registration={register('settings.groupFilter')}
          />
          <fieldset className={ui.form}>
            <legend className={ui.label}>{t('admin:directory.mappingTitle')}</legend>
            {MAPPING_FIELDS.map((field) => (
              <TextField
                key={field}
                label={t(`admin:directory.mapping.${field}`)}
                required={field === 'username'}
                autoComplete="off"
                error={errors.settings?.mapping?.[field]?.message}
                registration={register(`settings.mapping.${field}`)}
              />
            ))}
          </fieldset>
          <fieldset className={ui.form}>
            <legend className={ui.label}>{t('admin:directory.groupRolesTitle')}</legend>
            {groupRoles.length > 0 && (
              <PlainTextField label={t('admin:roleChoice.find')} hint={t('admin:roleChoice.findHint')} value={roleFilter} onValue={setRoleFilter} />
            )}
            {groupRoles.map((row, index) => (
              <div key={row.key} className={styles.toolbar}>
                <PlainTextField
                  label={t('admin:directory.groupDn', { n: index + 1 })}
                  required
                  value={row.groupDn}
                  onValue={(groupDn) => changeRow(row.key, { groupDn })}
                  error={errors.settings?.groupRoles?.[index]?.groupDn?.message}
                />
                <RoleSelect
                  label={t('admin:roleChoice.label', { n: index + 1 })}
                  apps={grantable}
                  filter={roleFilter}
                  value={row.roleId}
                  onValue={(roleId) => changeRow(row.key, { roleId })}
                  error={errors.settings?.groupRoles?.[index]?.roleId?.message}
                />
                <button
                  type="button"
                  className={ui.button.ghost}
                  aria-label={t('admin:directory.removeGroupRole', { n: index + 1 })}
                  onClick={() => setGroupRoles((rows) => rows.filter((other) => other.key !== row.key))}
                >
                  ✕
                </button>
              </div>
            ))}
            {errors.settings?.groupRoles?.message && <p className={ui.fieldError}>{errors.settings.groupRoles.message}</p>}
            <div>
              <button
                type="button"
                className={ui.button.secondary}
                onClick={() => setGroupRoles((rows) => [...rows, { key: nextRowKey++, groupDn: '', roleId: '' }])}
              >
                {t('admin:directory.addGroupRole')}
              </button>
            </div>
          </fieldset>
          <TextField
            label={t('admin:directory.syncInterval')}
            type="number"
            min={0}
            hint={t('admin:directory.syncIntervalHint')}
            error={errors.settings?.syncIntervalMinutes?.message}
            registration={register('settings.syncIntervalMinutes', { valueAsNumber: true })}
          />
          <CheckboxField label={t('admin:directory.enabled')} registration={register('enabled')} />
          <CheckboxField label={t('admin:directory.allowLocalPasswords')} registration={register('settings.allowLocalPasswords')} />
          {platform ? (
            <CheckboxField label={t('admin:directory.firstSignIn')} registration={register('firstSignIn')} />
          ) : (
            <CheckboxField label={t('admin:directory.firstSignIn')} checked={connection?.firstSignIn ?? false} disabled />
          )}
          <p className={ui.muted}>{t('admin:directory.firstSignInHint')}</p>
          {failure && (
            <p role="alert" className={ui.formError}>
              {failure}
            </p>
          )}
          <div className={ui.actions}>
            <button type="submit" className={ui.button.primary} disabled={isSubmitting}>
              {t('admin:directory.save')}
            </button>
          </div>
        </form>
      </section>

      <section className={ui.card} aria-labelledby="iam-directory-actions">
        <div className={ui.cardHeader}>
          <h2 id="iam-directory-actions" className={ui.cardTitle}>
            {t('admin:directory.reports')}
          </h2>
          <div className={ui.actions}>
            <button type="button" className={ui.button.secondary} disabled={!connection || !!busy} onClick={() => void runTest()}>
              {busy === 'test' ? t('admin:directory.testing') : t('admin:directory.test')}
            </button>
            <button type="button" className={ui.button.primary} disabled={!connection || !!busy} onClick={() => void runSync()}>
              {busy === 'sync' ? t('admin:directory.syncing') : t('admin:directory.sync')}
            </button>
          </div>
        </div>
        {!connection && <p className={ui.muted}>{t('admin:directory.saveFirst')}</p>}
        {testAnswer && (
          <p role={testAnswer.ok ? 'status' : 'alert'} className={testAnswer.ok ? undefined : ui.formError}>
            {testAnswer.ok
              ? t('admin:directory.testOk', { count: testAnswer.found ?? 0 })
              : t('admin:directory.testFailed', {
                  step: testAnswer.failedStep ? t(`admin:directory.steps.${testAnswer.failedStep}`) : '',
                  message: testAnswer.message,
                })}
          </p>
        )}
        {testAnswer && testAnswer.unknownGroups.length > 0 && (
          <p role="alert" className={ui.formError}>
            {t('admin:directory.unknownGroups', { groups: testAnswer.unknownGroups.join('; ') })}
          </p>
        )}
        <ReportTable reports={reports} />
      </section>
    </div>
  );
}

/** An invalid entry's refusal ("realName: rule.realName; email: …"), each rule in the reader's language. */
const refusalText = (detail: string, tRule: (message: string) => string) =>
  detail
    .split('; ')
    .map((part) => part.replace(/rule\.\S+/g, (message) => tRule(message)))
    .join('; ');

/** Names, usernames or phones refused by the default field rules: the international rules may take them. */
const refusedByDefaultRules = (reports: LdapSyncReport[]) =>
  reports.some((report) =>
    report.summary.conflicts.some((conflict) => conflict.field === 'invalid' && /rule\.(realName|username|phone)\b/.test(conflict.detail)),
  );

function ReportTable({ reports }: { reports: LdapSyncReport[] }) {
  const t = useT();
  const tRule = useTRule();
  const rulesLink = useInternationalRulesLink();
  if (!reports.length) return <p className={ui.empty}>{t('admin:directory.noReports')}</p>;
  return (
    <div className={styles.tableWrap}>
      {rulesLink && refusedByDefaultRules(reports) && <p className={ui.muted}>{rulesLink}</p>}
      <table className={styles.table} aria-label={t('admin:directory.reports')}>
        <thead>
          <tr>
            {(['time', 'trigger', 'outcome', 'counts', 'conflicts'] as const).map((column) => (
              <th key={column} scope="col" className={styles.th}>
                {t(`admin:directory.report.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {reports.map((report) => (
            <tr key={report.id} className={styles.row}>
              <td className={styles.td}>{formatDate(report.startedAt)}</td>
              <td className={styles.td}>{t(`admin:directory.triggers.${report.trigger}`)}</td>
              <td className={styles.td}>
                {t(`admin:directory.outcomes.${report.outcome}`)}
                {report.summary.error && `: ${t(`admin:directory.steps.${report.summary.error.step}`)} — ${report.summary.error.message}`}
              </td>
              <td className={styles.td}>{t('admin:directory.counts', report.summary)}</td>
              <td className={styles.td}>
                {report.summary.conflicts.length ? (
                  <ul className={ui.list}>
                    {report.summary.conflicts.map((conflict) => (
                      <li key={`${conflict.dn}-${conflict.field}`}>
                        {conflict.username} ({t(`admin:directory.conflictFields.${conflict.field}`)}
                        {conflict.field === 'invalid' && `: ${refusalText(conflict.detail, tRule)}`})
                      </li>
                    ))}
                  </ul>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
