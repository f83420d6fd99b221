import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../components/account/DashboardPage';
import { requireSignedIn } from '../session/redirect';

export const Route = createFileRoute('/dashboard')({
  beforeLoad: requireSignedIn,
  component: DashboardPage,
});
