// The side menu: entries from the core's buildMenu (route table filtered by the ACL, the
// allow/deny rules and the feature blacklist), at most two levels, one parent open at a time.
// Collapsed (54 px) it shows icons; a parent's children then open in a flyout beside the bar.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import { LAYOUT } from '../../core/config';
import type { MenuItem } from '../../core/acl';
import { useNameText, useT } from '../i18n';
import { Icon, isIconName } from '../widgets/Icon';
import * as styles from './SideMenu.css';

export interface SideMenuProps {
  items: readonly MenuItem[];
  collapsed: boolean;
  /** The current route's path and its ancestors' (breadcrumb order). */
  activePaths: readonly string[];
}

function ItemIcon({ item }: { item: MenuItem }) {
  return isIconName(item.icon) ? <Icon name={item.icon} /> : <Icon name="chevronRight" />;
}

function Leaf({ item, active, collapsed, nested }: { item: MenuItem; active: boolean; collapsed: boolean; nested: boolean }) {
  const name = useNameText()(item.name);
  const className = `${styles.entry} ${nested && !collapsed ? styles.childEntry : ''}`;
  // Collapsed labels are not rendered, so the link carries its name itself.
  const labelled = collapsed && !nested ? { 'aria-label': name, title: name } : {};
  const content = (
    <>
      {(!nested || collapsed) && <ItemIcon item={item} />}
      <span className={styles.label}>{name}</span>
    </>
  );
  if (item.disabled) {
    return (
      <span className={className} role="link" aria-disabled="true" {...labelled}>
        {content}
      </span>
    );
  }
  return (
    <Link href={item.path} className={className} aria-current={active ? 'page' : undefined} {...labelled}>
      {content}
    </Link>
  );
}

export function SideMenu({ items, collapsed, activePaths }: SideMenuProps) {
  const t = useT();
  const nameText = useNameText();
  const activeParent = items.find((item) => item.children?.length && activePaths.includes(item.path))?.path;
  const [open, setOpen] = useState<string | undefined>(collapsed ? undefined : activeParent);
  const navRef = useRef<HTMLElement>(null);
  const currentPath = activePaths[activePaths.length - 1];

  // A new page opens its own parent (expanded bar) or closes the flyout (collapsed bar).
  useEffect(() => {
    setOpen(collapsed ? undefined : activeParent);
  }, [collapsed, activeParent, currentPath]);

  // A flyout closes when the person clicks elsewhere (composedPath sees into the shadow root).
  useEffect(() => {
    if (!collapsed || !open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (navRef.current && !event.composedPath().includes(navRef.current)) setOpen(undefined);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [collapsed, open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && collapsed && open) {
      setOpen(undefined);
      event.stopPropagation();
    }
  };

  const renderItem = (item: MenuItem, depth: number) => {
    const active = activePaths.includes(item.path);
    const children = depth < LAYOUT.sideMenuMaxDepth ? (item.children ?? []) : [];
    if (!children.length) {
      return (
        <li key={item.path} className={styles.item}>
          <Leaf item={item} active={active} collapsed={collapsed} nested={depth > 1} />
        </li>
      );
    }
    const expanded = open === item.path;
    const name = nameText(item.name);
    const listId = `iam-menu-${item.path.replace(/\W+/g, '-')}`;
    return (
      <li key={item.path} className={styles.item}>
        <button
          type="button"
          className={`${styles.entry} ${active ? styles.entryActive : ''}`}
          aria-expanded={expanded}
          aria-controls={expanded ? listId : undefined}
          {...(collapsed ? { 'aria-label': name, title: name } : {})}
          // Unique-open: opening one parent closes the other.
          onClick={() => setOpen(expanded ? undefined : item.path)}
        >
          <ItemIcon item={item} />
          <span className={styles.label}>{name}</span>
          <Icon name="chevronDown" className={`${styles.chevron} ${expanded ? styles.chevronOpen : ''}`} />
        </button>
        {expanded && (
          <div className={collapsed ? styles.flyout : undefined}>
            {collapsed && <p className={styles.flyoutTitle}>{name}</p>}
            <ul id={listId} className={styles.list}>
              {children.map((child) => renderItem(child, depth + 1))}
            </ul>
          </div>
        )}
      </li>
    );
  };

  return (
    <nav ref={navRef} className={`${styles.nav} ${collapsed ? styles.collapsed : ''}`} aria-label={t('console:menu.label')} onKeyDown={onKeyDown}>
      <ul className={styles.list}>{items.map((item) => renderItem(item, 1))}</ul>
    </nav>
  );
}
