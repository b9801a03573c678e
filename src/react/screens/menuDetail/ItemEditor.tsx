// The fields of one menu item (name, path, icon, bound privilege) and its place in the tree
// (add a child, move up/down among its siblings, delete with its children).
import type { ReactNode } from 'react';
import { useT } from '../../i18n';
import { PlainTextField, SelectField } from '../../widgets/admin/AdminFields';
import * as styles from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import { IconPicker } from './IconPicker';
import type { EditorItem } from './menuTree';

export interface ItemEditorProps {
  item: EditorItem;
  errors: Record<string, string>;
  /** The privileges an item may be bound to, as <option>s or <optgroup>s. */
  privilegeOptions: ReactNode;
  /** Why holders of the bound privilege cannot reach the item, if they cannot. */
  warning?: string;
  readOnly: boolean;
  place: { index: number; count: number };
  onChange: (changes: Partial<EditorItem>) => void;
  onAddChild: () => void;
  onShift: (step: -1 | 1) => void;
  onDelete: () => void;
}

export function ItemEditor({ item, errors, privilegeOptions, warning, readOnly, place, onChange, onAddChild, onShift, onDelete }: ItemEditorProps) {
  const t = useT();
  const label = item.name || t('admin:menu.untitled');
  const named = (action: 'addChild' | 'up' | 'down' | 'deleteItem') => t('admin:action.of', { action: t(`admin:menu.${action}`), name: label });
  return (
    <section className={ui.card} aria-labelledby="iam-menu-item">
      <h3 id="iam-menu-item" className={styles.panelTitle}>
        {label}
      </h3>
      <fieldset className={`${ui.form} ${styles.plainFieldset}`} disabled={readOnly}>
        <PlainTextField label={t('admin:menu.itemName')} required value={item.name} error={errors.name} onValue={(name) => onChange({ name })} />
        <PlainTextField
          label={t('admin:menu.itemNameZh')}
          value={item.nameZh}
          error={errors.nameZh}
          hint={t('admin:menu.itemNameZhHint')}
          onValue={(nameZh) => onChange({ nameZh })}
        />
        <PlainTextField
          label={t('admin:menu.itemPath')}
          required
          value={item.path}
          error={errors.path}
          hint={t('admin:menu.pathHint')}
          onValue={(path) => onChange({ path })}
        />
        <IconPicker label={t('admin:menu.icon')} value={item.icon} error={errors.icon} disabled={readOnly} onChange={(icon) => onChange({ icon })} />
        <SelectField
          label={t('admin:menu.privilege')}
          value={item.privilegeId}
          error={errors.privilegeId}
          hint={t('admin:menu.privilegeHint')}
          onChange={(event) => onChange({ privilegeId: event.currentTarget.value })}
        >
          <option value="">{t('admin:menu.everyone')}</option>
          {privilegeOptions}
        </SelectField>
        {warning && (
          <p className={styles.warning} role="status">
            {warning}
          </p>
        )}
      </fieldset>
      {!readOnly && (
        <div className={ui.actions}>
          <button type="button" className={ui.button.secondary} aria-label={named('addChild')} onClick={onAddChild}>
            {t('admin:menu.addChild')}
          </button>
          <button type="button" className={ui.button.secondary} aria-label={named('up')} disabled={place.index <= 0} onClick={() => onShift(-1)}>
            {t('admin:privilege.up')}
          </button>
          <button
            type="button"
            className={ui.button.secondary}
            aria-label={named('down')}
            disabled={place.index < 0 || place.index >= place.count - 1}
            onClick={() => onShift(1)}
          >
            {t('admin:privilege.down')}
          </button>
          <button type="button" className={ui.button.danger} aria-label={named('deleteItem')} onClick={onDelete}>
            {t('admin:menu.deleteItem')}
          </button>
        </div>
      )}
    </section>
  );
}
