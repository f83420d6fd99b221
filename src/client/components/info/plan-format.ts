import { formatUsd } from '../../../shared/money';

/** Public plan prices show as whole dollars (docs/PRODUCT.md § What the store does and Limits): "29.00" -> "$29". */
export function formatPlanPrice(price: string): string {
  return formatUsd(price, 0);
}

/** The public page's interval label (docs/PRODUCT.md § Limits): quarterly reads "3 months", anything else "month". */
export function planIntervalLabel(interval: string): string {
  return interval === 'quarterly' ? '3 months' : 'month';
}

/** category_limit 0 means every category, and that plan carries the 'Most Popular' badge (docs/PRODUCT.md § Limits). */
export const isAllCategoriesPlan = (categoryLimit: number) => categoryLimit === 0;
