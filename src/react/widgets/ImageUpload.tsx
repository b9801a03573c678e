// The image upload widget: a preview and an Upload (上传) button. The file is checked by
// the core's upload rules (type by content, size, squareness) before it is sent to
// POST /api/file/upload; the preview then shows /api/file/get/{url} and the bound value becomes
// the returned URL.
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { fileUrl, upload } from '../../core/api/files';
import { acceptOf, checkUpload, type UploadPurpose } from '../../core/upload';
import { useT } from '../i18n';
import { Icon } from './Icon';
import * as styles from './ImageUpload.css';
import * as ui from './ui.css';

export interface ImageUploadProps {
  label: string;
  purpose: UploadPurpose;
  /** The stored file URL (as the upload answered it); empty for none. */
  value?: string;
  onChange: (url: string) => void;
  hint?: string;
  disabled?: boolean;
  /** The label is read to assistive technology but not shown (a card title already says it). */
  labelHidden?: boolean;
}

export function ImageUpload({ label, purpose, value, onChange, hint, disabled, labelHidden }: ImageUploadProps) {
  const t = useT();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    // The same file may be chosen again after a fix elsewhere: clear the input at once.
    event.currentTarget.value = '';
    if (!file) return;
    setError(undefined);
    const check = checkUpload({ bytes: new Uint8Array(await file.arrayBuffer()), size: file.size, name: file.name }, purpose);
    if (!check.ok) {
      setError(t(check.message));
      return;
    }
    setBusy(true);
    try {
      onChange(await upload(file, file.name, purpose));
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const labelId = `${id}-label`;
  const describedBy = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const previewClass = `${styles.preview[purpose]} ${value ? styles.filled : ''}`;

  return (
    <div className={ui.field}>
      <span id={labelId} className={labelHidden ? ui.visuallyHidden : ui.label}>
        {label}
      </span>
      <div className={styles.row}>
        <div className={previewClass}>
          {value ? (
            <img
              className={`${styles.image} ${purpose === 'avatar' ? styles.avatarImage : ''}`}
              src={fileUrl(value)}
              alt={t('console:upload.preview', { name: label })}
            />
          ) : (
            <Icon name="upload" className={styles.placeholder} />
          )}
        </div>
        <input
          ref={input}
          id={`${id}-file`}
          className={ui.visuallyHidden}
          type="file"
          tabIndex={-1}
          accept={acceptOf(purpose)}
          aria-labelledby={labelId}
          disabled={disabled || busy}
          onChange={(event) => void onFile(event)}
        />
        <button type="button" className={ui.button.secondary} disabled={disabled || busy} aria-describedby={describedBy} onClick={() => input.current?.click()}>
          <Icon name="upload" />
          {t('upload.button')}
        </button>
      </div>
      {hint && (
        <p id={`${id}-hint`} className={ui.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={ui.fieldError} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
