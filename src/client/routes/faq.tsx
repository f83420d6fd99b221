import { createFileRoute } from '@tanstack/react-router';
import { FaqPage } from '../components/info/FaqPage';

export const Route = createFileRoute('/faq')({
  component: FaqPage,
});
