// Stands in for react-style-singleton's `stylesheetSingleton` (rollup.config.mjs resolves the
// library's ./singleton here). Radix's scroll lock (react-remove-scroll) adds its rules through
// it, and the original injects a <style> element, which a page whose CSP says
// `style-src 'self'` refuses. Same API; the rules go into a constructed stylesheet that the
// document adopts while at least one user needs them (the rules target <html>/<body>).
export function stylesheetSingleton() {
  let users = 0;
  let sheet: CSSStyleSheet | undefined;
  return {
    add(css: string): void {
      if (users === 0) {
        const added = new CSSStyleSheet();
        added.replaceSync(css);
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, added];
        sheet = added;
      }
      users += 1;
    },
    remove(): void {
      users -= 1;
      if (users === 0 && sheet) {
        const removed = sheet;
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((adopted) => adopted !== removed);
        sheet = undefined;
      }
    },
  };
}
