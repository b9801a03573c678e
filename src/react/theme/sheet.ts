// The one constructed stylesheet every iam-* root adopts. The build turns each CSS file that
// vanilla-extract emits into a `registerCss("…")` call (rollup.config.mjs, adoptedCss), so a
// lazily loaded chunk adds its rules when it loads, and every root that already adopted the
// sheet sees them. No <style> element is ever created: this works under `style-src 'self'`.
const cssParts: string[] = [];
let sheet: CSSStyleSheet | undefined;

/**
 * Called by build-generated modules, once per vanilla-extract CSS file, in import order.
 * @public imported by the modules rollup.config.mjs generates, which knip does not see
 */
export function registerCss(css: string): void {
  cssParts.push(css);
  sheet?.replaceSync(cssParts.join('\n'));
}

/** The shared sheet, created on first use (so importing this module needs no DOM). */
export function sharedStyleSheet(): CSSStyleSheet {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(cssParts.join('\n'));
  }
  return sheet;
}

/** Adopts the shared sheet into a document or shadow root, once. */
export function adoptStyles(root: Document | ShadowRoot): void {
  const shared = sharedStyleSheet();
  if (!root.adoptedStyleSheets.includes(shared)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, shared];
}
