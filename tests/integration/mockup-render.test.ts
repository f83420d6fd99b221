import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { artBox, renderSize } from '../../src/shared/placement';
import { renderMockup } from '../../src/server/mockups/render';

// The server render puts the artwork exactly where src/shared/placement.ts says: pixels inside the
// computed box are the artwork's, pixels outside are the template's.

const TEMPLATE = { width: 1000, height: 1200 };
const ART = { width: 200, height: 100 };

const white = () =>
  sharp({ create: { ...TEMPLATE, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
/** A 200 x 100 red bar whose left quarter is blue, so the direction of a rotation shows. */
const redBar = () =>
  sharp({ create: { ...ART, channels: 4, background: '#ff0000' } })
    .composite([{ input: { create: { width: 50, height: 100, channels: 4, background: '#0000ff' } }, left: 0, top: 0 }])
    .png()
    .toBuffer();

async function pixelReader(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    info,
    at(x: number, y: number): string {
      const i = (Math.round(y) * info.width + Math.round(x)) * 3;
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      if (r > 230 && g > 230 && b > 230) return 'white';
      if (r > 200 && g < 40 && b < 40) return 'red';
      if (b > 200 && r < 40 && g < 40) return 'blue';
      return `rgb(${r},${g},${b})`;
    },
  };
}

describe('renderMockup', () => {
  it('renders at print resolution: the 12-inch template width at 300 DPI', async () => {
    const png = await renderMockup(await white(), await redBar(), { x: 50, y: 30, width: 30, height: 30, rotation: 0 });
    const meta = await sharp(png).metadata();
    expect(meta.format).toBe('png');
    expect({ width: meta.width, height: meta.height }).toEqual(renderSize(TEMPLATE));
    expect(renderSize(TEMPLATE)).toEqual({ width: 3600, height: 4320 });
  });

  it('places the artwork in the computed box, centred on x, y', async () => {
    const position = { x: 50, y: 30, width: 30, height: 30, rotation: 0 };
    const out = renderSize(TEMPLATE);
    const box = artBox(out, ART, position);
    // 30 % of 3600 = 1080 wide; the 2:1 bar is 540 high; centred on (1800, 1296).
    expect(box).toMatchObject({ left: 1260, top: 1026, width: 1080, height: 540 });

    const px = await pixelReader(await renderMockup(await white(), await redBar(), position));
    const right = box.left + box.width;
    const bottom = box.top + box.height;
    expect(px.at(box.centerX, box.centerY)).toBe('red');
    expect(px.at(box.left + 5, box.top + 5)).toBe('blue');
    expect(px.at(right - 5, bottom - 5)).toBe('red');
    expect(px.at(box.left + 5, bottom - 5)).toBe('blue');
    // Just outside each edge: the template.
    expect(px.at(box.left - 5, box.centerY)).toBe('white');
    expect(px.at(right + 5, box.centerY)).toBe('white');
    expect(px.at(box.centerX, box.top - 5)).toBe('white');
    expect(px.at(box.centerX, bottom + 5)).toBe('white');
    expect(px.at(10, 10)).toBe('white');
  });

  it('turns the artwork clockwise about its centre (rotation 90)', async () => {
    const position = { x: 40, y: 60, width: 30, height: 30, rotation: 90 };
    const box = artBox(renderSize(TEMPLATE), ART, position);
    const px = await pixelReader(await renderMockup(await white(), await redBar(), position));
    // Turned a quarter: 540 wide and 1080 high around the same centre (1440, 2592).
    const half = { w: box.height / 2, h: box.width / 2 };
    expect(px.at(box.centerX, box.centerY)).toBe('red');
    expect(px.at(box.centerX - half.w + 5, box.centerY - half.h + 5)).toBe('blue');
    expect(px.at(box.centerX + half.w - 5, box.centerY + half.h - 5)).toBe('red');
    expect(px.at(box.centerX - half.w - 5, box.centerY)).toBe('white');
    expect(px.at(box.centerX + half.w + 5, box.centerY)).toBe('white');
    expect(px.at(box.centerX, box.centerY - half.h - 5)).toBe('white');
    expect(px.at(box.centerX, box.centerY + half.h + 5)).toBe('white');
    // Where the unturned bar would reach sideways there is now template.
    expect(px.at(box.left + 20, box.centerY)).toBe('white');
  });

  it('cuts off what lies beyond the template edge', async () => {
    const position = { x: 0, y: 100, width: 30, height: 30, rotation: 0 };
    const px = await pixelReader(await renderMockup(await white(), await redBar(), position));
    expect(px.info.width).toBe(3600);
    // The bar's right half sits in the bottom-left corner.
    expect(px.at(5, px.info.height - 5)).toBe('red');
    expect(px.at(530, px.info.height - 5)).toBe('red');
    expect(px.at(560, px.info.height - 5)).toBe('white');
    expect(px.at(5, px.info.height - 300)).toBe('white');
  });
});
