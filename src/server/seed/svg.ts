import { escapeMarkup } from '../../shared/markup';

// Small SVG-building helpers for the demo artwork. librsvg (inside sharp) ignores <textPath>,
// so text on a circle is laid out letter by letter with approximate glyph widths.

const SANS = "'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
const SERIF = "'DejaVu Serif', 'Liberation Serif', Georgia, serif";

// Advance widths in em of DejaVu Sans Bold (serif bold is a little wider); close enough to fit text.
const GLYPH_EM: Record<string, number> = {
  ' ': 0.35,
  I: 0.37,
  J: 0.37,
  M: 0.99,
  W: 1.1,
  O: 0.85,
  Q: 0.85,
  G: 0.82,
  D: 0.83,
  H: 0.84,
  N: 0.84,
  U: 0.81,
  L: 0.64,
  E: 0.68,
  F: 0.68,
  T: 0.68,
  '.': 0.38,
  ',': 0.38,
  ':': 0.4,
  '·': 0.38,
  "'": 0.33,
  '-': 0.42,
  '!': 0.44,
  i: 0.34,
  l: 0.34,
  j: 0.34,
  t: 0.48,
  f: 0.44,
  r: 0.49,
  m: 1.04,
  w: 0.92,
  '1': 0.7,
};
const glyphEm = (c: string) => GLYPH_EM[c] ?? (c >= 'a' && c <= 'z' ? 0.66 : 0.75);

export interface TextStyle {
  size: number;
  fill: string;
  serif?: boolean;
  weight?: 'normal' | 'bold';
  italic?: boolean;
  spacing?: number;
  anchor?: 'start' | 'middle' | 'end';
  stroke?: string;
  strokeWidth?: number;
}

/** Approximate rendered width of a line of text. */
function textWidth(text: string, style: Pick<TextStyle, 'size' | 'serif' | 'spacing'>): number {
  const em = [...text].reduce((sum, c) => sum + glyphEm(c), 0) * (style.serif ? 1.06 : 1);
  return em * style.size + (style.spacing ?? 0) * Math.max(0, text.length - 1);
}

/** The largest size (up to `size`) at which the text fits in `maxWidth`. */
export function fitSize(text: string, size: number, maxWidth: number, style: Pick<TextStyle, 'serif' | 'spacing'> = {}): number {
  const width = textWidth(text, { ...style, size });
  return width <= maxWidth ? size : Math.floor((size * maxWidth) / width);
}

function textAttrs(style: TextStyle): string {
  const attrs = [
    `font-family="${style.serif ? SERIF : SANS}"`,
    `font-size="${style.size}"`,
    `font-weight="${style.weight ?? 'bold'}"`,
    `fill="${style.fill}"`,
    `text-anchor="${style.anchor ?? 'middle'}"`,
  ];
  if (style.italic) attrs.push('font-style="italic"');
  if (style.spacing) attrs.push(`letter-spacing="${style.spacing}"`);
  if (style.stroke)
    attrs.push(`stroke="${style.stroke}" stroke-width="${style.strokeWidth ?? 4}" paint-order="stroke" stroke-linejoin="round"`);
  return attrs.join(' ');
}

export function text(x: number, y: number, content: string, style: TextStyle): string {
  // letter-spacing also trails the last glyph; shift centred text back by half of it.
  const shift = (style.anchor ?? 'middle') === 'middle' && style.spacing ? style.spacing / 2 : 0;
  return `<text x="${x + shift}" y="${y}" ${textAttrs(style)}>${escapeMarkup(content)}</text>`;
}

/**
 * Text along a circle centred on (cx, cy): on the top half reading clockwise, on the bottom half
 * reading left to right with letters upright. `radius` is where the baseline (top) or cap line
 * (bottom) sits.
 */
export function arcText(cx: number, cy: number, radius: number, content: string, style: TextStyle, side: 'top' | 'bottom'): string {
  const spacing = style.spacing ?? 0;
  const widths = [...content].map((c) => glyphEm(c) * style.size * (style.serif ? 1.06 : 1) + spacing);
  const total = widths.reduce((a, b) => a + b, 0) - spacing;
  const capHeight = style.size * 0.72;
  const glyphs: string[] = [];
  let along = -total / 2;
  [...content].forEach((c, i) => {
    const w = widths[i]!;
    const centre = along + (w - spacing) / 2;
    along += w;
    if (c === ' ') return;
    const degrees = (centre / radius) * (180 / Math.PI);
    const [y, angle] = side === 'top' ? [cy - radius, degrees] : [cy + radius + capHeight, -degrees];
    glyphs.push(
      `<text x="${cx}" y="${y}" transform="rotate(${angle.toFixed(2)} ${cx} ${cy})" ${textAttrs({ ...style, spacing: 0, anchor: 'middle' })}>${escapeMarkup(c)}</text>`,
    );
  });
  return glyphs.join('');
}

/** Five-pointed star centred on (cx, cy). */
export function star(cx: number, cy: number, r: number, fill: string): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.42;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return `<polygon points="${points.join(' ')}" fill="${fill}"/>`;
}

/** Places an icon drawn in a 100x100 box so that its box is `size` wide, centred on (cx, cy). */
export function place(icon: string, cx: number, cy: number, size: number, rotate = 0): string {
  const s = size / 100;
  const rotation = rotate ? ` rotate(${rotate} 50 50)` : '';
  return `<g transform="translate(${cx - size / 2} ${cy - size / 2}) scale(${s})${rotation}">${icon}</g>`;
}

export function svgDocument(width: number, height: number, body: string, defs = ''): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${defs ? `<defs>${defs}</defs>` : ''}${body}</svg>`;
}
