import { router } from '../../trpc/init';
import { adminCategoriesRouter } from './categories';
import { adminContactRouter } from './contact';
import { adminCustomersRouter } from './customers';
import { adminDashboardRouter } from './dashboard';
import { adminPlansRouter } from './plans';
import { adminProductsRouter } from './products';
import { adminSettingsRouter } from './settings';

// Everything under admin.* is an adminProcedure; the authorization test walks this tree.
export const adminRouter = router({
  dashboard: adminDashboardRouter,
  products: adminProductsRouter,
  contact: adminContactRouter,
  customers: adminCustomersRouter,
  categories: adminCategoriesRouter,
  plans: adminPlansRouter,
  settings: adminSettingsRouter,
});
