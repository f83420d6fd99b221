import type { ArtPosition } from '../../shared/constants';
import { contrastRatio, luminance } from '../../shared/colours';
import { artBox, effectiveDpi, renderSize, type Size } from '../../shared/placement';
import { oversizedSourceMessage, unreadableSourceMessage } from '../../shared/schemas/admin-mockups';
import { IMAGE_INPUT, imageProblem, loadSharp } from '../images';
import { parseStorageUrl, type Storage } from '../storage/storage';

// Server-side mockup rendering (docs/ARCHITECTURE.md § Files) with the placement math the browser preview
// uses (src/shared/placement.ts): the template is scaled to print resolution (its width = the
// 12-inch print area at 300 DPI), the artwork is resized from its own pixels to the placed box,
// turned about its centre and composited centred on (x, y).

/**
 * A mockup input that cannot be used: not a file of this shop's storage (an outside URL), missing,
 * or not an image sharp can decode (old data stored before uploads were decoded, or damaged since).
 */
export class MockupSourceError extends Error {}

/**
 * Bytes of a /storage/<bucket>/<key> file, decoded once whole so a bad file is named before
 * anything is rendered or written; outside URLs are refused rather than fetched.
 */
export async function readStoredImage(storage: Storage, url: string, what: string): Promise<Buffer> {
  const location = parseStorageUrl(url);
  if (!location) throw new MockupSourceError(`The ${what} must be an image uploaded to this store`);
  const bytes = await storage.get(location.bucket, location.key);
  if (!bytes) throw new MockupSourceError(`The ${what} file is missing from storage`);
  const problem = await imageProblem(bytes);
  if (problem) throw new MockupSourceError(problem === 'too-many-pixels' ? oversizedSourceMessage(what) : unreadableSourceMessage(what));
  return Buffer.from(bytes);
}

async function imageSize(bytes: Buffer): Promise<Size> {
  const sharp = await loadSharp();
  const { width, height } = await sharp(bytes, IMAGE_INPUT).metadata();
  return { width, height };
}

/** Effective DPI of the artwork placed on the template (same numbers as the browser readout). */
export async function placementDpi(template: Buffer, art: Buffer, position: ArtPosition): Promise<number> {
  const [templateSize, artSize] = await Promise.all([imageSize(template), imageSize(art)]);
  return effectiveDpi(templateSize, artSize, position);
}

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** Renders one side as PNG at print resolution. */
export async function renderMockup(template: Buffer, art: Buffer, position: ArtPosition): Promise<Buffer> {
  const sharp = await loadSharp();
  const output = renderSize(await imageSize(template));
  const base = await sharp(template, IMAGE_INPUT).resize(output.width, output.height, { fit: 'fill' }).png().toBuffer();
  return placeArt(base, output, art, position);
}

/** The shirt a colour's mockup is drawn on: the admin's own blank photo of it, or the template tinted to this colour. */
export type ColourShirt = { blank: Buffer } | { hex: string };

/** A side's parts shared by all its colours: the template at the mockup's size (raw RGBA, and its alpha) and the art to lay on it. */
export interface ArtLayer {
  output: Size;
  template: Buffer;
  alpha: Buffer;
  overlay: { input: Buffer; left: number; top: number } | null;
}

/** The template and the artwork, resized and placed once for mockups `width` pixels wide in every colour. */
export async function colourArtLayer(template: Buffer, art: Buffer, position: ArtPosition, width: number): Promise<ArtLayer> {
  const sharp = await loadSharp();
  const { width: templateWidth, height: templateHeight } = await imageSize(template);
  const output = { width, height: Math.max(1, Math.round((templateHeight * width) / templateWidth)) };
  const resized = await sharp(template, IMAGE_INPUT).resize(output.width, output.height, { fit: 'fill' }).ensureAlpha().raw().toBuffer();
  const alpha = await sharp(resized, { raw: { ...output, channels: 4 } })
    .extractChannel(3)
    .raw()
    .toBuffer();
  return { output, template: resized, alpha, overlay: await placedArt(output, art, position) };
}

/**
 * Renders one side in one shirt colour as PNG at the layer's size (a display size: shoppers see
 * it, printing uses the artwork). The template is tinted by a multiply blend, so its folds and
 * shadows stay, only where the template is drawn: its transparent background stays transparent.
 */
export async function renderColourMockup(shirt: ColourShirt, layer: ArtLayer): Promise<Buffer> {
  const sharp = await loadSharp();
  const { output, overlay } = layer;
  const raw = { ...output, channels: 4 as const };
  const art = overlay ? [overlay] : [];
  // Fast compression: display copies are made from it, and the render has a budget (bench/colour-mockups.ts).
  const png = { compressionLevel: 2, adaptiveFiltering: false };
  if ('blank' in shirt) {
    const blank = await sharp(shirt.blank, IMAGE_INPUT)
      .resize(output.width, output.height, { fit: 'cover' })
      .ensureAlpha()
      .raw()
      .toBuffer();
    return sharp(blank, { raw }).composite(art).png(png).toBuffer();
  }
  const tint = await sharp({ create: { ...output, channels: 3, background: shirt.hex } })
    .joinChannel(layer.alpha, { raw: { ...output, channels: 1 } })
    .raw()
    .toBuffer();
  const tinted = await sharp(layer.template, { raw })
    .composite([{ input: tint, raw, blend: 'multiply' }])
    .raw()
    .toBuffer();
  return sharp(tinted, { raw }).composite(art).png(png).toBuffer();
}

/**
 * The contrast ratio (WCAG, 1 to 21) of the artwork's average visible colour with the shirt's:
 * white art on a white shirt is about 1. Transparent pixels are not counted.
 */
export async function artContrast(art: Buffer, hex: string): Promise<number> {
  const sharp = await loadSharp();
  // A small copy is enough for an average and keeps this cheap for large artwork.
  const { data, info } = await sharp(art, IMAGE_INPUT)
    .ensureAlpha()
    .resize(64, 64, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let weight = 0;
  let sum = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const alpha = data[i + 3]! / 255;
    const pixelHex = `#${[data[i]!, data[i + 1]!, data[i + 2]!].map((value) => value.toString(16).padStart(2, '0')).join('')}`;
    sum += luminance(pixelHex) * alpha;
    weight += alpha;
  }
  if (weight === 0) return 21;
  return contrastRatio(sum / weight, luminance(hex));
}

/** The artwork resized, turned and composited centred on (x, y) of `base`, `output` in size. */
async function placeArt(base: Buffer, output: Size, art: Buffer, position: ArtPosition): Promise<Buffer> {
  const sharp = await loadSharp();
  const overlay = await placedArt(output, art, position);
  if (!overlay) return base;
  return sharp(base).composite([overlay]).png().toBuffer();
}

/** The artwork resized and turned, with where its visible part goes on an `output`-sized mockup (null: none of it shows). */
async function placedArt(output: Size, art: Buffer, position: ArtPosition): Promise<{ input: Buffer; left: number; top: number } | null> {
  const sharp = await loadSharp();
  const box = artBox(output, await imageSize(art), position);
  const placed = { width: Math.max(1, Math.round(box.width)), height: Math.max(1, Math.round(box.height)) };
  // Two pipelines: sharp would otherwise rotate before resizing, whatever the call order.
  const resized = await sharp(art, IMAGE_INPUT).ensureAlpha().resize(placed.width, placed.height, { fit: 'fill' }).png().toBuffer();
  const turned = await sharp(resized).rotate(position.rotation, { background: TRANSPARENT }).png().toBuffer({ resolveWithObject: true });

  // Centred on (x, y); the part outside the template is cut off (composite needs the overlay inside).
  const left = Math.round(box.centerX - turned.info.width / 2);
  const top = Math.round(box.centerY - turned.info.height / 2);
  const visible = {
    left: Math.max(0, -left),
    top: Math.max(0, -top),
    right: Math.min(turned.info.width, output.width - left),
    bottom: Math.min(turned.info.height, output.height - top),
  };
  if (visible.right <= visible.left || visible.bottom <= visible.top) return null;
  const input = await sharp(turned.data)
    .extract({ left: visible.left, top: visible.top, width: visible.right - visible.left, height: visible.bottom - visible.top })
    .png()
    .toBuffer();
  return { input, left: left + visible.left, top: top + visible.top };
}
