import { randomUUID } from 'node:crypto';
import type { ArtPosition, MockupSide } from '../../shared/constants';
import { lowContrastMessage, MIN_ART_CONTRAST } from '../../shared/schemas/admin-mockups';
import type { Db } from '../db/database';
import { makeDisplayCopies } from '../display-copies';
import { MOCKUP_BUCKET, type Storage } from '../storage/storage';
import { artContrast, colourArtLayer, readStoredImage, renderColourMockup } from './render';

// Each colour's mockups (docs/adr/0030-colour-rendering.md): for every colour of a product and
// every side just saved, the artwork on the shirt in that colour, at display size, with its
// display copies. A product of many colours takes seconds, so the admin's save answers first and
// the colours render after, one at a time; the admin page asks how far it has got.

/** Colour mockups are for shoppers only (printing uses the artwork): the largest display width. */
export const COLOUR_MOCKUP_WIDTH = 1440;

export interface ColourRenderSide {
  side: MockupSide;
  position: ArtPosition;
  template: Buffer;
  art: Buffer;
}

export interface ColourRenderProgress {
  done: number;
  total: number;
  /** Set when a render failed: the colours not done keep their former mockups. */
  failed: boolean;
}

/**
 * How far each product's colour renders have got, in this process (the process that saved the
 * mockups renders them; a save on another process is followed there). Finished ones are dropped
 * when the product is next saved.
 */
export class ColourRenders {
  private readonly progress = new Map<string, ColourRenderProgress>();

  of(productId: string): ColourRenderProgress | null {
    return this.progress.get(productId) ?? null;
  }

  /** Renders every colour of the product for `sides`; resolves when all are stored (or one failed). */
  async render(db: Db, storage: Storage, product: { id: string; slug: string }, sides: readonly ColourRenderSide[]): Promise<void> {
    const colours = await db
      .selectFrom('product_colours')
      .select(['id', 'slug', 'hex', 'front_blank_url', 'back_blank_url'])
      .where('product_id', '=', product.id)
      .orderBy('sort_order')
      .execute();
    const progress: ColourRenderProgress = { done: 0, total: colours.length * sides.length, failed: false };
    this.progress.set(product.id, progress);
    try {
      // The artwork is placed once per side, the same on every colour.
      const layers = await Promise.all(
        sides.map(({ template, art, position }) => colourArtLayer(template, art, position, COLOUR_MOCKUP_WIDTH)),
      );
      for (const colour of colours) {
        const urls: Partial<Record<`${MockupSide}_mockup_url`, string>> = {};
        for (const [index, { side }] of sides.entries()) {
          const blankUrl = side === 'front' ? colour.front_blank_url : colour.back_blank_url;
          const shirt = blankUrl ? { blank: await readStoredImage(storage, blankUrl, `${side} blank photo`) } : { hex: colour.hex };
          const png = await renderColourMockup(shirt, layers[index]!);
          const key = `${product.slug.slice(0, 80)}-${colour.slug.slice(0, 20)}-${side}-${randomUUID()}.png`;
          const url = (await storage.put(MOCKUP_BUCKET, key, png, 'image/png')).url;
          await makeDisplayCopies(db, storage, url);
          urls[`${side}_mockup_url`] = url;
          progress.done += 1;
        }
        const { numUpdatedRows } = await db
          .updateTable('product_colours')
          .set({ ...urls, updated_at: new Date() })
          .where('id', '=', colour.id)
          .executeTakeFirst();
        // The colour or its product was removed meanwhile: the rest need no pictures either.
        if (numUpdatedRows === 0n) break;
      }
    } catch (error) {
      progress.failed = true;
      throw error;
    }
  }
}

/** Warnings for each colour of the product the artwork of a side has too little contrast with (white art on a white shirt). */
export async function contrastWarnings(
  db: Db,
  productId: string,
  sides: readonly Pick<ColourRenderSide, 'side' | 'art'>[],
): Promise<string[]> {
  const colours = await db
    .selectFrom('product_colours')
    .select(['name', 'hex'])
    .where('product_id', '=', productId)
    .orderBy('sort_order')
    .execute();
  const warnings: string[] = [];
  for (const { side, art } of sides) {
    for (const colour of colours) {
      const ratio = await artContrast(art, colour.hex);
      if (ratio < MIN_ART_CONTRAST) warnings.push(lowContrastMessage(side, colour.name, ratio));
    }
  }
  return warnings;
}
