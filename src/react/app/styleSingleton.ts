// A CSP-safe stand-in for the `react-style-singleton` package (used by react-remove-scroll-bar,
// which Radix Dialog uses to lock the page's scrolling while a modal is open). The original
// inserts a <style> element into <head>, which a `style-src 'self'` policy refuses (a console
// error) and the bundle check forbids. This one adopts a constructed stylesheet on the document
// instead, which no CSP blocks. Same exports and behaviour: the styles are added when the first
// user mounts and removed when the last one unmounts. The build aliases the package to this file.
import { useEffect, type FunctionComponent } from 'react';

export interface StyleSheetSingleton {
  add(style: string): void;
  remove(): void;
}

export function stylesheetSingleton(): StyleSheetSingleton {
  let users = 0;
  let sheet: CSSStyleSheet | undefined;
  return {
    add(style) {
      if (users === 0 && typeof document !== 'undefined') {
        sheet = new CSSStyleSheet();
        sheet.replaceSync(style);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      }
      users += 1;
    },
    remove() {
      users -= 1;
      if (users > 0 || !sheet) return;
      const adopted = sheet;
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((candidate) => candidate !== adopted);
      sheet = undefined;
    },
  };
}

export function styleHookSingleton(): (styles: string, isDynamic?: boolean) => void {
  const sheet = stylesheetSingleton();
  return (styles, isDynamic) => {
    useEffect(() => {
      sheet.add(styles);
      return () => sheet.remove();
      // As the original: the styles of the first render stay unless `isDynamic`.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [styles && isDynamic]);
  };
}

export function styleSingleton(): FunctionComponent<{ styles: string; dynamic?: boolean }> {
  const useStyle = styleHookSingleton();
  const Sheet: FunctionComponent<{ styles: string; dynamic?: boolean }> = ({ styles, dynamic }) => {
    useStyle(styles, dynamic);
    return null;
  };
  return Sheet;
}

