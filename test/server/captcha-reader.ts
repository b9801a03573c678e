// The cheap captcha reader an attacker writes against the raster captcha, knowing everything public:
// the font (svg-captcha's), its size, where each character's slot is (server/auth/captcha-image.ts)
// and the characters that can occur. Each candidate character is rendered with that font at that
// size, upright and turned ±15°, and slid over each slot's column slice of the image; the best
// normalised correlation with the image's darkness names the character.
import { Resvg } from '@resvg/resvg-js';
import svgCaptcha from 'svg-captcha';
import { captchaLayout } from '../../server/auth/captcha-image';

const { slot, margin, height, fontSize, zoom } = captchaLayout;
const TURNS = [-15, 0, 15];
/** How far (CSS pixels, either way) a character is looked for around its slot's middle. */
const REACH = 8;
/** The fine step (pixels); the first look is at twice it. */
const STEP = 2;
/** The white kept around a glyph's ink (pixels). */
const WHITE_AROUND = 10;
/** Nothing here is text: no system fonts to load (some 100 ms a render). */
const NO_FONTS = { font: { loadSystemFonts: false } };

type Font = { charToGlyph(ch: string): { getPath(x: number, y: number, size: number): { toPathData(): string; getBoundingBox(): Box } } };
type Box = { x1: number; y1: number; x2: number; y2: number };
/** Darkness (0 white … 1 black) row by row. */
type Grey = { width: number; height: number; dark: Float64Array };
/** A glyph's darkness less its mean, and its norm: ready for correlation. */
type Template = { ch: string; width: number; height: number; centred: Float64Array; norm: number };

const font = (svgCaptcha as unknown as { options: { font: Font } }).options.font;

function grey(pixels: Buffer, width: number, height: number): Grey {
  const dark = new Float64Array(width * height);
  for (let at = 0; at < dark.length; at += 1) {
    dark[at] = 1 - (0.299 * pixels[at * 4]! + 0.587 * pixels[at * 4 + 1]! + 0.114 * pixels[at * 4 + 2]!) / 255;
  }
  return { width, height, dark };
}

/** `ch` in the font at the captcha's size, turned `turn` degrees, black on white. */
function glyphImage(ch: string, turn: number): Grey {
  const path = font.charToGlyph(ch).getPath(0, 0, fontSize);
  const box = path.getBoundingBox();
  const side = Math.ceil(Math.hypot(box.x2 - box.x1, box.y2 - box.y1)) + 2 * WHITE_AROUND;
  const [cx, cy] = [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2];
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><rect width="100%" height="100%" fill="#fff"/>` +
    `<path transform="translate(${side / 2} ${side / 2}) rotate(${turn}) translate(${-cx} ${-cy})" d="${path.toPathData()}"/></svg>`;
  const image = new Resvg(svg, NO_FONTS).render();
  return inked(grey(image.pixels, image.width, image.height));
}

/** `image` cut to its ink's bounding box and a little white around it (part of the shape: a
 *  glyph's white surroundings, matched too, read better than its ink alone). */
function inked(image: Grey): Grey {
  const box = { left: image.width, top: image.height, right: 0, bottom: 0 };
  image.dark.forEach((value, at) => {
    if (value < 0.1) return;
    const [x, y] = [at % image.width, Math.floor(at / image.width)];
    Object.assign(box, { left: Math.min(box.left, x), top: Math.min(box.top, y), right: Math.max(box.right, x + 1), bottom: Math.max(box.bottom, y + 1) });
  });
  Object.assign(box, { left: Math.max(box.left - WHITE_AROUND, 0), top: Math.max(box.top - WHITE_AROUND, 0) });
  Object.assign(box, { right: Math.min(box.right + WHITE_AROUND, image.width), bottom: Math.min(box.bottom + WHITE_AROUND, image.height) });
  const width = box.right - box.left;
  const height = box.bottom - box.top;
  const dark = new Float64Array(width * height);
  for (let row = 0; row < height; row += 1)
    dark.set(image.dark.subarray((box.top + row) * image.width + box.left, (box.top + row) * image.width + box.right), row * width);
  return { width, height, dark };
}

function template(ch: string, image: Grey): Template {
  const mean = image.dark.reduce((sum, value) => sum + value, 0) / image.dark.length;
  const centred = image.dark.map((value) => value - mean);
  return { ch, width: image.width, height: image.height, centred, norm: Math.sqrt(centred.reduce((sum, value) => sum + value * value, 0)) };
}

/** The captcha's darkness with a white border (no window falls off it) and its summed-area tables
 *  (a window's sum and sum of squares in four reads). */
type Page = Grey & { sums: Float64Array; squares: Float64Array };
const BORDER = 64;

function page(image: Grey): Page {
  const [width, height] = [image.width + 2 * BORDER, image.height + 2 * BORDER];
  const dark = new Float64Array(width * height);
  for (let row = 0; row < image.height; row += 1) dark.set(image.dark.subarray(row * image.width, (row + 1) * image.width), (row + BORDER) * width + BORDER);
  const sums = new Float64Array((width + 1) * (height + 1));
  const squares = new Float64Array((width + 1) * (height + 1));
  for (let row = 0; row < height; row += 1) {
    let [sum, square] = [0, 0];
    for (let column = 0; column < width; column += 1) {
      const value = dark[row * width + column]!;
      sum += value;
      square += value * value;
      const at = (row + 1) * (width + 1) + column + 1;
      sums[at] = sums[at - width - 1]! + sum;
      squares[at] = squares[at - width - 1]! + square;
    }
  }
  return { width, height, dark, sums, squares };
}

/** The correlation of `t` with the window of `image` whose middle is (x, y), in the captcha's pixels. */
function correlation(image: Page, t: Template, x: number, y: number): number {
  const left = Math.round(x - t.width / 2) + BORDER;
  const top = Math.round(y - t.height / 2) + BORDER;
  const area = (table: Float64Array) => {
    const [a, b] = [top * (image.width + 1), (top + t.height) * (image.width + 1)];
    return table[b + left + t.width]! - table[b + left]! - table[a + left + t.width]! + table[a + left]!;
  };
  let dot = 0;
  for (let row = 0; row < t.height; row += 1) {
    const from = (top + row) * image.width + left;
    for (let column = 0; column < t.width; column += 1) dot += image.dark[from + column]! * t.centred[row * t.width + column]!;
  }
  const sum = area(image.sums);
  const spread = Math.sqrt(Math.max(area(image.squares) - (sum * sum) / (t.width * t.height), 1e-9));
  return dot / (spread * t.norm);
}

/** The best correlation of `t` around (x, y): on a coarse grid, then finely around the best. */
function bestPlace(image: Page, t: Template, x: number, y: number): number {
  let best = { score: -Infinity, dx: 0, dy: 0 };
  for (let dx = -REACH; dx <= REACH; dx += 2 * STEP) {
    for (let dy = -REACH; dy <= REACH; dy += 2 * STEP) {
      const score = correlation(image, t, x + dx, y + dy);
      if (score > best.score) best = { score, dx, dy };
    }
  }
  const { dx, dy } = best;
  for (const [fx, fy] of [-STEP, 0, STEP].flatMap((fx) => [-STEP, 0, STEP].map((fy) => [fx, fy] as const))) {
    if (fx || fy) best.score = Math.max(best.score, correlation(image, t, x + dx + fx, y + dy + fy));
  }
  return best.score;
}

/** Reads a captcha PNG of `length` characters drawn from `charset`. */
export function captchaReader(charset: string): (png: Buffer, length: number) => string {
  const templates = [...charset].flatMap((ch) => TURNS.map((turn) => template(ch, glyphImage(ch, turn))));
  return (png, length) => {
    // The image at one pixel per CSS pixel, as the templates are.
    const [width, tall] = [margin * 2 + slot * length, height];
    const decoded = new Resvg(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${tall}"><image width="${width}" height="${tall}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`,
      NO_FONTS,
    ).render();
    const image = page(grey(decoded.pixels, decoded.width, decoded.height));
    let text = '';
    for (let at = 0; at < length; at += 1) {
      const [x, y] = [margin + slot * (at + 0.5), height / 2];
      let best = { ch: '?', score: -Infinity };
      for (const t of templates) {
        const score = bestPlace(image, t, x, y);
        if (score > best.score) best = { ch: t.ch, score };
      }
      text += best.ch;
    }
    return text;
  };
}

/** The same text without distortion (upright, in place, black on white, at the captcha's zoom):
 *  what the reader must read, or its failing on the captcha proves nothing. */
export function plainCaptcha(text: string): Buffer {
  const width = margin * 2 + slot * text.length;
  const glyphs = [...text].map((ch, at) => {
    const path = font.charToGlyph(ch).getPath(0, 0, fontSize);
    const box = path.getBoundingBox();
    const [x, y] = [margin + slot * (at + 0.5) - (box.x1 + box.x2) / 2, height / 2 - (box.y1 + box.y2) / 2];
    return `<path transform="translate(${x} ${y})" d="${path.toPathData()}"/>`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${glyphs.join('')}</svg>`;
  return new Resvg(svg, { ...NO_FONTS, fitTo: { mode: 'zoom', value: zoom } }).render().asPng();
}
