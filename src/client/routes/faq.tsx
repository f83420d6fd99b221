import { createFileRoute } from '@tanstack/react-router';
import { FaqPage } from '../components/info/FaqPage';
import { pageHead } from '../seo/page-head';

export const Route = createFileRoute('/faq')({
  head: () =>
    pageHead({
      title: 'Frequently Asked Questions',
      description: 'Quick answers about our tees, orders, shipping and the subscription club.',
      path: '/faq',
    }),
  component: FaqPage,
});
