import { createFileRoute } from '@tanstack/react-router';
import { ReturnsPage } from '../components/info/ReturnsPage';
import { pageHead } from '../seo/page-head';

export const Route = createFileRoute('/returns')({
  head: () =>
    pageHead({
      title: 'Returns & Exchanges',
      description:
        "Every tee is printed to order, so we can't restock returns, but if something isn't right with your order, we'll make it right.",
      path: '/returns',
    }),
  component: ReturnsPage,
});
