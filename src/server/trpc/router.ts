import { accountRouter } from '../routers/account';
import { adminRouter } from '../routers/admin';
import { authRouter } from '../routers/auth';
import { catalogRouter } from '../routers/catalog';
import { createCallerFactory, router } from './init';

export const appRouter = router({
  auth: authRouter,
  catalog: catalogRouter,
  account: accountRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
