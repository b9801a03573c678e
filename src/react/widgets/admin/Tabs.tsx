// Tabs (the WAI-ARIA tabs pattern): a tab list where the arrow keys move and select (wrapping), Home
// and End go to the first and last tab, and only the selected tab is in the Tab order; the selected
// tab's panel. One component for every tab strip of the console (app details, tenants, login settings).
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import * as styles from './admin.css';

export interface TabsProps<K extends string> {
  label: string;
  tabs: readonly { key: K; label: string }[];
  selected: K;
  onSelect: (key: K) => void;
  /** The strip sits on the page rather than on a card (its sideways-scroll cue takes the page's colour). */
  onPage?: boolean;
  children: ReactNode;
}

export function Tabs<K extends string>({ label, tabs, selected, onSelect, onPage, children }: TabsProps<K>) {
  const id = useId();
  const refs = useRef(new Map<K, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.findIndex((tab) => tab.key === selected);
    const target = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = tabs[(target + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.key);
    refs.current.get(next.key)?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} className={onPage ? styles.tabsOnPage : styles.tabs} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            ref={(element) => {
              if (element) refs.current.set(tab.key, element);
            }}
            type="button"
            role="tab"
            id={`${id}-${tab.key}`}
            aria-selected={tab.key === selected}
            aria-controls={`${id}-panel`}
            tabIndex={tab.key === selected ? 0 : -1}
            className={styles.tab}
            onClick={() => onSelect(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${selected}`}>
        {children}
      </div>
    </>
  );
}
