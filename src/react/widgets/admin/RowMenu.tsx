// A row's less frequent actions behind one "More" button (WAI-ARIA menu button): the menu opens
// below the button (above it near the bottom, always inside the window), arrows move between
// items, Escape or a click elsewhere closes it. It is positioned fixed at the button (set through the CSSOM, like any popover library does) so the
// table's scroll box does not clip it.
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useT } from '../../i18n';
import { Icon } from '../Icon';
import * as ui from '../ui.css';
import * as styles from './admin.css';

export interface RowMenuItem {
  key: string;
  label: string;
  danger?: boolean;
  onSelect: () => void;
}

export function RowMenu({ label, items }: { label: string; items: readonly RowMenuItem[] }) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const buttons = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];

  useLayoutEffect(() => {
    if (!open || !trigger.current || !menu.current) return;
    const box = trigger.current.getBoundingClientRect();
    const { offsetWidth: width, offsetHeight: height } = menu.current;
    // The layout viewport without scrollbars; the menu stays 8 px inside it on every side, even
    // when the button itself is partly out of view.
    const { clientWidth: viewWidth, clientHeight: viewHeight } = document.documentElement;
    const below = box.bottom + height + 8 < viewHeight;
    const within = (value: number, size: number, room: number) => Math.max(8, Math.min(value, room - size - 8));
    Object.assign(menu.current.style, {
      top: `${within(below ? box.bottom + 4 : box.top - height - 4, height, viewHeight)}px`,
      left: `${within(box.right - width, width, viewWidth)}px`,
    });
    buttons()[0]?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event.type === 'pointerdown' && [menu.current, trigger.current].some((element) => element && event.composedPath().includes(element))) return;
      setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    window.addEventListener('resize', close);
    window.addEventListener('scroll', close, true);
    return () => {
      document.removeEventListener('pointerdown', close);
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', close, true);
    };
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    const all = buttons();
    const at = all.findIndex((button) => button === event.target);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 };
    // Tab and Shift+Tab go round the items too: the open menu keeps the focus until Escape or a choice.
    const key = event.key === 'Tab' ? (event.shiftKey ? 'ArrowUp' : 'ArrowDown') : event.key;
    if (key in moves) {
      event.preventDefault();
      all[((moves[key] ?? 0) + all.length) % all.length]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      trigger.current?.focus();
    }
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={`${ui.button.ghost} ${styles.small}`}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        {t('admin:action.more')}
        <Icon name="chevronDown" className={styles.chipIcon} />
      </button>
      {open && (
        <ul ref={menu} id={id} role="menu" aria-label={label} className={styles.menu} onKeyDown={onKeyDown}>
          {items.map((item) => (
            <li key={item.key} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={`${styles.menuItem} ${item.danger ? styles.menuItemDanger : ''}`}
                onClick={() => {
                  // The item goes away with the menu: give the focus back to the menu button first,
                  // so a dialog the item opens returns it there when it closes.
                  trigger.current?.focus();
                  setOpen(false);
                  item.onSelect();
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
