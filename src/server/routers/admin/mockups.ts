import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { ArtPosition, MockupSide } from '../../../shared/constants';
import { dpiLevel, normalizePosition } from '../../../shared/placement';
import {
  DEFAULT_SIDE_MISSING,
  lowDpiMessage,
  missingArtMessage,
  MOCKUP_PRODUCTS_SHOWN,
  mockupProductsInput,
  saveMockupsInput,
} from '../../../shared/schemas/admin-mockups';
import { deleteStoredImage, makeDisplayCopies } from '../../display-copies';
import { contrastWarnings } from '../../mockups/colour-renders';
import { MockupSourceError, placementDpi, readStoredImage, renderMockup } from '../../mockups/render';
import { MOCKUP_BUCKET } from '../../storage/storage';
import { assertFound, containsPattern } from '../../trpc/errors';
import { adminProcedure, router } from '../../trpc/init';

const TEMPLATE_COLUMNS = [
  'id',
  'name',
  'front_template_url',
  'back_template_url',
  'is_default',
  'front_art_position',
  'back_art_position',
] as const;
const PRODUCT_COLUMNS = [
  'id',
  'name',
  'sku_number',
  'slug',
  'image_url',
  'front_art_url',
  'back_art_url',
  'front_mockup_url',
  'back_mockup_url',
  'default_mockup_side',
] as const;

/** Storage keys are at most 200 characters; the side, a UUID and ".png" take 47 of them. */
const MOCKUP_KEY_SLUG_LENGTH = 100;

const badRequest = (message: string) => new TRPCError({ code: 'BAD_REQUEST', message });

export const adminMockupsRouter = router({
  /** Templates to choose from, the default first (docs/PRODUCT.md § Reads and writes). */
  templates: adminProcedure.query(({ ctx }) =>
    ctx.db.selectFrom('mockup_templates').select(TEMPLATE_COLUMNS).orderBy('is_default', 'desc').orderBy('name').orderBy('id').execute(),
  ),

  /**
   * The first products by name whose name or SKU holds the search, with their artwork and current
   * mockups; `more` when others match too. Bounded: a large catalog would be megabytes.
   */
  products: adminProcedure.input(mockupProductsInput).query(async ({ ctx, input }) => {
    let matching = ctx.db.selectFrom('products').select(PRODUCT_COLUMNS);
    if (input.search) {
      const pattern = containsPattern(input.search);
      matching = matching.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('sku_number', 'ilike', pattern)]));
    }
    const rows = await matching
      .orderBy('name')
      .orderBy('id')
      .limit(MOCKUP_PRODUCTS_SHOWN + 1)
      .execute();
    return { products: rows.slice(0, MOCKUP_PRODUCTS_SHOWN), more: rows.length > MOCKUP_PRODUCTS_SHOWN };
  }),

  /** How far the colour mockups of the product's last save in this process have got (null: none under way here). */
  colourProgress: adminProcedure.input(z.object({ productId: z.uuid() })).query(({ ctx, input }) => ctx.colourRenders.of(input.productId)),

  /**
   * Renders each given side on the server from the product's artwork and the template, stores the
   * PNGs with their display copies, then points the product at them in one statement. Files are
   * written first, so a product never points at a missing one; a save that fails deletes the files
   * it wrote.
   */
  save: adminProcedure.input(saveMockupsInput).mutation(async ({ ctx, input }) => {
    const [product, template] = await Promise.all([
      ctx.db.selectFrom('products').select(PRODUCT_COLUMNS).where('id', '=', input.productId).executeTakeFirst(),
      ctx.db.selectFrom('mockup_templates').select(TEMPLATE_COLUMNS).where('id', '=', input.templateId).executeTakeFirst(),
    ]).then(([product, template]) => [assertFound(product, 'Product'), assertFound(template, 'Mockup template')] as const);

    const sides: { side: MockupSide; position: ArtPosition }[] = [];
    if (input.front) sides.push({ side: 'front', position: normalizePosition(input.front) });
    if (input.back) sides.push({ side: 'back', position: normalizePosition(input.back) });
    const chosenExists = sides.some(({ side }) => side === input.defaultSide) || (input.defaultSide === 'back' && product.back_mockup_url);
    if (!chosenExists) throw badRequest(DEFAULT_SIDE_MISSING);

    const { storage } = ctx;
    const rendered: Partial<Record<MockupSide, string>> = {};
    try {
      // Everything is read and checked before anything is written.
      const sources = await Promise.all(
        sides.map(async ({ side, position }) => {
          const artUrl = side === 'front' ? product.front_art_url : product.back_art_url;
          if (!artUrl) throw badRequest(missingArtMessage(side));
          const [templateBytes, artBytes] = await Promise.all([
            readStoredImage(storage, side === 'front' ? template.front_template_url : template.back_template_url, `${side} template`),
            readStoredImage(storage, artUrl, `${side} artwork`),
          ]);
          const dpi = await placementDpi(templateBytes, artBytes, position);
          if (dpiLevel(dpi) === 'refuse') throw badRequest(lowDpiMessage(side, dpi));
          return { side, position, templateBytes, artBytes };
        }),
      );
      for (const { side, position, templateBytes, artBytes } of sources) {
        const png = await renderMockup(templateBytes, artBytes, position);
        // The slug names the file for people; cut, so that a long one (up to 200) still makes a valid key.
        const key = `${product.slug.slice(0, MOCKUP_KEY_SLUG_LENGTH)}-${side}-${randomUUID()}.png`;
        const url = (await storage.put(MOCKUP_BUCKET, key, png, 'image/png')).url;
        rendered[side] = url;
        // The print file stays for printing; shoppers see its copies.
        await makeDisplayCopies(ctx.db, storage, url);
      }

      const frontUrl = rendered.front ?? product.front_mockup_url;
      const backUrl = rendered.back ?? product.back_mockup_url;
      // One UPDATE: the four columns change together or not at all.
      const saved = await ctx.db
        .updateTable('products')
        .set({
          front_mockup_url: frontUrl,
          back_mockup_url: backUrl,
          default_mockup_side: input.defaultSide,
          image_url: input.defaultSide === 'front' ? frontUrl : backUrl,
          updated_at: new Date(),
        })
        .where('id', '=', product.id)
        .returning(PRODUCT_COLUMNS)
        .executeTakeFirstOrThrow();
      const colourSides = sources.map(({ side, position, templateBytes, artBytes }) => ({
        side,
        position,
        template: templateBytes,
        art: artBytes,
      }));
      const warnings = await contrastWarnings(ctx.db, product.id, colourSides);
      ctx.background.run(
        () => ctx.colourRenders.render(ctx.db, storage, product, colourSides),
        ctx.answerSent(),
        ctx.log,
        'colour mockups',
      );
      return { ...saved, warnings };
    } catch (error) {
      // Nothing points at the files of a failed save (the product was deleted meanwhile, a write failed).
      for (const url of Object.values(rendered)) {
        await deleteStoredImage(ctx.db, storage, url).catch((cleanup: unknown) =>
          ctx.log.warn({ err: cleanup, url }, 'could not delete the files of a failed mockup save'),
        );
      }
      if (error instanceof MockupSourceError) throw badRequest(error.message);
      throw error;
    }
  }),
});
