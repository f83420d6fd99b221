import { router } from '../../trpc/init';
import { adminAnalyticsRouter } from './analytics';
import { adminCategoriesRouter } from './categories';
import { adminContactRouter } from './contact';
import { adminMockupsRouter } from './mockups';
import { adminArtworkRouter } from './artwork';
import { adminBackupsRouter } from './backups';
import { adminPlansRouter } from './plans';
import { adminSettingsRouter } from './settings';
import { adminCustomersRouter } from './customers';
import { adminDiscountsRouter } from './discounts';
import { adminDashboardRouter } from './dashboard';
import { adminEmailsRouter } from './emails';
import { adminOrdersRouter } from './orders';
import { adminProductsRouter } from './products';
import { adminSubscribersRouter } from './subscribers';

// Everything under admin.* is an adminProcedure; the authorization test walks this tree.
export const adminRouter = router({
  dashboard: adminDashboardRouter,
  analytics: adminAnalyticsRouter,
  products: adminProductsRouter,
  contact: adminContactRouter,
  mockups: adminMockupsRouter,
  artwork: adminArtworkRouter,
  categories: adminCategoriesRouter,
  plans: adminPlansRouter,
  subscribers: adminSubscribersRouter,
  settings: adminSettingsRouter,
  backups: adminBackupsRouter,
  customers: adminCustomersRouter,
  orders: adminOrdersRouter,
  discounts: adminDiscountsRouter,
  emails: adminEmailsRouter,
});
