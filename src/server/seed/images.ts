import {
  DEFAULT_BACK_ART_POSITION,
  DEFAULT_FRONT_ART_POSITION,
  type ArtPosition,
  type ChestPosition,
  type MockupSide,
} from '../../shared/constants';
import { loadSharp } from '../images';
import { MOCKUP_BUCKET, type Storage } from '../storage/storage';
import { designSvg, type Design, type Palette } from './artwork';
import { car, cross, motorcycle } from './icons';
import { place, svgDocument } from './svg';

// Every picture the demo store shows, drawn here as SVG and rendered with sharp: the default
// t-shirt template pair, category banners, product artwork and the mockups made from them.

const TEMPLATE_WIDTH = 1000;
const TEMPLATE_HEIGHT = 1200;
const MOCKUP_WIDTH = 800;
const MOCKUP_HEIGHT = 960;
const BANNER_WIDTH = 1600;
const BANNER_HEIGHT = 500;
/** Images rendered at once; sharp already spreads each one over the cores. */
const CONCURRENCY = 4;

// A small chest print sits over the wearer's left chest, which is the viewer's right.
const LEFT_CHEST_POSITION: ArtPosition = { x: 63, y: 24, width: 13, height: 13, rotation: 0 };

export type CategoryArt = 'motorcycle' | 'car' | 'christian';

// Outline from the left neck point clockwise; only the neckline differs between front and back.
const FRONT_NECKLINE = 'C425 172 575 172 610 100';
const BACK_NECKLINE = 'C432 126 568 126 610 100';
const teeOutline = (neckline: string) =>
  `M390 100 ${neckline} C680 114 745 130 790 150 C860 190 930 280 975 370 L850 450 C830 425 810 405 795 390 ` +
  'C790 600 795 900 805 1120 C620 1140 380 1140 195 1120 C205 900 210 600 205 390 C190 405 170 425 150 450 L25 370 ' +
  'C70 280 140 190 210 150 C255 130 320 114 390 100 Z';

/** A light heather-grey crew-neck tee; the back has the higher neckline and no visible inside. */
function teeSvg(side: MockupSide): string {
  const outline = teeOutline(side === 'front' ? FRONT_NECKLINE : BACK_NECKLINE);
  const defs = [
    '<filter id="shadow" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="14"/></filter>',
    '<filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="10"/></filter>',
    '<linearGradient id="cloth" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#c9cacc"/><stop offset="0.3" stop-color="#e2e3e5"/><stop offset="0.5" stop-color="#e8e9eb"/><stop offset="0.7" stop-color="#e2e3e5"/><stop offset="1" stop-color="#c9cacc"/></linearGradient>',
    '<linearGradient id="drape" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity="0.25"/><stop offset="1" stop-color="#000000" stop-opacity="0.06"/></linearGradient>',
    `<clipPath id="tee"><path d="${outline}"/></clipPath>`,
  ].join('');
  // Front: the inside of the back collar shows above the scooped neckline (outside the outline).
  const insideBack =
    side === 'front'
      ? `<path d="M390 100 ${FRONT_NECKLINE} C570 82 430 82 390 100 Z" fill="#a3a5a8"/>` +
        '<path d="M390 100 C430 82 570 82 610 100" fill="none" stroke="#c8cacd" stroke-width="9" stroke-linecap="round"/>'
      : '';
  const ribbing =
    side === 'front'
      ? `<path d="M390 100 ${FRONT_NECKLINE}" fill="none" stroke="#d5d6d9" stroke-width="44"/>` +
        '<path d="M404 120 C434 180 566 180 596 120" fill="none" stroke="#b9bbbe" stroke-width="2" stroke-dasharray="6 5"/>'
      : `<path d="M390 100 ${BACK_NECKLINE}" fill="none" stroke="#d5d6d9" stroke-width="40"/>` +
        '<path d="M398 112 C438 136 562 136 602 112" fill="none" stroke="#b9bbbe" stroke-width="2" stroke-dasharray="6 5"/>';
  const body = [
    `<path d="${outline}" transform="translate(0 18)" fill="#000" opacity="0.18" filter="url(#shadow)"/>`,
    insideBack,
    `<path d="${outline}" fill="url(#cloth)"/>`,
    `<g clip-path="url(#tee)">`,
    `<rect width="${TEMPLATE_WIDTH}" height="${TEMPLATE_HEIGHT}" fill="url(#drape)"/>`,
    // Folds: under the arms and a soft drape towards the hem.
    '<path d="M215 400 C250 460 270 520 265 600" fill="none" stroke="#000" stroke-opacity="0.06" stroke-width="24" filter="url(#soft)"/>',
    '<path d="M785 400 C750 460 730 520 735 600" fill="none" stroke="#000" stroke-opacity="0.06" stroke-width="24" filter="url(#soft)"/>',
    '<path d="M420 1120 C440 1030 470 980 462 920" fill="none" stroke="#000" stroke-opacity="0.045" stroke-width="30" filter="url(#soft)"/>',
    '<path d="M610 1120 C600 1050 630 1000 650 950" fill="none" stroke="#fff" stroke-opacity="0.18" stroke-width="30" filter="url(#soft)"/>',
    // Sleeve seams, cuffs and hem stitching.
    '<path d="M212 152 C242 220 242 320 205 390" fill="none" stroke="#aeb0b3" stroke-width="3"/>',
    '<path d="M788 152 C758 220 758 320 795 390" fill="none" stroke="#aeb0b3" stroke-width="3"/>',
    '<path d="M42 360 L160 436" fill="none" stroke="#b9bbbe" stroke-width="2" stroke-dasharray="7 5"/>',
    '<path d="M958 360 L840 436" fill="none" stroke="#b9bbbe" stroke-width="2" stroke-dasharray="7 5"/>',
    '<path d="M200 1098 C380 1116 620 1116 800 1098" fill="none" stroke="#b9bbbe" stroke-width="2" stroke-dasharray="7 5"/>',
    ribbing,
    '</g>',
    `<path d="${outline}" fill="none" stroke="#a9abae" stroke-width="3" stroke-linejoin="round"/>`,
  ].join('');
  return svgDocument(TEMPLATE_WIDTH, TEMPLATE_HEIGHT, body, defs);
}

/** Deterministic pseudo-random numbers, so the banners look the same on every install. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296;
  };
}

function ridge(baseY: number, amplitude: number, seed: number, step = 80): string {
  const next = random(seed);
  const points = [`M0 ${BANNER_HEIGHT}`, `L0 ${baseY}`];
  for (let x = step; x <= BANNER_WIDTH + step; x += step) {
    points.push(`L${x} ${(baseY - next() * amplitude).toFixed(0)}`);
  }
  points.push(`L${BANNER_WIDTH + step} ${BANNER_HEIGHT} Z`);
  return points.join(' ');
}

/** Wide scenic banners without lettering: the storefront sets the category name over them. */
function bannerSvg(kind: CategoryArt): string {
  const W = BANNER_WIDTH;
  const H = BANNER_HEIGHT;
  if (kind === 'motorcycle') {
    const defs =
      '<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1e1b4b"/><stop offset="0.55" stop-color="#9a3412"/><stop offset="1" stop-color="#f59e0b"/></linearGradient>';
    const bike = motorcycle({ ink: '#0c0a09', accent: '#0c0a09' });
    return svgDocument(
      W,
      H,
      [
        `<rect width="${W}" height="${H}" fill="url(#sky)"/>`,
        `<circle cx="1080" cy="380" r="150" fill="#fbbf24" opacity="0.9"/>`,
        `<path d="${ridge(360, 150, 7)}" fill="#5b1d0c"/>`,
        `<path d="${ridge(420, 90, 11, 120)}" fill="#1c1917"/>`,
        `<path d="M380 500 C560 440 760 430 900 420 L960 420 C900 440 760 470 700 500 Z" fill="#292524"/>`,
        `<path d="M560 490 C680 455 800 440 920 424" fill="none" stroke="#fbbf24" stroke-width="3" stroke-dasharray="18 14" opacity="0.8"/>`,
        place(bike, 780, 412, 190),
      ].join(''),
      defs,
    );
  }
  if (kind === 'car') {
    const next = random(42);
    const buildings: string[] = [];
    for (let x = 0; x < W; x += 60 + Math.floor(next() * 50)) {
      const width = 50 + Math.floor(next() * 60);
      const height = 120 + Math.floor(next() * 200);
      buildings.push(`<rect x="${x}" y="${380 - height}" width="${width}" height="${height + 10}" fill="#0f172a"/>`);
      for (let wy = 400 - height; wy < 360; wy += 26) {
        for (let wx = x + 8; wx < x + width - 10; wx += 16) {
          if (next() < 0.35)
            buildings.push(`<rect x="${wx}" y="${wy}" width="7" height="11" fill="#fde68a" opacity="${(0.5 + next() * 0.5).toFixed(2)}"/>`);
        }
      }
    }
    const defs =
      '<linearGradient id="night" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0b1026"/><stop offset="0.7" stop-color="#312e81"/><stop offset="1" stop-color="#be185d"/></linearGradient>';
    const streaks = [0, 1, 2, 3].map(
      (i) =>
        `<path d="M0 ${440 + i * 12} L${W} ${430 + i * 14}" stroke="${i % 2 ? '#f43f5e' : '#fde68a'}" stroke-width="${3 - i * 0.5}" opacity="0.7"/>`,
    );
    return svgDocument(
      W,
      H,
      [
        `<rect width="${W}" height="${H}" fill="url(#night)"/>`,
        `<circle cx="260" cy="110" r="46" fill="#f8fafc" opacity="0.85"/>`,
        ...buildings,
        `<rect y="380" width="${W}" height="120" fill="#020617"/>`,
        ...streaks,
        place(car({ ink: '#000000', accent: '#e11d48' }), 1120, 380, 420),
      ].join(''),
      defs,
    );
  }
  const defs =
    '<linearGradient id="dawn" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#7dd3fc"/><stop offset="0.6" stop-color="#fde68a"/><stop offset="1" stop-color="#fb923c"/></linearGradient>' +
    '<radialGradient id="glow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fffbeb"/><stop offset="1" stop-color="#fffbeb" stop-opacity="0"/></radialGradient>';
  const beams = Array.from({ length: 14 }, (_, i) => {
    const angle = Math.PI + (i + 0.5) * (Math.PI / 14);
    const x = 1100 + 1400 * Math.cos(angle);
    const y = 330 + 1400 * Math.sin(angle);
    const x2 = 1100 + 1400 * Math.cos(angle + 0.05);
    const y2 = 330 + 1400 * Math.sin(angle + 0.05);
    return `<path d="M1100 330 L${x.toFixed(0)} ${y.toFixed(0)} L${x2.toFixed(0)} ${y2.toFixed(0)} Z" fill="#fffbeb" opacity="0.22"/>`;
  });
  return svgDocument(
    W,
    H,
    [
      `<rect width="${W}" height="${H}" fill="url(#dawn)"/>`,
      ...beams,
      `<circle cx="1100" cy="330" r="260" fill="url(#glow)"/>`,
      `<path d="M0 430 C300 360 520 400 760 380 C980 360 1100 300 1240 310 C1400 320 1500 380 1600 370 L1600 500 L0 500 Z" fill="#365314" opacity="0.7"/>`,
      `<path d="M0 470 C260 420 560 450 820 440 C1100 430 1300 400 1600 450 L1600 500 L0 500 Z" fill="#1a2e05"/>`,
      place(cross({ ink: '#1a2e05', accent: '#1a2e05' }), 1240, 250, 140),
    ].join(''),
    defs,
  );
}

const renderPng = async (svg: string) => (await loadSharp())(Buffer.from(svg)).png().toBuffer();

const ART_MARGIN = 24;
const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** Artwork as a print file: cropped to the design plus a small margin, so it fills its placement. */
async function renderArt(svg: string): Promise<Buffer> {
  const sharp = await loadSharp();
  const trimmed = await sharp(Buffer.from(svg)).trim().png().toBuffer();
  return sharp(trimmed)
    .extend({ top: ART_MARGIN, bottom: ART_MARGIN, left: ART_MARGIN, right: ART_MARGIN, background: TRANSPARENT })
    .png()
    .toBuffer();
}

/**
 * Puts artwork on a (resized) template: centred on x, y and scaled to fit a box of width percent of
 * the template's width by height percent of its height.
 */
async function composeMockup(template: Buffer, art: Buffer, position: ArtPosition): Promise<Buffer> {
  const sharp = await loadSharp();
  const box = { width: Math.round((MOCKUP_WIDTH * position.width) / 100), height: Math.round((MOCKUP_HEIGHT * position.height) / 100) };
  const { data, info } = await sharp(art)
    .resize({ ...box, fit: 'inside' })
    .png()
    .toBuffer({ resolveWithObject: true });
  const left = Math.round((MOCKUP_WIDTH * position.x) / 100 - info.width / 2);
  const top = Math.round((MOCKUP_HEIGHT * position.y) / 100 - info.height / 2);
  return sharp(template)
    .composite([{ input: data, left, top }])
    .png()
    .toBuffer();
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export interface ProductArtSpec {
  slug: string;
  palette: Palette;
  front: Design;
  back: Design;
  chestPosition: ChestPosition;
}

export interface ProductImages {
  frontArtUrl: string;
  backArtUrl: string;
  frontMockupUrl: string;
  backMockupUrl: string;
}

export interface SeedImages {
  banners: Record<CategoryArt, string>;
  template: { front: string; back: string };
  products: Map<string, ProductImages>;
}

const suffix = () => crypto.randomUUID().slice(0, 8);

/** Renders and stores every demo image. Files are written before (and outside) the seeding transaction. */
export async function generateSeedImages(storage: Storage, products: readonly ProductArtSpec[]): Promise<SeedImages> {
  const sharp = await loadSharp();
  const put = async (bucket: string, name: string, bytes: Buffer) =>
    (await storage.put(bucket, `${name}-${suffix()}.png`, bytes, 'image/png')).url;

  const [frontTemplate, backTemplate] = await Promise.all([renderPng(teeSvg('front')), renderPng(teeSvg('back'))]);
  const [frontBase, backBase] = await Promise.all(
    [frontTemplate, backTemplate].map((png) => sharp(png).resize(MOCKUP_WIDTH, MOCKUP_HEIGHT).png().toBuffer()),
  );
  const template = {
    front: await put('templates', 'classic-tee-front', frontTemplate),
    back: await put('templates', 'classic-tee-back', backTemplate),
  };

  const kinds: CategoryArt[] = ['motorcycle', 'car', 'christian'];
  const bannerUrls = await mapLimit(kinds, CONCURRENCY, async (kind) =>
    put('categories', `${kind}-banner`, await renderPng(bannerSvg(kind))),
  );
  const banners = Object.fromEntries(kinds.map((kind, i) => [kind, bannerUrls[i]!])) as Record<CategoryArt, string>;

  const images = await mapLimit(products, CONCURRENCY, async (product): Promise<ProductImages> => {
    const [frontArt, backArt] = await Promise.all([
      renderArt(designSvg(product.front, product.palette)),
      renderArt(designSvg(product.back, product.palette)),
    ]);
    const frontPosition = product.chestPosition === 'left_chest' ? LEFT_CHEST_POSITION : DEFAULT_FRONT_ART_POSITION;
    const [frontMockup, backMockup] = await Promise.all([
      composeMockup(frontBase!, frontArt, frontPosition),
      composeMockup(backBase!, backArt, DEFAULT_BACK_ART_POSITION),
    ]);
    return {
      frontArtUrl: await put('product-art', `${product.slug}-front`, frontArt),
      backArtUrl: await put('product-art', `${product.slug}-back`, backArt),
      frontMockupUrl: await put(MOCKUP_BUCKET, `${product.slug}-front`, frontMockup),
      backMockupUrl: await put(MOCKUP_BUCKET, `${product.slug}-back`, backMockup),
    };
  });
  return { banners, template, products: new Map(products.map((product, i) => [product.slug, images[i]!])) };
}
