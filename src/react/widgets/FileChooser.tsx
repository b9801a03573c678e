// A file field drawn by the console in its own language: a "Choose a file…" button and the chosen
// file's name. The browser's own control words its button and "No file chosen" in the browser's
// language, not the console's. The real input stays in the page, named by the field's label (so a
// label lookup and file drops by tests still reach it), but out of sight and out of the tab order:
// the button (described by the label and the chosen name) opens it.
import { useId, useRef, useState } from 'react';
import * as styles from './fileChooser.css';
import * as ui from './ui.css';

export interface FileChooserProps {
  label: string;
  /** The button's text and the text shown while nothing is chosen. */
  chooseText: string;
  noFileText: string;
  accept: string;
  disabled?: boolean;
  /** The field's error, shown under it and tied to the button. */
  error?: string;
  onFile: (file: File | undefined) => void;
}

export function FileChooser({ label, chooseText, noFileText, accept, disabled, error, onFile }: FileChooserProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState<string>();
  return (
    <div className={ui.field}>
      <span id={`${id}-label`} className={ui.label}>
        {label}
      </span>
      <input
        ref={input}
        className={ui.visuallyHidden}
        type="file"
        tabIndex={-1}
        accept={accept}
        aria-labelledby={`${id}-label`}
        disabled={disabled}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          setName(file?.name);
          onFile(file);
        }}
      />
      <div className={styles.row}>
        <button
          type="button"
          className={ui.button.secondary}
          disabled={disabled}
          aria-describedby={`${id}-label ${id}-name${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          onClick={() => input.current?.click()}
        >
          {chooseText}
        </button>
        <span id={`${id}-name`} className={`${ui.hint} ${ui.ellipsis}`} aria-live="polite">
          {name ?? noFileText}
        </span>
      </div>
      {error && (
        <p id={`${id}-error`} className={ui.fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}
