import { createFileRoute } from '@tanstack/react-router';
import { ReturnsPage } from '../components/info/ReturnsPage';

export const Route = createFileRoute('/returns')({
  component: ReturnsPage,
});
