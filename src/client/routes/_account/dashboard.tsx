import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../components/account/DashboardPage';

export const Route = createFileRoute('/_account/dashboard')({
  component: DashboardPage,
});
