import type { QueryClient } from '@tanstack/react-query';
import type { Trpc } from './trpc';

/** What every route's loader and beforeLoad receive as `context`. */
export interface RouterContext {
  queryClient: QueryClient;
  trpc: Trpc;
  /** The store's public origin ("https://shop.example"), for absolute URLs in page heads. */
  origin: string;
}
