import { createFileRoute } from '@tanstack/react-router';
import { ShippingPage } from '../components/info/ShippingPage';

export const Route = createFileRoute('/shipping')({
  component: ShippingPage,
});
