// Starts a menu plan: for the global menu or an app that has none yet; the plan is then built in
// the menu detail page.
import { useEffect, useState } from 'react';
import * as appApi from '../../../core/api/apps';
import type { App } from '../../../core/api/apps';
import { GLOBAL_MENU } from '../../../core/api/menu-plans';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { useNavigate } from '../../app/router';
import { useT } from '../../i18n';
import { SelectField } from '../../widgets/admin/AdminFields';
import * as ui from '../../widgets/ui.css';
import { menuDetailPath } from '../../../core/routes';

/** How many apps the choice offers (a console has a handful; the list is paged on the server). */
const APP_CHOICES = 100;

export default function NewPlanDialog({ planned, onClose }: { planned: readonly (string | null)[]; onClose: () => void }) {
  const t = useT();
  const navigate = useNavigate();
  const [apps, setApps] = useState<App[]>();
  const [choice, setChoice] = useState('');

  useEffect(() => {
    let live = true;
    appApi.list({ size: APP_CHOICES }).then(
      (page) => live && setApps(page.list),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const options = [
    ...(planned.includes(null) ? [] : [{ value: GLOBAL_MENU, label: t('admin:menu.global') }]),
    ...(apps ?? []).filter((app) => !planned.includes(app.id)).map((app) => ({ value: app.id, label: app.name })),
  ];
  const selected = choice || options[0]?.value || '';

  return (
    <DialogFrame open onOpenChange={(open) => !open && onClose()} title={t('admin:menu.createTitle')} size="small">
      <div className={ui.form}>
        {!apps ? (
          <p role="status">{t('console:loading')}</p>
        ) : options.length ? (
          <SelectField label={t('admin:menu.app')} value={selected} onChange={(event) => setChoice(event.currentTarget.value)}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </SelectField>
        ) : (
          <p className={ui.empty}>{t('admin:menu.allPlanned')}</p>
        )}
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} onClick={onClose}>
            {t('console:action.cancel')}
          </button>
          <button type="button" className={ui.button.primary} disabled={!selected} onClick={() => navigate(menuDetailPath(selected))}>
            {t('console:action.continue')}
          </button>
        </div>
      </div>
    </DialogFrame>
  );
}
