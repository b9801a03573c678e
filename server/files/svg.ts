// SVG uploads are rewritten through an allowlist (sanitize-html in XML mode): no script, no event
// handlers, no foreignObject, no DOCTYPE/entities, and no references that chain or leave the
// document: <use> (nested <use> multiplies the work a viewer does until the tab freezes), href and
// xlink:href on any element, and url(…) other than a local url(#id) in presentation attributes.
// The tree is bounded too: elements deeper than MAX_DEPTH are dropped, and a file of more than
// MAX_ELEMENTS elements is refused. Files are also served under a sandboxing CSP, so even a
// missed trick cannot run script.
import { lazy } from '../lazy';

const sanitizer = lazy(() => import('sanitize-html').then((module) => module.default));

const TAGS = [
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'defs',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
  'title',
  'desc',
];

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
  'fx',
  'fy',
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
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'opacity',
  'transform',
  'points',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternTransform',
  'clip-path',
  'clip-rule',
  'clipPathUnits',
  'mask',
  'maskUnits',
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

/** Every url(…) in the value points into this document (url(#id), quoted or not). */
const URL_REFERENCE = /url\s*\(\s*(['"]?)(.*?)\1\s*\)/gi;
const onlyLocalUrls = (value: string) =>
  [...value.matchAll(URL_REFERENCE)].every((match) => /^#[\w.:-]+$/.test(match[2] ?? '')) && !/url\s*\(/i.test(value.replace(URL_REFERENCE, ''));

/** The sanitised SVG, or undefined when it has too many elements to be an image we show. */
export async function sanitizeSvg(source: string): Promise<string | undefined> {
  const sanitizeHtml = await sanitizer();
  let elements = 0;
  const clean = sanitizeHtml(source, {
    allowedTags: TAGS,
    allowedAttributes: { '*': ATTRIBUTES },
    allowedSchemes: [],
    transformTags: {
      '*': (tagName, attribs) => ({ tagName, attribs: Object.fromEntries(Object.entries(attribs).filter(([, value]) => onlyLocalUrls(value))) }),
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
