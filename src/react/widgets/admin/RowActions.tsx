// A row's actions: its frequent ones as buttons side by side, the others behind a "More" menu
// (RowMenu). An action with `confirm` asks first (ConfirmDialog) and runs once confirmed; the
// question closes when the action is done, so an action may open the next dialog itself.
import { lazy, Suspense, useState } from 'react';
import * as ui from '../ui.css';
import * as styles from './admin.css';
import { RowMenu } from './RowMenu';

const ConfirmDialog = lazy(() => import('../../dialogs/ConfirmDialog'));

export interface RowAction {
  key: string;
  /** The visible text. */
  label: string;
  /** A button's accessible name: its visible text with the row it acts on ("Edit <name>"). */
  name?: string;
  /** Shown as dangerous in the "More" menu. */
  danger?: boolean;
  confirm?: { title: string; question: string; confirmLabel?: string };
  onSelect: () => Promise<void> | void;
}

export interface RowActionsProps {
  actions: readonly RowAction[];
  /** The "More" menu: its button's accessible name and its actions. */
  more?: { label: string; actions: readonly RowAction[] };
}

export function RowActions({ actions, more }: RowActionsProps) {
  const [asking, setAsking] = useState<RowAction>();
  const select = (action: RowAction) => (action.confirm ? setAsking(action) : void action.onSelect());
  return (
    <>
      {actions.map((action) => (
        <button key={action.key} type="button" className={`${ui.button.ghost} ${styles.small}`} aria-label={action.name} onClick={() => select(action)}>
          {action.label}
        </button>
      ))}
      {more && (
        <RowMenu
          label={more.label}
          items={more.actions.map((action) => ({ key: action.key, label: action.label, danger: action.danger, onSelect: () => select(action) }))}
        />
      )}
      {asking?.confirm && (
        <Suspense fallback={null}>
          <ConfirmDialog open onOpenChange={(open) => !open && setAsking(undefined)} {...asking.confirm} onConfirm={asking.onSelect} />
        </Suspense>
      )}
    </>
  );
}
