// The sign-in page background chosen in the login settings (GET /settings/login/public):
// InitialVersion is the page's own design; SolidColorBackground a colour; PictureBackground an
// uploaded picture (cover); CustomCss CSS declarations for the page, adopted as a constructed
// stylesheet into the console's root (no inline <style>, so a strict CSP allows it).
import { useEffect, type CSSProperties, type RefObject } from 'react';
import { publicLoginSettings } from '../../../core/api/public-settings';
import { fileUrl } from '../../../core/api/files';
import { BackgroundType } from '../../../core/enums';
import { useResource } from '../../widgets/useResource';

export interface LoginBackground {
  /** Set when a background other than the page's own design applies. */
  custom: boolean;
  style?: CSSProperties;
}

/** A URL that can stand inside `url("…")` (no quote, backslash or line break to break out). */
const quotable = (url: string) => !/["\\\n\r]/.test(url);

/** Declarations only: nothing that could close the rule, open another, or import. */
const declarationsOnly = (css: string) => !/[{}@<\\]/.test(css);

export function useLoginBackground(page: RefObject<HTMLElement | null>, pageClass: string): LoginBackground {
  const settings = useResource(publicLoginSettings, []);
  const type = settings.data?.backgroundType;
  const value = settings.data?.background?.trim() ?? '';

  const css = type === BackgroundType.CustomCss && value && declarationsOnly(value) ? value : undefined;
  useEffect(() => {
    const root = page.current?.getRootNode();
    if (!css || !(root instanceof ShadowRoot || root instanceof Document)) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`.${pageClass} { ${css} }`);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return () => {
      root.adoptedStyleSheets = root.adoptedStyleSheets.filter((candidate) => candidate !== sheet);
    };
  }, [css, page, pageClass]);

  if (!value) return { custom: false };
  if (type === BackgroundType.SolidColorBackground && CSS.supports('color', value)) return { custom: true, style: { background: value } };
  if (type === BackgroundType.PictureBackground) {
    const url = fileUrl(value);
    if (quotable(url)) return { custom: true, style: { backgroundImage: `url("${url}")`, backgroundSize: 'cover', backgroundPosition: 'center' } };
  }
  return { custom: !!css };
}
