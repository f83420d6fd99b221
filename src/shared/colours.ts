import { toCents } from './money';
import { slugify } from './slug';
import type { Size, SizeSurcharges } from './constants';

// Shirt colours and variants (docs/adr/0029): what the product form, the product page, pricing and
// the club's curation all compute the same way.

/** '#rrggbb', as the database keeps it. */
export const HEX_PATTERN = /^#[0-9a-f]{6}$/;

/** The palette the product form offers: common blank-shirt colours with their SKU codes. */
export const SHIRT_PALETTE = [
  { name: 'White', hex: '#ffffff', code: 'WHT' },
  { name: 'Black', hex: '#1b1b1d', code: 'BLK' },
  { name: 'Navy', hex: '#1f2a44', code: 'NVY' },
  { name: 'Heather Grey', hex: '#a6a7ab', code: 'HGR' },
  { name: 'Charcoal', hex: '#3e3f44', code: 'CHR' },
  { name: 'Red', hex: '#b3202a', code: 'RED' },
  { name: 'Royal Blue', hex: '#2553a8', code: 'RBL' },
  { name: 'Forest Green', hex: '#24452f', code: 'FGR' },
  { name: 'Maroon', hex: '#5b1f2b', code: 'MRN' },
  { name: 'Sand', hex: '#d8c8a8', code: 'SND' },
  { name: 'Natural', hex: '#efe8d8', code: 'NAT' },
  { name: 'Pink', hex: '#f2b8c6', code: 'PNK' },
] as const;

/** A colour's SKU code: the palette's for a palette name, else its name's consonants (first letter kept), three letters. */
export function colourCodeOf(name: string): string {
  const known = SHIRT_PALETTE.find((colour) => colour.name.toLowerCase() === name.trim().toLowerCase());
  if (known) return known.code;
  const letters = slugify(name).replace(/-/g, '').toUpperCase();
  const consonants = (letters.charAt(0) + letters.slice(1).replace(/[AEIOU]/g, '')).slice(0, 3);
  return (consonants.length >= 2 ? consonants : letters.slice(0, 3)) || 'C';
}

/** Codes for a product's colours, in order, none repeated (a digit is added to a repeat). */
export function uniqueColourCodes(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = colourCodeOf(name);
    let code = base;
    for (let n = 2; taken.has(code); n += 1) code = `${base.slice(0, 5)}${n}`.slice(-6);
    taken.add(code);
    return code;
  });
}

/** The variant's SKU: the product's, the colour's code and the size (TL-CHR-001-BLK-2XL). */
export const variantSku = (productSku: string, colourCode: string, size: Size) => `${productSku}-${colourCode}-${size}`;

/** The colour's slug in the product page's address (?colour=heather-grey). */
export const colourSlug = (name: string) => slugify(name) || 'colour';

/** A variant's price in cents: the product's plus its size's surcharge. */
export const variantCents = (productPrice: string, size: Size, surcharges: SizeSurcharges) =>
  toCents(productPrice) + toCents(surcharges[size] ?? '0');

/** Relative luminance (WCAG) of '#rrggbb', 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const channel = (start: number) => {
    const value = parseInt(hex.slice(start, start + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * The relative luminance from which a shirt colour is light (white, sand, heather grey: 0.38 and
 * up) rather than dark (black, navy, red, royal blue: 0.12 and down). The club's colour choice
 * reads it, in SQL too (src/server/subscriptions/curation.ts).
 */
export const LIGHT_COLOUR_LUMINANCE = 0.3;

/** A light shirt colour (white, sand, heather grey) as against a dark one (black, navy). */
export const isLightColour = (hex: string) => luminance(hex) >= LIGHT_COLOUR_LUMINANCE;

/** WCAG contrast ratio of two luminances, 1 to 21. */
export const contrastRatio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
