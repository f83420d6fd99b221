import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../components/home/HomePage';
import { prefetchQuietly } from '../prefetch';
import { pageHead } from '../seo/page-head';

export const Route = createFileRoute('/')({
  loader: ({ context: { queryClient, trpc } }) =>
    Promise.all([
      prefetchQuietly(queryClient, trpc.catalog.categories.queryOptions()),
      prefetchQuietly(queryClient, trpc.catalog.featuredProducts.queryOptions()),
    ]),
  head: () => pageHead({ path: '/' }),
  component: HomePage,
});
