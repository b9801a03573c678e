// Draws a captcha's text as a PNG whose pixels, not vector outlines, carry the characters, distorted
// so that a program matching the font's glyphs against it does poorly while a person reads it:
// each character turned, scaled, sheared and moved on its own, the whole text bent by two sine
// waves and then roughened by a noise displacement, crossing curves in the text's own colours, on
// a speckled background. The glyph outlines are svg-captcha's font (opentype.js); resvg rasterises.
// A captcha is a speed bump against scripted guessing, not a defence (docs/security.md).
import { lazy } from '../lazy';

/** The parts of opentype.js's glyph path that the drawing reads. */
interface GlyphCommand {
  type: 'M' | 'L' | 'Q' | 'C' | 'Z';
  x?: number;
  y?: number;
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
}
interface Font {
  charToGlyph(ch: string): { getPath(x: number, y: number, size: number): { commands: GlyphCommand[] } };
}

/** svg-captcha parses its font and resvg loads its native addon when imported: on the first
 *  captcha, not at start. */
const font = lazy(() => import('svg-captcha').then((module) => (module.default.options as unknown as { font: Font }).font));
const resvg = lazy(() => import('@resvg/resvg-js'));

/** Where the characters go (CSS pixels): each in a slot of its own, between margins. `zoom` is
 *  device pixels per CSS pixel: sharp on high-density screens. */
export const captchaLayout = { slot: 36, margin: 14, height: 54, fontSize: 62, zoom: 2 } as const;
const { slot: SLOT, margin: MARGIN, height: HEIGHT, fontSize: FONT_SIZE, zoom: ZOOM } = captchaLayout;

type Point = [number, number];
const between = (min: number, max: number) => min + Math.random() * (max - min);
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const round = (value: number) => Math.round(value * 10) / 10;
const hsl = (hue: number, saturation: number, lightness: number) => `hsl(${Math.round(hue)},${saturation}%,${lightness}%)`;
/** Dark, saturated ink: every character and crossing curve its own hue. */
const ink = () => hsl(between(0, 360), Math.round(between(55, 90)), Math.round(between(22, 38)));

/** The bend over the whole image: each point moves along two sine waves of random phase. */
function warp(width: number): (point: Point) => Point {
  const across = { amplitude: between(2.5, 4), period: between(38, 56), phase: between(0, 2 * Math.PI) };
  const down = { amplitude: between(2.5, 4.5), period: between(width / 2.5, width / 1.5), phase: between(0, 2 * Math.PI) };
  return ([x, y]) => [
    x + across.amplitude * Math.sin((2 * Math.PI * y) / across.period + across.phase),
    y + down.amplitude * Math.sin((2 * Math.PI * x) / down.period + down.phase),
  ];
}

const outlines = new Map<string, readonly GlyphCommand[]>();
/** The character's outline at the captcha's size, as opentype.js gives it (kept: it costs a
 *  millisecond or so a character). */
function outline(font: Font, ch: string): readonly GlyphCommand[] {
  let commands = outlines.get(ch);
  if (!commands) outlines.set(ch, (commands = font.charToGlyph(ch).getPath(0, 0, FONT_SIZE).commands));
  return commands;
}

/** The character's outline as path data: turned, scaled and sheared about its middle, set in its
 *  slot, then bent by `bend`. */
function glyphPath(font: Font, ch: string, centre: Point, bend: (point: Point) => Point): string {
  const commands = outline(font, ch);
  const xs = commands.flatMap((command) => (command.x === undefined ? [] : [command.x]));
  const ys = commands.flatMap((command) => (command.y === undefined ? [] : [command.y]));
  const middle: Point = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const angle = (between(-25, 25) * Math.PI) / 180;
  const scale = between(0.85, 1.15);
  const stretch = between(0.85, 1.15);
  const shear = between(-0.25, 0.25);
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  const place = (x: number, y: number): string => {
    const dx = (x - middle[0]) * scale * stretch + (y - middle[1]) * shear;
    const dy = (y - middle[1]) * scale;
    const [px, py] = bend([centre[0] + dx * cos - dy * sin, centre[1] + dx * sin + dy * cos]);
    return `${round(px)} ${round(py)}`;
  };
  return commands
    .map((command) => {
      if (command.type === 'Z') return 'Z';
      const end = place(command.x!, command.y!);
      if (command.type === 'Q') return `Q${place(command.x1!, command.y1!)} ${end}`;
      if (command.type === 'C') return `C${place(command.x1!, command.y1!)} ${place(command.x2!, command.y2!)} ${end}`;
      return `${command.type}${end}`;
    })
    .join('');
}

/** A curve from one side to the other through the text band, bent like the text. */
function crossingCurve(width: number, bend: (point: Point) => Point): string {
  const y = () => between(HEIGHT * 0.25, HEIGHT * 0.75);
  const points: Point[] = [
    [between(0, MARGIN), y()],
    [between(width * 0.2, width * 0.45), between(0, HEIGHT)],
    [between(width * 0.55, width * 0.8), between(0, HEIGHT)],
    [between(width - MARGIN, width), y()],
  ].map((point) => bend(point as Point));
  const [start, ...rest] = points.map(([x, y]) => `${round(x)} ${round(y)}`);
  return `M${start} C${rest.join(' ')}`;
}

/** An open arc of a circle somewhere over the text. */
function arc(width: number): string {
  const [cx, cy, r] = [between(MARGIN, width - MARGIN), between(HEIGHT * 0.3, HEIGHT * 0.7), between(12, 30)];
  const from = between(0, 2 * Math.PI);
  const to = from + between(Math.PI / 3, Math.PI * 0.9);
  const at = (angle: number) => `${round(cx + r * Math.cos(angle))} ${round(cy + r * Math.sin(angle))}`;
  return `M${at(from)} A${round(r)} ${round(r)} 0 ${to - from > Math.PI ? 1 : 0} 1 ${at(to)}`;
}

/** Specks of every lightness over a pale ground mottled with faint blots (shapes, not a noise
 *  filter: a filter over the whole image costs several times the rest of the drawing). */
function background(width: number): string {
  const blots = Array.from({ length: Math.round(width / 10) }, () => {
    const [rx, ry] = [round(between(6, 22)), round(between(5, 16))];
    return `<ellipse cx="${round(between(0, width))}" cy="${round(between(0, HEIGHT))}" rx="${rx}" ry="${ry}" fill="${hsl(between(0, 360), 55, Math.round(between(70, 88)))}" opacity="${round(between(0.25, 0.5))}"/>`;
  });
  const specks = Array.from({ length: Math.round(width / 2) }, () => {
    const lightness = pick([30, 45, 60, 75, 85]);
    return `<circle cx="${round(between(0, width))}" cy="${round(between(0, HEIGHT))}" r="${round(between(0.6, 1.8))}" fill="${hsl(between(0, 360), 60, lightness)}"/>`;
  });
  return `<rect width="100%" height="100%" fill="${hsl(between(0, 360), 60, 93)}"/>${blots.join('')}${specks.join('')}`;
}

/** The captcha's SVG, before rasterising. */
function captchaSvg(glyphFont: Font, text: string): string {
  const width = MARGIN * 2 + SLOT * text.length;
  const bend = warp(width);
  const characters = [...text].map((ch, at) => {
    const centre: Point = [MARGIN + SLOT * (at + 0.5) + between(-4, 4), HEIGHT / 2 + between(-3, 3)];
    return `<path fill="${ink()}" d="${glyphPath(glyphFont, ch, centre, bend)}"/>`;
  });
  const curves = [
    ...Array.from({ length: 2 }, () => `<path fill="none" stroke="${ink()}" stroke-width="${round(between(1.5, 2.3))}" d="${crossingCurve(width, bend)}"/>`),
    ...Array.from({ length: 2 }, () => `<path fill="none" stroke="${ink()}" stroke-width="${round(between(1, 1.5))}" d="${arc(width)}"/>`),
  ];
  const roughen =
    `<filter id="roughen" x="-5%" y="-5%" width="110%" height="110%">` +
    `<feTurbulence type="turbulence" baseFrequency="0.09" numOctaves="1" seed="${Math.floor(between(1, 10_000))}" result="noise"/>` +
    `<feDisplacementMap in="SourceGraphic" in2="noise" scale="3.5" xChannelSelector="R" yChannelSelector="G"/></filter>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}">` +
    background(width) +
    roughen +
    `<g filter="url(#roughen)">${[...characters, ...curves].sort(() => Math.random() - 0.5).join('')}</g></svg>`
  );
}

/** The captcha image of `text`: a PNG. Rendered off the main thread. */
export async function drawCaptcha(text: string): Promise<Buffer> {
  const [glyphFont, { renderAsync }] = await Promise.all([font(), resvg()]);
  const image = await renderAsync(captchaSvg(glyphFont, text), { fitTo: { mode: 'zoom', value: ZOOM }, font: { loadSystemFonts: false } });
  return image.asPng();
}
