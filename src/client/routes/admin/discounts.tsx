import { createFileRoute } from '@tanstack/react-router';
import { DiscountsPage } from '../../components/admin/discounts/DiscountsPage';
import { discountsSearchSchema, listInputOf } from '../../components/admin/discounts/discounts-search';
import { listInAddress } from '../../components/admin/parts/list-in-address';

export const Route = createFileRoute('/admin/discounts')({
  ...listInAddress(discountsSearchSchema, listInputOf, ({ queryClient, trpc }, input) => {
    void queryClient.prefetchQuery(trpc.admin.discounts.list.queryOptions(input));
  }),
  component: DiscountsPage,
});
