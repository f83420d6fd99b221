import { createFileRoute } from '@tanstack/react-router';
import { ShippingPage } from '../components/info/ShippingPage';
import { pageHead } from '../seo/page-head';

export const Route = createFileRoute('/shipping')({
  head: () =>
    pageHead({
      title: 'Shipping Info',
      description: 'Every tee is printed just for you when you order it, then shipped to your door.',
      path: '/shipping',
    }),
  component: ShippingPage,
});
