// SVG uploads are rewritten through an allowlist (sanitize-html in XML mode): no script, no event
// handlers, no foreignObject, no external or javascript: references, no DOCTYPE/entities. They are
// also served under a sandboxing CSP, so even a missed trick cannot run script.
import sanitizeHtml from 'sanitize-html';

const TAGS = [
  'svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'text', 'tspan', 'textPath',
  'defs', 'linearGradient', 'radialGradient', 'stop', 'clipPath', 'mask', 'pattern', 'symbol', 'use', 'title', 'desc',
];

const ATTRIBUTES = [
  'id', 'class', 'd', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'width', 'height',
  'viewBox', 'preserveAspectRatio', 'xmlns', 'xmlns:xlink', 'version', 'fill', 'fill-opacity', 'fill-rule', 'stroke',
  'stroke-width', 'stroke-linecap', 'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset',
  'stroke-opacity', 'opacity', 'transform', 'points', 'offset', 'stop-color', 'stop-opacity', 'gradientUnits',
  'gradientTransform', 'spreadMethod', 'patternUnits', 'patternTransform', 'clip-path', 'clip-rule', 'clipPathUnits',
  'mask', 'maskUnits', 'font-size', 'font-family', 'font-weight', 'text-anchor', 'dominant-baseline', 'dx', 'dy',
  'href', 'xlink:href', 'visibility', 'display',
];

export function sanitizeSvg(source: string): string {
  return sanitizeHtml(source, {
    allowedTags: TAGS,
    allowedAttributes: { '*': ATTRIBUTES },
    // Only same-document references (#id) survive in href/xlink:href.
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: ['href', 'xlink:href'],
    allowProtocolRelative: false,
    transformTags: {
      use: (tagName, attribs) => ({ tagName, attribs: Object.fromEntries(Object.entries(attribs).filter(([name, value]) => !/href$/.test(name) || value.startsWith('#'))) }),
    },
    disallowedTagsMode: 'discard',
    parser: { xmlMode: true, lowerCaseTags: false, lowerCaseAttributeNames: false },
  }).trim();
}
