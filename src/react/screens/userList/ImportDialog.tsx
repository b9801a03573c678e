// Import users from a CSV file: the template, the file, a check that lists every refused row (the
// same rules as the user form), then the import with its progress and the rows it refused. Both
// run on the server as a job, polled here until done.
import { useEffect, useId, useRef, useState } from 'react';
import { importJob, importTemplate, startImport } from '../../../core/api/user-import';
import { HttpError } from '../../../core/http';
import { IMPORT_MAX_BYTES, MAX_LISTED_PROBLEMS, ImportStatus, type ImportJob, type ImportMode } from '../../../core/schemas/user-import';
import type { FieldErrors } from '../../../core/types';
import { DialogFrame } from '../../dialogs/DialogFrame';
import { FileChooser } from '../../widgets/FileChooser';
import { useT, useTRule } from '../../i18n';
import * as table from '../../widgets/admin/admin.css';
import * as ui from '../../widgets/ui.css';
import * as styles from './import.css';

const POLL_MS = 500;
const MiB = 1024 * 1024;

type Problem = ImportJob['problems'][number];

export default function ImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const t = useT();
  const tRule = useTRule();
  const id = useId();
  const [file, setFile] = useState<File>();
  const [job, setJob] = useState<ImportJob>();
  const [fileError, setFileError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [template, setTemplate] = useState<string>();
  const alive = useRef(true);
  const importButton = useRef<HTMLButtonElement>(null);
  const checkButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => () => void (alive.current = false), []);
  useEffect(() => {
    const url = URL.createObjectURL(importTemplate());
    setTemplate(url);
    return () => URL.revokeObjectURL(url);
  }, []);

  const running = job?.status === ImportStatus.Running;

  const run = async (mode: ImportMode) => {
    if (!file) return setFileError('rule.required');
    setFileError(undefined);
    setFailure(undefined);
    let current: ImportJob;
    try {
      current = await startImport(file, mode);
      setJob(current);
      while (current.status === ImportStatus.Running && alive.current) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        current = await importJob(current.id);
        if (alive.current) setJob(current);
      }
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      const fields = error.status === 400 ? ((error.data as Partial<FieldErrors> | null)?.fields ?? []) : [];
      const onFile = fields.find((field) => field.field === 'file');
      if (onFile) setFileError(onFile.rule);
      else setFailure(error.message);
      setJob(undefined);
      return;
    }
    if (mode === 'apply') onImported();
  };

  /** A problem's text: a rule key of the user form, or the server's message (already translated). */
  const problemText = (problem: Problem) => (problem.rule.startsWith('rule.') ? tRule(problem.rule) : problem.rule);
  const counts = job && { created: job.created, updated: job.updated, unchanged: job.unchanged, failed: job.failed };
  const finished = job && job.status !== ImportStatus.Running;
  // The button that ran was disabled while it ran, which left the focus nowhere: it goes to the next
  // step, which is also the primary button. After a check with rows to import, "Import"; after an
  // import, "Close"; otherwise (nothing to import, a failure) "Check the file" again.
  const checked = finished && job.mode === 'check' && job.status === ImportStatus.Done && job.created + job.updated > 0;
  const imported = finished && job.mode === 'apply' && job.status === ImportStatus.Done;
  const next = checked ? importButton : imported ? closeButton : checkButton;
  useEffect(() => {
    if (finished) next.current?.focus();
  }, [finished, next]);

  return (
    <DialogFrame open size="wide" onOpenChange={(open) => !open && !running && onClose()} title={t('admin:import.title')} description={t('admin:import.intro')}>
      <div className={ui.form}>
        <p className={ui.hint}>{t('admin:import.columns')}</p>
        <p className={ui.hint}>{t('admin:import.limits', { size: IMPORT_MAX_BYTES / MiB })}</p>
        {template && (
          <a className={`${ui.button.secondary} ${styles.template}`} href={template} download="users-template.csv">
            {t('admin:import.template')}
          </a>
        )}
        <FileChooser
          label={t('admin:import.file')}
          chooseText={t('admin:import.choose')}
          noFileText={t('admin:import.noFile')}
          accept=".csv,text/csv"
          disabled={running}
          error={fileError && tRule(fileError)}
          onFile={(chosen) => {
            setFile(chosen);
            setJob(undefined);
            setFileError(undefined);
          }}
        />
        {job && running && (
          <div className={styles.progress}>
            <span id={`${id}-progress`}>{t(job.mode === 'check' ? 'admin:import.checking' : 'admin:import.importing')}</span>
            <progress aria-labelledby={`${id}-progress`} max={job.total || 1} value={job.processed} />
            <span className={ui.hint}>{t('admin:import.progress', { processed: job.processed, total: job.total })}</span>
          </div>
        )}
        {finished && counts && (
          <div role={job.status === ImportStatus.Failed ? 'alert' : 'status'} className={styles.summary}>
            {job.status === ImportStatus.Failed && job.error
              ? t(`admin:import.${job.error}`, { ...counts, processed: job.processed, total: job.total })
              : t(job.mode === 'check' ? 'admin:import.checked' : 'admin:import.done', counts)}
          </div>
        )}
        {finished && job.problems.length > 0 && (
          <section aria-labelledby={`${id}-problems`}>
            <h3 id={`${id}-problems`} className={styles.heading}>
              {t('admin:import.problems')}
            </h3>
            {/* Up to MAX_LISTED_PROBLEMS rows scroll in their own region, reachable by keyboard. */}
            <div className={styles.problems} tabIndex={0} role="region" aria-labelledby={`${id}-problems`}>
              <table className={table.table} aria-labelledby={`${id}-problems`}>
                <thead>
                  <tr>
                    {[t('admin:import.row'), t('admin:user.username'), t('admin:import.field'), t('admin:import.problem')].map((header) => (
                      <th key={header} scope="col" className={table.th}>
                        {header}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {job.problems.map((problem) => (
                    <tr key={`${problem.row}-${problem.field}`}>
                      <td className={table.td}>{problem.row}</td>
                      <td className={table.td}>{problem.username || '—'}</td>
                      <td className={table.td}>{problem.field || '—'}</td>
                      <td className={table.td}>{problemText(problem)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {job.problems.length >= MAX_LISTED_PROBLEMS && <p className={ui.hint}>{t('admin:import.moreProblems', { count: MAX_LISTED_PROBLEMS })}</p>}
          </section>
        )}
        {failure && (
          <p role="alert" className={ui.formError}>
            {failure}
          </p>
        )}
        <div className={ui.actions}>
          <button
            ref={closeButton}
            type="button"
            className={next === closeButton ? ui.button.primary : ui.button.secondary}
            disabled={running}
            onClick={onClose}
          >
            {t('admin:import.close')}
          </button>
          <button
            ref={checkButton}
            type="button"
            className={next === checkButton ? ui.button.primary : ui.button.secondary}
            disabled={running || !file}
            onClick={() => void run('check')}
          >
            {t('admin:import.check')}
          </button>
          <button
            ref={importButton}
            type="button"
            className={next === importButton ? ui.button.primary : ui.button.secondary}
            disabled={running || !file}
            onClick={() => void run('apply')}
          >
            {t('admin:import.start')}
          </button>
        </div>
      </div>
    </DialogFrame>
  );
}
