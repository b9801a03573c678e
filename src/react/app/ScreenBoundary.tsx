// Catches a screen that failed to load or to render (e.g. its chunk is gone after a new
// deployment) and offers to load the page again, instead of leaving the person on "Loading…".
// A new route resets it.
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { t } from '../../core/i18n';
import { notifyError } from '../../core/messages';
import * as ui from '../widgets/ui.css';
import * as styles from './shell.css';

interface ScreenBoundaryProps {
  /** The location shown: a change clears the error. */
  location: string;
  children: ReactNode;
}

interface ScreenBoundaryState {
  failedAt?: string;
}

export class ScreenBoundary extends Component<ScreenBoundaryProps, ScreenBoundaryState> {
  override state: ScreenBoundaryState = {};

  static getDerivedStateFromError(): Partial<ScreenBoundaryState> {
    return { failedAt: '' };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo): void {
    this.setState({ failedAt: this.props.location });
    notifyError(error.message || t('console:screenFailed'));
  }

  override render(): ReactNode {
    const { failedAt } = this.state;
    if (failedAt === undefined || (failedAt !== '' && failedAt !== this.props.location)) return this.props.children;
    return (
      <div className={styles.loading} role="alert">
        <p>{t('console:screenFailed')}</p>
        <button type="button" className={ui.button.secondary} onClick={() => location.reload()}>
          {t('console:reload')}
        </button>
      </div>
    );
  }
}
