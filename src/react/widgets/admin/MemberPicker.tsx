// Picks people: the chosen ones as removable chips, and a search (debounced, the UI constants) that offers a few
// matching users to add. Used for app administrators, role members and tenant administrators.
import { useEffect, useId, useState } from 'react';
import { TIMING } from '../../../core/config';
import { useT } from '../../i18n';
import { Icon } from '../Icon';
import * as ui from '../ui.css';
import * as styles from './admin.css';

export interface Person {
  id: string;
  username: string;
  realName: string;
}

export interface MemberPickerProps {
  label: string;
  members: readonly Person[];
  onChange: (members: Person[]) => void;
  /** Candidates for the text typed. */
  search: (text: string) => Promise<Person[]>;
  disabled?: boolean;
}

export function MemberPicker({ label, members, onChange, search, disabled }: MemberPickerProps) {
  const t = useT();
  const id = useId();
  const [text, setText] = useState('');
  const [found, setFound] = useState<Person[]>([]);

  useEffect(() => {
    const wanted = text.trim();
    if (!wanted) {
      setFound([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      search(wanted).then(
        (people) => live && setFound(people),
        () => live && setFound([]),
      );
    }, TIMING.searchDebounceMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, search]);

  const chosen = new Set(members.map((member) => member.id));
  const offers = found.filter((person) => !chosen.has(person.id));
  return (
    <div className={styles.stack}>
      <ul className={styles.chips} aria-label={label}>
        {members.map((member) => (
          <li key={member.id} className={styles.chip}>
            {member.realName} ({member.username})
            {!disabled && (
              <button
                type="button"
                className={styles.chipRemove}
                aria-label={t('admin:members.remove', { name: member.username })}
                onClick={() => onChange(members.filter((each) => each.id !== member.id))}
              >
                <Icon name="close" className={styles.chipIcon} />
              </button>
            )}
          </li>
        ))}
        {!members.length && <li className={ui.muted}>{t('admin:members.none')}</li>}
      </ul>
      {!disabled && (
        <div className={styles.control}>
          <label htmlFor={id} className={styles.controlLabel}>
            {t('admin:members.find')}
          </label>
          <input id={id} type="search" className={ui.input} value={text} autoComplete="off" onChange={(event) => setText(event.currentTarget.value)} />
          {offers.length > 0 && (
            <ul className={styles.options} aria-label={t('admin:members.found')}>
              {offers.map((person) => (
                <li key={person.id}>
                  <button
                    type="button"
                    className={ui.button.ghost}
                    onClick={() => onChange([...members, person])}
                    aria-label={t('admin:members.add', { name: person.username })}
                  >
                    + {person.realName} ({person.username})
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
