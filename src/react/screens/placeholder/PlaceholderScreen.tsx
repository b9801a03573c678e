// A route whose screen belongs to another part of the work (issues 7 and 8): it shows the
// route's title so that routing, the menu and the breadcrumb work end to end meanwhile.
import { useT } from '../../i18n';
import * as ui from '../../widgets/ui.css';
import type { ScreenProps } from '../types';

export default function PlaceholderScreen({ route }: ScreenProps) {
  const t = useT();
  return (
    <section className={ui.card} aria-labelledby="iam-placeholder-title">
      <h1 id="iam-placeholder-title" className={ui.pageTitle}>
        {t(route.name)}
      </h1>
      <p className={ui.muted}>{t('console:placeholder.text')}</p>
    </section>
  );
}
