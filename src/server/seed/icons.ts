// Flat icons for the demo artwork, each drawn in a 100x100 box (see place() in svg.ts).

export interface IconColors {
  ink: string;
  accent: string;
}

const round = 'stroke-linecap="round" stroke-linejoin="round"';

export function motorcycle({ ink, accent }: IconColors): string {
  const wheel = (cx: number) =>
    `<circle cx="${cx}" cy="70" r="14.5" fill="none" stroke="${ink}" stroke-width="5.5"/>` +
    `<circle cx="${cx}" cy="70" r="8" fill="none" stroke="${ink}" stroke-width="1.2"/>` +
    `<circle cx="${cx}" cy="70" r="3.2" fill="${ink}"/>`;
  return [
    wheel(19),
    wheel(82),
    // rear fender, swingarm, exhaust
    `<path d="M5 66 Q7 51 24 50" fill="none" stroke="${ink}" stroke-width="4" ${round}/>`,
    `<path d="M19 70 L46 62" stroke="${ink}" stroke-width="4.5" ${round}/>`,
    `<path d="M30 67 L56 66" stroke="${accent}" stroke-width="4" ${round}/>`,
    // frame, fork, handlebars, headlight
    `<path d="M44 52 L66 43 L62 63" fill="none" stroke="${ink}" stroke-width="4" ${round}/>`,
    `<path d="M82 70 L69 33" stroke="${ink}" stroke-width="4.2" ${round}/>`,
    `<path d="M69 33 L64 26 L56 25" fill="none" stroke="${ink}" stroke-width="3.4" ${round}/>`,
    `<circle cx="74" cy="39" r="4" fill="${accent}"/>`,
    // V-twin engine
    `<path d="M44 56 L50 46 L55 49 L50 59 Z" fill="${ink}"/>`,
    `<path d="M52 59 L56 47 L62 49 L58 61 Z" fill="${ink}"/>`,
    `<rect x="42" y="58" width="20" height="9" rx="3" fill="${ink}"/>`,
    // seat and tank
    `<path d="M22 47 Q34 41 46 44 L45 50 Q33 49 24 51 Z" fill="${ink}"/>`,
    `<path d="M45 44 Q52 33 66 37 L68 44 Q57 50 45 48 Z" fill="${accent}"/>`,
  ].join('');
}

export function car({ ink, accent }: IconColors): string {
  // A low fastback facing right: long hood, sloping roof, two side windows.
  return [
    `<path fill-rule="evenodd" fill="${ink}" d="M3 66 L3 57 Q4 53 10 52 Q26 47 40 40 Q44 38.5 50 38.5 L60 38.5 Q65 39 72 49 L92 51 Q97 52 97 57 L97 65 Q97 68 94 68 L89 68 A11 11 0 0 0 67 68 L35 68 A11 11 0 0 0 13 68 L6 68 Q3 68 3 66 Z
      M30 49 Q38 43.5 45 42 L52 42 L52 49 Z M55 42 L60 42 Q64 43 68 49 L55 49 Z"/>`,
    `<path d="M6 57 L95 57" stroke="${accent}" stroke-width="2.6"/>`,
    `<circle cx="24" cy="68" r="9" fill="${ink}"/><circle cx="24" cy="68" r="4" fill="${accent}"/>`,
    `<circle cx="78" cy="68" r="9" fill="${ink}"/><circle cx="78" cy="68" r="4" fill="${accent}"/>`,
    `<rect x="92" y="54" width="5" height="3" rx="1" fill="${accent}"/>`,
  ].join('');
}

export function piston({ ink, accent }: IconColors): string {
  return [
    `<rect x="34" y="10" width="32" height="30" rx="3" fill="${ink}"/>`,
    `<rect x="34" y="16" width="32" height="2.5" fill="${accent}"/><rect x="34" y="22" width="32" height="2.5" fill="${accent}"/>`,
    `<path d="M44 38 L41 80 L59 80 L56 38 Z" fill="${ink}"/>`,
    `<circle cx="50" cy="84" r="10" fill="none" stroke="${ink}" stroke-width="6"/>`,
    `<circle cx="50" cy="32" r="3.5" fill="${accent}"/>`,
  ].join('');
}

export function wrench({ ink }: IconColors): string {
  return `<path fill="${ink}" d="M44 14 A16 16 0 0 0 40 37 L42 39 L44 86 Q44 92 50 92 Q56 92 56 86 L58 39 L60 37 A16 16 0 0 0 56 14 L56 28 L50 32 L44 28 Z"/>`;
}

export function gear({ ink, accent }: IconColors, teeth = 12): string {
  const points: string[] = [];
  for (let i = 0; i < teeth * 4; i++) {
    const r = i % 4 < 2 ? 47 : 38;
    const angle = ((i + (i % 4 === 1 || i % 4 === 3 ? 0 : 0.35)) / (teeth * 4)) * Math.PI * 2;
    points.push(`${(50 + r * Math.cos(angle)).toFixed(1)},${(50 + r * Math.sin(angle)).toFixed(1)}`);
  }
  return `<polygon points="${points.join(' ')}" fill="${ink}"/><circle cx="50" cy="50" r="24" fill="${accent}"/><circle cx="50" cy="50" r="10" fill="${ink}"/>`;
}

/** One wing reaching left from the centre; mirror it for the right side. */
export function wing({ ink }: IconColors): string {
  const feathers: string[] = [];
  for (let i = 0; i < 5; i++) {
    const y = 30 + i * 11;
    const reach = 96 - i * 15;
    feathers.push(
      `<path d="M100 ${y} L${100 - reach} ${y - 6 + i * 2} Q${100 - reach - 4} ${y + 2} ${100 - reach + 8} ${y + 8} L100 ${y + 10} Z" fill="${ink}"/>`,
    );
  }
  return feathers.join('');
}

export function flag({ ink }: IconColors): string {
  const squares: string[] = [];
  for (let row = 0; row < 4; row++) {
    for (let col = 0; col < 6; col++) {
      if ((row + col) % 2 === 0) squares.push(`<rect x="${20 + col * 12}" y="${10 + row * 11}" width="12" height="11" fill="${ink}"/>`);
    }
  }
  return `<path d="M18 8 L18 96" stroke="${ink}" stroke-width="5" stroke-linecap="round"/><rect x="20" y="10" width="72" height="44" fill="none" stroke="${ink}" stroke-width="2"/>${squares.join('')}`;
}

export function mountains({ ink, accent }: IconColors): string {
  return [
    `<path d="M0 80 L30 34 L42 50 L62 20 L100 80 Z" fill="${ink}"/>`,
    `<path d="M62 20 L70 32 L64 30 L58 36 L54 32 Z" fill="${accent}"/>`,
    `<path d="M30 34 L36 43 L31 41 L26 45 Z" fill="${accent}"/>`,
  ].join('');
}

export function road({ ink, accent }: IconColors): string {
  return [
    `<path d="M20 100 Q44 74 40 58 Q36 44 52 36 Q60 32 58 28 L64 28 Q70 34 60 42 Q48 50 56 62 Q66 80 80 100 Z" fill="${ink}"/>`,
    `<path d="M50 96 Q54 80 49 66 M48 56 Q46 48 56 40" fill="none" stroke="${accent}" stroke-width="2.4" stroke-dasharray="5 4"/>`,
  ].join('');
}

export function cross({ ink }: IconColors): string {
  return `<path d="M44 6 L56 6 L56 30 L76 30 L76 42 L56 42 L56 94 L44 94 L44 42 L24 42 L24 30 L44 30 Z" fill="${ink}"/>`;
}

function rays({ accent }: IconColors, count = 18): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const angle = (i / count) * Math.PI * 2;
    const x1 = 50 + 20 * Math.cos(angle);
    const y1 = 50 + 20 * Math.sin(angle);
    const long = i % 2 === 0 ? 48 : 38;
    lines.push(
      `<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${(50 + long * Math.cos(angle)).toFixed(1)}" y2="${(50 + long * Math.sin(angle)).toFixed(1)}"/>`,
    );
  }
  return `<g stroke="${accent}" stroke-width="2.2" stroke-linecap="round">${lines.join('')}</g>`;
}

export function dove({ ink, accent }: IconColors): string {
  return [
    // body and head, facing left
    `<path fill="${ink}" d="M14 44 Q18 36 27 37 Q33 38 36 44 Q48 52 66 50 L92 40 Q88 50 78 56 L96 58 Q80 66 62 66 Q42 68 32 56 Q27 50 22 48 L12 49 Z"/>`,
    // raised wing
    `<path fill="${ink}" d="M40 50 Q44 26 60 12 Q62 24 58 32 Q68 20 80 16 Q76 36 62 48 Z"/>`,
    // olive branch
    `<path d="M12 49 Q6 58 10 66" fill="none" stroke="${accent}" stroke-width="2" ${round}/>`,
    `<ellipse cx="6" cy="57" rx="3.5" ry="1.8" transform="rotate(-40 6 57)" fill="${accent}"/>`,
    `<ellipse cx="13" cy="60" rx="3.5" ry="1.8" transform="rotate(30 13 60)" fill="${accent}"/>`,
    `<ellipse cx="8" cy="65" rx="3.5" ry="1.8" transform="rotate(-30 8 65)" fill="${accent}"/>`,
    `<circle cx="22" cy="41" r="1.6" fill="${accent}"/>`,
  ].join('');
}

export function fish({ ink }: IconColors): string {
  return `<path d="M8 50 Q40 14 74 42 L94 26 L88 50 L94 74 L74 58 Q40 86 8 50 Z" fill="none" stroke="${ink}" stroke-width="6" stroke-linejoin="round"/><circle cx="24" cy="46" r="3" fill="${ink}"/>`;
}

export function anchor({ ink, accent }: IconColors): string {
  return [
    `<circle cx="50" cy="13" r="7" fill="none" stroke="${ink}" stroke-width="5"/>`,
    `<path d="M50 20 L50 88" stroke="${ink}" stroke-width="7"/>`,
    `<path d="M32 32 L68 32" stroke="${accent}" stroke-width="6" stroke-linecap="round"/>`,
    `<path d="M14 58 Q16 84 50 90 Q84 84 86 58" fill="none" stroke="${ink}" stroke-width="7" stroke-linecap="round"/>`,
    `<path d="M8 62 L14 50 L22 62 Z M78 62 L86 50 L92 62 Z" fill="${ink}"/>`,
  ].join('');
}

export function crown({ ink, accent }: IconColors): string {
  return [
    `<path d="M12 72 L8 30 L30 50 L50 20 L70 50 L92 30 L88 72 Z" fill="${ink}"/>`,
    `<rect x="12" y="76" width="76" height="8" rx="2" fill="${ink}"/>`,
    `<circle cx="8" cy="28" r="4" fill="${accent}"/><circle cx="50" cy="18" r="4.5" fill="${accent}"/><circle cx="92" cy="28" r="4" fill="${accent}"/>`,
    `<circle cx="50" cy="58" r="5" fill="${accent}"/><circle cx="30" cy="62" r="3.5" fill="${accent}"/><circle cx="70" cy="62" r="3.5" fill="${accent}"/>`,
  ].join('');
}

export function sun({ accent }: IconColors): string {
  return `<circle cx="50" cy="50" r="18" fill="${accent}"/>${rays({ ink: accent, accent }, 16)}`;
}
