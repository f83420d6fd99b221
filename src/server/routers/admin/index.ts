import { router } from '../../trpc/init';
import { adminContactRouter } from './contact';
import { adminCustomersRouter } from './customers';
import { adminDashboardRouter } from './dashboard';
import { adminProductsRouter } from './products';

// Everything under admin.* is an adminProcedure; the authorization test walks this tree.
export const adminRouter = router({
  dashboard: adminDashboardRouter,
  products: adminProductsRouter,
  contact: adminContactRouter,
  customers: adminCustomersRouter,
});
