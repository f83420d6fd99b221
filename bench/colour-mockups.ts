import type { Db } from '../src/server/db/database';
import { COLOUR_MOCKUP_WIDTH } from '../src/server/mockups/colour-renders';
import { colourArtLayer, readStoredImage, renderColourMockup } from '../src/server/mockups/render';
import type { Storage } from '../src/server/storage/storage';
import { SHIRT_PALETTE } from '../src/shared/colours';
import { DEFAULT_FRONT_ART_POSITION } from '../src/shared/constants';

// One colour and one side of a mockup at display size (docs/adr/0030-colour-rendering.md), from the
// demo store's default template and a demo product's artwork: the budget is 300 ms each.

export const COLOUR_MOCKUP_BUDGET_MS = 300;

/** ms per colour and side for each palette colour (the first render, which warms sharp up, left out). */
export async function measureColourMockups(db: Db, storage: Storage): Promise<number[]> {
  const template = await db
    .selectFrom('mockup_templates')
    .select('front_template_url')
    .where('is_default', '=', true)
    .executeTakeFirstOrThrow();
  const product = await db
    .selectFrom('products')
    .select('front_art_url')
    .where('front_art_url', 'is not', null)
    .orderBy('name')
    .executeTakeFirstOrThrow();
  const [templateBytes, artBytes] = await Promise.all([
    readStoredImage(storage, template.front_template_url, 'front template'),
    readStoredImage(storage, product.front_art_url!, 'front artwork'),
  ]);
  // Placed once per side for all its colours, as the renders do.
  const layer = await colourArtLayer(templateBytes, artBytes, DEFAULT_FRONT_ART_POSITION, COLOUR_MOCKUP_WIDTH);
  const render = (hex: string) => renderColourMockup({ hex }, layer);
  await render('#ffffff');
  const times: number[] = [];
  for (const colour of SHIRT_PALETTE) {
    const start = performance.now();
    await render(colour.hex);
    times.push(performance.now() - start);
  }
  return times;
}
