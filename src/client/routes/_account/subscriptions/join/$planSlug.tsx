import { createFileRoute } from '@tanstack/react-router';
import { JoinPage } from '../../../../components/subscriptions/JoinPage';

export const Route = createFileRoute('/_account/subscriptions/join/$planSlug')({
  component: JoinPage,
});
