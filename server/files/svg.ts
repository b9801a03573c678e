// SVG uploads are rewritten through an allowlist (sanitize-html in XML mode) of shapes, text and
// their plain presentation attributes, so that an avatar or a logo costs a viewer a bounded paint:
// nothing that refers to another element, because references are how a few kilobytes make a
// renderer do unbounded work — <use> chains, and paint servers and effects reached by url(#id)
// (<pattern> tiles that fill with further patterns, gradients, filters, masks, clip paths, markers;
// 12 nested patterns in 5.6 KB froze a tab). So: no url(…) in any attribute, no href, no element
// that is only ever drawn by reference, no style; no script, event handlers, foreignObject,
// DOCTYPE or entities, no dash patterns (a tiny dash on a long path is millions of strokes). The tree is bounded too: elements deeper than MAX_DEPTH are dropped, and a
// file of more than MAX_ELEMENTS elements is refused, so the paint is at most that many shapes.
// Gradients go with the rest (an SVG logo with gradients shows its shapes in flat colours; a PNG
// keeps them). Files are also served under a sandboxing CSP, so even a missed trick cannot run
// script. Why not rasterise on the server: docs/security.md.
import { lazy } from '../lazy';

const sanitizer = lazy(() => import('sanitize-html').then((module) => module.default));

const TAGS = ['svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'title', 'desc'];

const ATTRIBUTES = [
  'id',
  'class',
  'd',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'width',
  'height',
  'viewBox',
  'preserveAspectRatio',
  'xmlns',
  'version',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-opacity',
  'opacity',
  'transform',
  'points',
  'font-size',
  'font-family',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'dx',
  'dy',
  'visibility',
  'display',
];

/** Logos and avatars need a few hundred elements at most. */
const MAX_ELEMENTS = 2000;
const MAX_DEPTH = 32;

/** A value that refers to anything (url(…), in any spelling the CSS parser accepts: escapes included). */
const REFERENCE = /url\s*\(|\\/i;

/** The sanitised SVG, or undefined when it has too many elements to be an image we show. */
export async function sanitizeSvg(source: string): Promise<string | undefined> {
  const sanitizeHtml = await sanitizer();
  let elements = 0;
  const clean = sanitizeHtml(source, {
    allowedTags: TAGS,
    allowedAttributes: { '*': ATTRIBUTES },
    allowedSchemes: [],
    transformTags: {
      '*': (tagName, attribs) => ({ tagName, attribs: Object.fromEntries(Object.entries(attribs).filter(([, value]) => !REFERENCE.test(value))) }),
    },
    exclusiveFilter: () => {
      elements += 1;
      return false;
    },
    nestingLimit: MAX_DEPTH,
    disallowedTagsMode: 'discard',
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
  }).trim();
  return elements > MAX_ELEMENTS ? undefined : clean;
}
