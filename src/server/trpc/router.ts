import { accountRouter } from '../routers/account';
import { adminRouter } from '../routers/admin';
import { authRouter } from '../routers/auth';
import { catalogRouter } from '../routers/catalog';
import { checkoutRouter } from '../routers/checkout';
import { contactRouter } from '../routers/contact';
import { liveRouter } from '../routers/live';
import { ordersRouter } from '../routers/orders';
import { subscriptionsRouter } from '../routers/subscriptions';
import { createCallerFactory, router } from './init';

export const appRouter = router({
  auth: authRouter,
  catalog: catalogRouter,
  account: accountRouter,
  checkout: checkoutRouter,
  orders: ordersRouter,
  contact: contactRouter,
  live: liveRouter,
  subscriptions: subscriptionsRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
