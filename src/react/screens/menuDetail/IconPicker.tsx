// The icon of a menu item, chosen by looking at the icons rather than typing their names: a
// single-select listbox laid out as a grid of the console's icons (and "no icon"), each option
// named in the person's language. One Tab stop (the chosen option); the arrow keys move in the
// grid (left/right along a row, up/down a column of however many fit the width), Home and End to the ends, and the choice
// follows the focus, as in a radio group.
import { useId, useRef, type KeyboardEvent } from 'react';
import type { TextKey } from '../../../core/i18n';
import { useT, useTRule } from '../../i18n';
import { Icon, type IconName } from '../../widgets/Icon';
import * as ui from '../../widgets/ui.css';
import * as styles from './IconPicker.css';

/** The console's icons an item may show (those the side menu can draw). */
const MENU_ICONS = [
  'home',
  'operate',
  'app',
  'user',
  'tenant',
  'setting',
  'tunnel',
  'menu',
  'profile',
  'message',
  'history',
  'userInfo',
  'key',
  'shield',
  'device',
  'globe',
  'external',
] as const satisfies readonly IconName[];

/** The translated name of an icon ('' is "no icon"). */
const isMenuIcon = (icon: string): icon is (typeof MENU_ICONS)[number] => (MENU_ICONS as readonly string[]).includes(icon);
const iconNameKey = (icon: string): TextKey => (isMenuIcon(icon) ? `admin:icon.${icon}` : 'admin:menu.noIcon');

/** Options in the grid's first row (the row length follows the width). */
function columnsOf(grid: HTMLElement | null): number {
  const options = [...(grid?.children ?? [])] as HTMLElement[];
  const top = options[0]?.offsetTop;
  return Math.max(1, options.filter((option) => option.offsetTop === top).length);
}

export interface IconPickerProps {
  label: string;
  value: string;
  error?: string;
  disabled?: boolean;
  onChange: (icon: string) => void;
}

export function IconPicker({ label, value, error, disabled, onChange }: IconPickerProps) {
  const t = useT();
  const tRule = useTRule();
  const id = useId();
  const list = useRef<HTMLDivElement>(null);
  const options = ['', ...MENU_ICONS] as const;
  const chosen = Math.max(
    0,
    options.findIndex((icon) => icon === value),
  );

  const choose = (index: number) => {
    const next = Math.min(options.length - 1, Math.max(0, index));
    onChange(options[next] ?? '');
    list.current?.querySelectorAll<HTMLElement>('[role="option"]')[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const columns = columnsOf(list.current);
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: columns, ArrowUp: -columns, Home: -options.length, End: options.length };
    const step = moves[event.key];
    if (step === undefined || disabled) return;
    event.preventDefault();
    choose(chosen + step);
  };

  return (
    <div className={ui.field}>
      <span id={`${id}-label`} className={ui.label}>
        {label}
      </span>
      <div
        ref={list}
        role="listbox"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-chosen${error ? ` ${id}-error` : ''}`}
        aria-invalid={error ? true : undefined}
        aria-disabled={disabled || undefined}
        className={styles.grid}
        onKeyDown={onKeyDown}
      >
        {options.map((icon, index) => {
          const name = t(iconNameKey(icon));
          return (
            <div
              key={icon || 'none'}
              role="option"
              aria-selected={index === chosen}
              aria-label={name}
              title={name}
              tabIndex={index === chosen && !disabled ? 0 : -1}
              className={styles.option}
              onClick={() => !disabled && choose(index)}
            >
              {icon ? <Icon name={icon} className={styles.icon} /> : <span className={styles.none} aria-hidden="true" />}
            </div>
          );
        })}
      </div>
      <p id={`${id}-chosen`} className={ui.hint}>
        {t('admin:menu.iconChosen', { name: t(iconNameKey(options[chosen] ?? '')) })}
      </p>
      {error && (
        <p id={`${id}-error`} className={ui.fieldError}>
          {tRule(error)}
        </p>
      )}
    </div>
  );
}
