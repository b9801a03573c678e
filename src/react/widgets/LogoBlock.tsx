// The logo block Collapsed: the small logo. Expanded: the brand image, or the logo plus
// the application name. The dark theme shows the light brand image (it is drawn for dark
// backgrounds). Without a configured logo the console's own mark is shown.
import { useStore } from '../store';
import { $config } from '../../core/config-store';
import { fileUrl } from '../../core/api/files';
import type { Theme } from '../../core/enums';
import * as styles from './LogoBlock.css';
import * as ui from './ui.css';

/** The console's own mark: a shield with a key slot, in the primary colour. */
export function ConsoleMark({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 2.5 27 6.6v8.2c0 6.9-4.6 12.3-11 14.7C9.6 27.1 5 21.7 5 14.8V6.6Z" fill="currentColor" />
      <circle cx="16" cy="13.5" r="3.6" fill="none" stroke="var(--iam-color-surface)" strokeWidth="2.2" />
      <path d="M16 17v6" stroke="var(--iam-color-surface)" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

export interface LogoBlockProps {
  collapsed: boolean;
  theme: Theme;
}

export function LogoBlock({ collapsed, theme }: LogoBlockProps) {
  const { appName, appLogo, appBrandImage, appBrandImageLight } = useStore($config).system;
  const brandImage = theme === 'dark' ? appBrandImageLight || appBrandImage : appBrandImage || appBrandImageLight;
  const logo = appLogo ? <img className={styles.logo} src={fileUrl(appLogo)} alt="" /> : <ConsoleMark className={styles.logo} />;

  if (collapsed) {
    return (
      <span className={`${styles.block} ${styles.collapsed}`} title={appName}>
        {logo}
        <span className={ui.visuallyHidden}>{appName}</span>
      </span>
    );
  }
  if (brandImage) {
    return (
      <span className={styles.block}>
        <img className={styles.brandImage} src={fileUrl(brandImage)} alt={appName} />
      </span>
    );
  }
  return (
    <span className={styles.block}>
      {logo}
      <span className={styles.name}>{appName}</span>
    </span>
  );
}
