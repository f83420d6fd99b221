import * as icons from './icons';
import { arcText, fitSize, place, star, svgDocument, text } from './svg';

// Print-ready demo artwork: a few classic tee layouts (badge, sunset, crest, ...) filled in per
// product. Everything is drawn on a transparent 1200x1200 canvas in dark inks that read on a
// light tee; `paper` is only used for lettering inside solid ink shapes.

const ART_SIZE = 1200;
const C = ART_SIZE / 2;

export interface Palette {
  ink: string;
  accent: string;
  accent2: string;
  paper: string;
}

type IconName =
  | 'motorcycle'
  | 'car'
  | 'piston'
  | 'wrench'
  | 'gear'
  | 'flag'
  | 'mountains'
  | 'road'
  | 'cross'
  | 'dove'
  | 'fish'
  | 'anchor'
  | 'crown'
  | 'sun';

interface StackLine {
  text: string;
  size: number;
  color?: 'ink' | 'accent';
  serif?: boolean;
  italic?: boolean;
  spacing?: number;
  /** Draw a thin rule under this line. */
  rule?: boolean;
}

/** An icon placed on the canvas; x, y, size in canvas pixels. */
interface Placed {
  icon: IconName;
  x: number;
  y: number;
  size: number;
  rotate?: number;
  mirror?: boolean;
}

export type Design =
  | { kind: 'badge'; top: string; bottom: string; icon: IconName; banner?: string }
  | { kind: 'sunset'; icon: IconName; title: string; subtitle: string }
  | { kind: 'crest'; icon: IconName; title: string; banner: string; left: string; right: string }
  | { kind: 'winged'; icon: IconName; title: string; subtitle: string }
  | { kind: 'gauge'; title: string; subtitle: string }
  | { kind: 'plate'; top: string; main: string; bottom: string; icon: IconName }
  | { kind: 'stack'; lines: StackLine[]; icon?: IconName; iconSize?: number }
  | { kind: 'emblem'; items: Placed[]; title: string; subtitle?: string };

function drawIcon(name: IconName, palette: Palette): string {
  return icons[name]({ ink: palette.ink, accent: palette.accent });
}

function placed(item: Placed, palette: Palette): string {
  const drawing = drawIcon(item.icon, palette);
  const mirrored = item.mirror ? `<g transform="translate(100 0) scale(-1 1)">${drawing}</g>` : drawing;
  return place(mirrored, item.x, item.y, item.size, item.rotate ?? 0);
}

/** A ribbon banner with folded tails, lettered in the paper colour. */
function ribbon(cx: number, cy: number, width: number, label: string, p: Palette, serif = false): string {
  const h = 130;
  const half = width / 2;
  const tail = 90;
  const size = fitSize(label, 84, width - 80, { serif, spacing: 6 });
  return [
    `<path d="M${cx - half - tail} ${cy - h / 2 + 30} L${cx - half + 10} ${cy - h / 2 + 30} L${cx - half + 10} ${cy + h / 2 + 30} L${cx - half - tail} ${cy + h / 2 + 30} L${cx - half - tail + 45} ${cy + 30} Z" fill="${p.accent}"/>`,
    `<path d="M${cx + half + tail} ${cy - h / 2 + 30} L${cx + half - 10} ${cy - h / 2 + 30} L${cx + half - 10} ${cy + h / 2 + 30} L${cx + half + tail} ${cy + h / 2 + 30} L${cx + half + tail - 45} ${cy + 30} Z" fill="${p.accent}"/>`,
    `<rect x="${cx - half}" y="${cy - h / 2}" width="${width}" height="${h}" fill="${p.ink}"/>`,
    text(cx, cy + size * 0.36, label, { size, fill: p.paper, serif, spacing: 6 }),
  ].join('');
}

/** Title line with short rules either side, e.g. ——— EST. 1978 ———. */
function ruledCaption(cy: number, label: string, p: Palette, size = 52, maxWidth = 900): string {
  const fitted = fitSize(label, size, maxWidth - 260, { spacing: 10 });
  const half = (fitted * 0.62 * label.length + 10 * label.length) / 2;
  const gap = Math.min(half + 40, maxWidth / 2 - 110);
  return [
    text(C, cy, label, { size: fitted, fill: p.ink, spacing: 10 }),
    `<path d="M${C - gap - 120} ${cy - fitted * 0.36} L${C - gap} ${cy - fitted * 0.36} M${C + gap} ${cy - fitted * 0.36} L${C + gap + 120} ${cy - fitted * 0.36}" stroke="${p.accent}" stroke-width="8" stroke-linecap="round"/>`,
  ].join('');
}

function badge(d: Extract<Design, { kind: 'badge' }>, p: Palette): string {
  const parts = [
    `<circle cx="${C}" cy="${C}" r="560" fill="none" stroke="${p.ink}" stroke-width="26"/>`,
    `<circle cx="${C}" cy="${C}" r="520" fill="none" stroke="${p.ink}" stroke-width="6"/>`,
    `<circle cx="${C}" cy="${C}" r="390" fill="none" stroke="${p.accent}" stroke-width="12"/>`,
    // At most ~145 degrees of the ring per line, so the two lines never meet at the stars.
    arcText(C, C, 430, d.top, { size: fitSize(d.top, 92, 1080, { spacing: 10 }), fill: p.ink, spacing: 10 }, 'top'),
    arcText(C, C, 430, d.bottom, { size: fitSize(d.bottom, 66, 1080, { spacing: 10 }), fill: p.ink, spacing: 10 }, 'bottom'),
    star(C - 455, C + 10, 30, p.accent),
    star(C + 455, C + 10, 30, p.accent),
    place(drawIcon(d.icon, p), C, d.banner ? C - 40 : C, 620),
  ];
  if (d.banner) parts.push(ribbon(C, C + 215, 470, d.banner, p));
  return parts.join('');
}

function sunset(d: Extract<Design, { kind: 'sunset' }>, p: Palette): string {
  const cy = 480;
  const r = 380;
  // Solid above the horizon, then bands that thin out towards the bottom.
  const bands = [`<rect x="${C - r}" y="${cy - r}" width="${2 * r}" height="${r + 20}"/>`];
  let y = cy + 40;
  for (let i = 0; i < 6; i++) {
    const height = 46 - i * 7;
    bands.push(`<rect x="${C - r}" y="${y}" width="${2 * r}" height="${height}"/>`);
    y += height + 14 + i * 6;
  }
  const defs =
    `<clipPath id="sunset-bands">${bands.join('')}</clipPath>` +
    `<linearGradient id="sunset-fill" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.accent2}"/><stop offset="1" stop-color="${p.accent}"/></linearGradient>`;
  const titleSize = fitSize(d.title, 170, 1100, { spacing: 4 });
  return [
    `<defs>${defs}</defs>`,
    `<circle cx="${C}" cy="${cy}" r="${r}" fill="url(#sunset-fill)" clip-path="url(#sunset-bands)"/>`,
    `<path d="M${C - 520} ${cy + r - 10} L${C + 520} ${cy + r - 10}" stroke="${p.ink}" stroke-width="12" stroke-linecap="round"/>`,
    place(drawIcon(d.icon, p), C, cy + r - 190, 700),
    text(C, 1045, d.title, { size: titleSize, fill: p.ink, spacing: 4 }),
    ruledCaption(1140, d.subtitle, p, 54),
  ].join('');
}

function crest(d: Extract<Design, { kind: 'crest' }>, p: Palette): string {
  const shield = (inset: number) => {
    const top = 230 + inset;
    const w = 330 - inset;
    return `M${C - w} ${top} L${C + w} ${top} L${C + w} ${top + 380 - inset * 0.4} Q${C + w} ${top + 620 - inset} ${C} ${top + 760 - inset * 1.6} Q${C - w} ${top + 620 - inset} ${C - w} ${top + 380 - inset * 0.4} Z`;
  };
  const titleSize = fitSize(d.title, 120, 1100, { spacing: 8 });
  return [
    text(C, 160, d.title, { size: titleSize, fill: p.ink, spacing: 8 }),
    `<path d="${shield(0)}" fill="none" stroke="${p.ink}" stroke-width="24" stroke-linejoin="round"/>`,
    `<path d="${shield(34)}" fill="none" stroke="${p.accent}" stroke-width="8" stroke-linejoin="round"/>`,
    place(drawIcon(d.icon, p), C, 560, 470),
    text(C - 450, 330, d.left, { size: fitSize(d.left, 56, 190, { spacing: 4 }), fill: p.ink, spacing: 4 }),
    text(C + 450, 330, d.right, { size: fitSize(d.right, 56, 190, { spacing: 4 }), fill: p.ink, spacing: 4 }),
    star(C - 450, 410, 26, p.accent),
    star(C + 450, 410, 26, p.accent),
    ribbon(C, 880, 760, d.banner, p),
  ].join('');
}

function winged(d: Extract<Design, { kind: 'winged' }>, p: Palette): string {
  const wing = icons.wing({ ink: p.ink, accent: p.accent });
  const cy = 480;
  return [
    place(wing, C - 420, cy, 500),
    place(`<g transform="translate(100 0) scale(-1 1)">${wing}</g>`, C + 420, cy, 500),
    `<circle cx="${C}" cy="${cy}" r="230" fill="none" stroke="${p.ink}" stroke-width="22"/>`,
    `<circle cx="${C}" cy="${cy}" r="198" fill="none" stroke="${p.accent}" stroke-width="8"/>`,
    place(drawIcon(d.icon, p), C, cy + 10, 340),
    ribbon(C, 820, 760, d.title, p),
    ruledCaption(1060, d.subtitle, p, 58),
  ].join('');
}

function gauge(d: Extract<Design, { kind: 'gauge' }>, p: Palette): string {
  const cy = 560;
  const r = 420;
  const from = 150; // degrees, 0 rpm at lower left
  const sweep = 240;
  const at = (value: number, radius: number) => {
    const angle = ((from + (sweep * value) / 8) * Math.PI) / 180;
    return [C + radius * Math.cos(angle), cy + radius * Math.sin(angle)] as const;
  };
  const arc = (a: number, b: number, radius: number) => {
    const [x1, y1] = at(a, radius);
    const [x2, y2] = at(b, radius);
    const large = (sweep * (b - a)) / 8 > 180 ? 1 : 0;
    return `M${x1.toFixed(1)} ${y1.toFixed(1)} A${radius} ${radius} 0 ${large} 1 ${x2.toFixed(1)} ${y2.toFixed(1)}`;
  };
  const parts = [
    `<path d="${arc(0, 8, r)}" fill="none" stroke="${p.ink}" stroke-width="26" stroke-linecap="round"/>`,
    `<path d="${arc(6.5, 8, r - 48)}" fill="none" stroke="${p.accent}" stroke-width="44"/>`,
  ];
  for (let tick = 0; tick <= 16; tick++) {
    const value = tick / 2;
    const [x1, y1] = at(value, r - 30);
    const [x2, y2] = at(value, tick % 2 === 0 ? r - 95 : r - 70);
    parts.push(
      `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" stroke="${p.ink}" stroke-width="${tick % 2 === 0 ? 12 : 6}"/>`,
    );
    if (tick % 2 === 0) {
      const [tx, ty] = at(value, r - 150);
      parts.push(text(tx, ty + 24, String(value), { size: 68, fill: value >= 7 ? p.accent : p.ink }));
    }
  }
  const [nx, ny] = at(7.3, r - 190);
  parts.push(
    text(C, cy + 150, 'x1000 RPM', { size: 38, fill: p.ink, spacing: 6, weight: 'normal' }),
    `<line x1="${C}" y1="${cy}" x2="${nx.toFixed(1)}" y2="${ny.toFixed(1)}" stroke="${p.accent}" stroke-width="18" stroke-linecap="round"/>`,
    `<circle cx="${C}" cy="${cy}" r="46" fill="${p.ink}"/>`,
    text(C, 1000, d.title, { size: fitSize(d.title, 130, 1120, { spacing: 4 }), fill: p.ink, spacing: 4 }),
    ruledCaption(1110, d.subtitle, p, 50, 1100),
  );
  return parts.join('');
}

function plate(d: Extract<Design, { kind: 'plate' }>, p: Palette): string {
  const w = 1080;
  const h = 560;
  const x = C - w / 2;
  const y = C - h / 2;
  const bolt = (bx: number, by: number) => `<circle cx="${bx}" cy="${by}" r="18" fill="${p.ink}"/>`;
  return [
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="48" fill="none" stroke="${p.ink}" stroke-width="22"/>`,
    `<rect x="${x + 34}" y="${y + 34}" width="${w - 68}" height="${h - 68}" rx="26" fill="none" stroke="${p.accent}" stroke-width="6"/>`,
    bolt(x + 120, y + 80),
    bolt(x + w - 120, y + 80),
    bolt(x + 120, y + h - 80),
    bolt(x + w - 120, y + h - 80),
    text(C, y + 130, d.top, {
      size: fitSize(d.top, 78, 640, { serif: true, spacing: 6 }),
      fill: p.accent,
      serif: true,
      italic: true,
      spacing: 6,
    }),
    text(C, y + 360, d.main, { size: fitSize(d.main, 230, 900, { spacing: 12 }), fill: p.ink, spacing: 12 }),
    text(C, y + 480, d.bottom, { size: fitSize(d.bottom, 54, 640, { spacing: 8 }), fill: p.ink, spacing: 8 }),
    place(drawIcon(d.icon, p), C, y - 170, 380),
  ].join('');
}

function stack(d: Extract<Design, { kind: 'stack' }>, p: Palette): string {
  const iconSize = d.icon ? (d.iconSize ?? 380) : 0;
  const gap = 40;
  const sizes = d.lines.map((line) => fitSize(line.text, line.size, 1100, { serif: line.serif, spacing: line.spacing }));
  const height =
    sizes.reduce((sum, size, i) => sum + size * 0.78 + (i > 0 ? gap : 0) + (d.lines[i]!.rule ? 50 : 0), 0) + (d.icon ? iconSize + gap : 0);
  let y = C - height / 2;
  const parts: string[] = [];
  if (d.icon) {
    parts.push(place(drawIcon(d.icon, p), C, y + iconSize / 2, iconSize));
    y += iconSize + gap;
  }
  d.lines.forEach((line, i) => {
    const size = sizes[i]!;
    if (i > 0) y += gap;
    y += size * 0.78;
    const fill = line.color === 'accent' ? p.accent : p.ink;
    parts.push(text(C, y, line.text, { size, fill, serif: line.serif, italic: line.italic, spacing: line.spacing }));
    if (line.rule) {
      y += 50;
      parts.push(`<path d="M${C - 260} ${y - 14} L${C + 260} ${y - 14}" stroke="${p.accent}" stroke-width="8" stroke-linecap="round"/>`);
    }
  });
  return parts.join('');
}

function emblem(d: Extract<Design, { kind: 'emblem' }>, p: Palette): string {
  const parts = d.items.map((item) => placed(item, p));
  parts.push(text(C, d.subtitle ? 1010 : 1080, d.title, { size: fitSize(d.title, 150, 1120, { spacing: 6 }), fill: p.ink, spacing: 6 }));
  if (d.subtitle) parts.push(ruledCaption(1120, d.subtitle, p, 54, 1100));
  return parts.join('');
}

type DesignKind = Design['kind'];
type DesignOf<K extends DesignKind> = Extract<Design, { kind: K }>;
type Drawing<K extends DesignKind> = (design: DesignOf<K>, palette: Palette) => string;

/** How each kind of design is drawn. */
const DRAWINGS: { [K in DesignKind]: Drawing<K> } = { badge, sunset, crest, winged, gauge, plate, stack, emblem };

function draw<K extends DesignKind>(design: DesignOf<K>, palette: Palette): string {
  return DRAWINGS[design.kind](design, palette);
}

export function designSvg(design: Design, palette: Palette): string {
  return svgDocument(ART_SIZE, ART_SIZE, draw(design, palette));
}
