// A card whose code is a lazily loaded chunk and whose texts may be in a lazily loaded namespace
// (the personal center's recovery codes): until both are there, a stand-in of the card's size
// holds its place, so that nothing after it moves when it arrives (bench/layout-shift.mjs).
import { Suspense, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import type { Namespace } from '../../core/i18n';
import { useTexts } from '../i18n';
import * as ui from './ui.css';

/**
 * The card `card` (a `lazy(() => import(…))` made once, at module level) with `props`, once its
 * chunk and the text `namespaces` it shows have loaded; `standIn` (a CardStandIn) until then. The
 * card shows the same stand-in's body while its own data loads, so the three states have one size.
 */
export function LazyCard<P extends object>({
  card: Card,
  props,
  namespaces = [],
  standIn,
}: {
  card: LazyExoticComponent<ComponentType<P>>;
  props: P;
  namespaces?: Namespace[];
  standIn: ReactNode;
}) {
  const textsReady = useTexts(undefined, ...namespaces);
  if (!textsReady) return standIn;
  return (
    <Suspense fallback={standIn}>
      <Card {...props} />
    </Suspense>
  );
}

/**
 * A card's frame while it loads, laid out like the Card it stands for (its header as tall as a
 * button, with or without one): its title drawn as a bar, `children` (its body, laid out with the
 * card's own classes and its likely texts inside `ui.standIn` spans) below. Hidden from screen
 * readers; `aria-busy` says the place is still loading.
 */
export function CardStandIn({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className={ui.card} aria-busy="true">
      <div aria-hidden="true">
        <div className={ui.cardHeader}>
          <div className={ui.cardTitle}>
            <span className={ui.standIn}>{title}</span>
          </div>
        </div>
        {children}
      </div>
    </div>
  );
}
