import { z } from 'zod';
import { changedElsewhereInForm, requiredLine, requiredText, slugText } from './fields';

export { INVALID_SLUG } from './fields';
import { isImageUrl } from './urls';

// Category form and procedures (docs/PRODUCT.md § Validation: name, slug, description and image URL all required).

export const INVALID_URL = 'Please enter a valid URL';
export const CATEGORY_SAVE_FAILED = 'Failed to save category. Please try again.';
export const CATEGORY_SLUG_TAKEN = 'A category with this slug already exists';
export const CATEGORY_NOT_FOUND = 'Category not found';
export const CATEGORY_CHANGED_ELSEWHERE = changedElsewhereInForm('category');
/** Storage bucket of uploaded category images. */
export const CATEGORY_BUCKET = 'categories';

export const imageUrlField = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .trim()
    .min(1, { error: requiredMessage, abort: true })
    .max(2000, { error: INVALID_URL })
    .refine(isImageUrl, { error: INVALID_URL });

export const categoryInput = z.object({
  name: requiredLine('Name', 100),
  slug: slugText(100),
  description: requiredText('Description', 2000),
  image_url: imageUrlField('Image URL is required'),
});
export type CategoryInput = z.input<typeof categoryInput>;

export const categoryIdInput = z.object({ id: z.uuid({ error: CATEGORY_NOT_FOUND }) });

/** With the category's updated_at as the form loaded it: a category changed since is not written over. */
export const categoryUpdateInput = categoryInput.extend({ ...categoryIdInput.shape, updatedAt: z.string().min(1).max(64) });

export const categoryMoveInput = categoryIdInput.extend({ direction: z.enum(['up', 'down']) });

export const categorySetActiveInput = categoryIdInput.extend({ is_active: z.boolean() });

/** Why a category that still has products cannot be deleted (the products' foreign key is ON DELETE RESTRICT). */
export function categoryInUseMessage(name: string, productCount: number): string {
  const products = productCount === 1 ? '1 product' : `${productCount} products`;
  return `"${name}" still has ${products}. Move them to another category or delete them first, or deactivate the category instead.`;
}
