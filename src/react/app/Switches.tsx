// The locale switch (en/中文; Chinese texts load on demand, the choice is kept) and the theme
// switch (dark green by default, light) of the top bar.
import { setLocale } from '../../core/i18n';
import { useLocaleScope, useT } from '../i18n';
import { Icon } from '../widgets/Icon';
import * as ui from '../widgets/ui.css';
import { useConsole } from './context';
import * as styles from './topBar.css';

export function LocaleSwitch() {
  const t = useT();
  const { locale, choose = setLocale } = useLocaleScope();
  const next = locale === 'zh' ? 'en' : 'zh';
  return (
    <button
      type="button"
      className={`${ui.button.ghost} ${styles.localeButton}`}
      lang={next}
      title={t('console:topBar.language')}
      onClick={() => void choose(next)}
    >
      <Icon name="globe" className={`${ui.icon} ${styles.localeIcon}`} />
      {next === 'zh' ? (
        '中文'
      ) : (
        <>
          <span className={styles.localeFull}>English</span>
          <span className={styles.localeShort} aria-hidden="true">
            EN
          </span>
        </>
      )}
    </button>
  );
}

export function ThemeSwitch() {
  const t = useT();
  const { theme, setTheme } = useConsole();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = t(next === 'light' ? 'console:topBar.lightTheme' : 'console:topBar.darkTheme');
  return (
    <button type="button" className={ui.iconButton} aria-label={label} title={label} onClick={() => setTheme(next)}>
      <Icon name={next === 'light' ? 'sun' : 'moon'} />
    </button>
  );
}
