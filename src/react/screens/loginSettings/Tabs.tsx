// Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs; only the
// selected panel is rendered.
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import * as styles from './settings.css';

export interface TabDef {
  id: string;
  label: string;
  panel: () => ReactNode;
}

export function Tabs({ label, tabs, selected, onSelect }: { label: string; tabs: TabDef[]; selected: string; onSelect: (id: string) => void }) {
  const base = useId();
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0]!;

  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.indexOf(current);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };

  return (
    <>
      <div role="tablist" aria-label={label} className={styles.tabs} onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) refs.current.set(tab.id, element);
            }}
            type="button"
            role="tab"
            id={`${base}-${tab.id}-tab`}
            aria-selected={tab.id === current.id}
            aria-controls={`${base}-${tab.id}-panel`}
            tabIndex={tab.id === current.id ? 0 : -1}
            className={styles.tab}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-${current.id}-panel`} aria-labelledby={`${base}-${current.id}-tab`}>
        {current.panel()}
      </div>
    </>
  );
}
