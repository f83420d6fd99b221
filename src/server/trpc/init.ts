import type { BackgroundWork } from '../background';
import type { ColourRenders } from '../mockups/colour-renders';
import type { StoreBackups } from '../backup/schedule';
import { initTRPC, TRPCError } from '@trpc/server';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import type { Config } from '../config';
import type { Db } from '../db/database';
import type { SessionUser } from '../auth/session';
import { isAdmin } from '../auth/admin';
import { spendAccountEmail } from '../auth/account-emails';
import { clearSessionCookie, markSignUpBrowser, readSession, setSessionCookie, signUpSecretOf } from '../auth/cookies';
import { isDataException } from '../db/errors';
import type { CatalogCache } from '../catalog-cache';
import type { EventHub } from '../events/events';
import type { FulfilmentProvider } from '../fulfilment/provider';
import type { PaymentProvider } from '../payments/provider';
import { StorageUnavailableError, type Storage } from '../storage/storage';
import { STORAGE_UNAVAILABLE } from '../../shared/schemas/admin-uploads';
import { TOO_MANY_ACCOUNT_EMAILS } from '../../shared/schemas/auth';
import { FieldErrors } from './errors';
import type { Clock } from '../subscriptions/dates';

/** What every procedure receives: the app's services plus who is calling (see createContextInner). */
export interface Context extends ContextServices, RequestScope {}

/** The app-wide services a procedure uses. */
export interface ContextServices {
  config: Config;
  db: Db;
  events: EventHub;
  /** The storefront's catalog reads, kept until the catalog changes. */
  catalog: CatalogCache;
  /** Where uploaded and generated files live (the same one the /storage route serves). */
  storage: Storage;
  /** Who takes the money: payment by hand, or Stripe when configured. */
  payments: PaymentProvider;
  /** Who prints and ships paid orders: the shop itself, or Printful when configured. */
  fulfilment: FulfilmentProvider;
  /** Today, for the subscription calendar; tests pass a clock they move. */
  clock: Clock;
  /** Work started by a request that its answer does not wait for. */
  background: BackgroundWork;
  /** Colour mockups rendering after a mockup save, and how far they have got. */
  colourRenders: ColourRenders;
  /** The embedded database's own backups; null on a PostgreSQL server, whose operator backs it up. */
  backups: StoreBackups | null;
}

/** What belongs to one request: the caller, their address, the logger and the response's cookies. */
export interface RequestScope {
  session: { id: string; user: SessionUser } | null;
  /** The client's address, for rate limits and logs. */
  ip: string;
  log: FastifyBaseLogger;
  setSessionCookie: (token: string, expiresAt: Date) => void;
  clearSessionCookie: () => void;
  /** The sign-up secret this browser holds (its sign-up cookie), if any: see auth/cookies.ts. */
  signUpSecret: string | undefined;
  /** Gives this browser a sign-up secret (or keeps the one it has) and returns it, to tie a new confirmation link to it. */
  markSignUpBrowser: () => string;
  /**
   * Resolves once this request's answer has gone out (at once when there is no HTTP answer): work
   * whose cost must not show in how long the answer takes starts then, not before.
   */
  answerSent: () => Promise<void>;
  /** Throws TOO_MANY_REQUESTS when this client has used up its attempts at the action. */
  rateLimit: (action: RateLimitedAction) => Promise<void>;
}

/**
 * Abuse-prone actions, each with its own per-IP budget: signing in (and changing a password),
 * signing up, asking for a reset link, using an emailed link, ending a session, contact messages,
 * placing an order or joining a plan, and changing a membership (each of these last emails the
 * account's address, which an unconfirmed account may not own).
 */
export const RATE_LIMITED_ACTIONS = [
  'signIn',
  'signUp',
  'passwordReset',
  'emailLink',
  'session',
  'contact',
  'order',
  'membership',
] as const;
export type RateLimitedAction = (typeof RATE_LIMITED_ACTIONS)[number];

/**
 * The context without HTTP: tests call procedures through createCaller with it, and page renders
 * through createPageRenderContext; the HTTP adapter builds the same one from the request
 * (createContextFactory).
 */
export function createContextInner(services: ContextServices, scope: RequestScope): Context {
  return { ...services, ...scope };
}

/** The tRPC adapter's createContext: reads the session cookie, then builds the inner context. */
export function createContextFactory(
  services: ContextServices,
  rateLimit: (req: FastifyRequest, action: RateLimitedAction) => Promise<void>,
) {
  // The request and reply of an API call (http/trpc.ts).
  return async ({ req, res }: { req: FastifyRequest; res: FastifyReply }): Promise<Context> =>
    createContextInner(services, {
      session: await readSession(services.config, services.db, req, res),
      ip: req.ip,
      log: req.log,
      setSessionCookie: (token, expiresAt) => setSessionCookie(services.config, res, token, expiresAt),
      clearSessionCookie: () => clearSessionCookie(services.config, res),
      signUpSecret: signUpSecretOf(services.config, req),
      markSignUpBrowser: () => markSignUpBrowser(services.config, req, res),
      answerSent: () => answerSent(res),
      rateLimit: (action) => rateLimit(req, action),
    });
}

/** Resolves when the response is finished, or its connection closed before that. */
const answerSent = (res: FastifyReply) =>
  new Promise<void>((resolve) => {
    if (res.raw.writableFinished || res.raw.destroyed) resolve();
    else res.raw.once('close', () => resolve());
  });

/**
 * The context of a page rendered on the server: nobody signed in, whatever cookie came with the
 * request, since the page is kept and sent to every visitor (docs/adr/0026-storefront-pages-kept-with-the-catalog.md).
 * The visitor's own parts (who is signed in, their cart) are read by their browser. Nothing a
 * render calls signs anyone in or out.
 */
export function createPageRenderContext(
  services: ContextServices,
  req: FastifyRequest,
  rateLimit: (req: FastifyRequest, action: RateLimitedAction) => Promise<void>,
): Context {
  const refuse = () => {
    throw new Error('A page rendered on the server cannot sign anyone in or out, or up');
  };
  return createContextInner(services, {
    session: null,
    ip: req.ip,
    log: req.log,
    setSessionCookie: refuse,
    clearSessionCookie: refuse,
    signUpSecret: undefined,
    markSignUpBrowser: refuse,
    // A render's answer is the kept page, sent later or never: work waiting on it waits on nothing.
    answerSent: () => Promise.resolve(),
    rateLimit: (action) => rateLimit(req, action),
  });
}

/** Zod's messages by field, keyed by the dotted path of the input ("shipping_address.zip"), as forms name their fields. */
function fieldErrorsOf(error: ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    if (key) (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/** Who may call a procedure; set by the procedure kinds below and read by the authorization test. */
export interface ProcedureMeta {
  access: 'public' | 'customer' | 'admin';
  /**
   * A public read of the catalog whose answer depends on its input alone, so the whole HTTP
   * answer can be kept with the catalog cache (http/trpc.ts) and dropped with it.
   */
  catalogRead?: boolean;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    defaultMeta: { access: 'public' },
    sse: { ping: { enabled: true, intervalMs: 15_000 }, client: { reconnectAfterInactivityMs: 30_000 } },
    errorFormatter({ shape, error }) {
      const zodError = error.cause instanceof ZodError ? error.cause : null;
      // Internal failures never show their details to the client.
      const message =
        error.code === 'INTERNAL_SERVER_ERROR'
          ? 'An unexpected error occurred'
          : zodError
            ? (zodError.issues[0]?.message ?? 'Invalid input')
            : shape.message;
      return {
        ...shape,
        message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
          fieldErrors: zodError ? fieldErrorsOf(zodError) : error.cause instanceof FieldErrors ? error.cause.fields : null,
        },
      };
    },
  });

export const ADMIN_REQUIRED = 'Admin access required';

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

// Every procedure kind starts here: input the database refuses as data is a 400, never a 500, and
// a file storage out of reach is a 503 that says so.
const baseProcedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDataException(result.error.cause)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_INPUT, cause: result.error.cause });
  }
  if (!result.ok && result.error.cause instanceof StorageUnavailableError) {
    throw new TRPCError({ code: 'SERVICE_UNAVAILABLE', message: STORAGE_UNAVAILABLE, cause: result.error.cause });
  }
  return result;
});

const INVALID_INPUT = 'Invalid input: a value has characters or a format that cannot be stored';

export const publicProcedure = baseProcedure.meta({ access: 'public' });

/** A public procedure that reads the catalog through ctx.catalog and nothing of the caller's. */
export const catalogReadProcedure = publicProcedure.meta({ access: 'public', catalogRead: true });

/** A signed-in user; anyone else gets UNAUTHORIZED. */
export const customerProcedure = baseProcedure.meta({ access: 'customer' }).use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Not authenticated' });
  return next({ ctx: { ...ctx, session: ctx.session } });
});

/**
 * A signed-in user whose customers.is_admin is true, read fresh on every call; else FORBIDDEN.
 * After an admin write this process drops its cached catalog at once: the event every process
 * gets arrives a moment later, and the admin's next look at the store must already show the change.
 */
export const adminProcedure = customerProcedure.meta({ access: 'admin' }).use(async ({ ctx, next, type }) => {
  if (!(await isAdmin(ctx.db, ctx.session.user.id))) throw new TRPCError({ code: 'FORBIDDEN', message: ADMIN_REQUIRED });
  const result = await next();
  // A refused write (bad input, say) changed nothing: the cached answers still hold.
  if (type === 'mutation' && result.ok) ctx.catalog.invalidate();
  return result;
});

/**
 * For a call that emails the caller's own address (an order, a join, a membership change): an
 * account whose address is not confirmed yet spends one of its own hour's emails first, and over
 * that budget the call is refused. Made with someone else's address, such an account could
 * otherwise mail that inbox from as many client addresses as its maker has. Only the account's
 * sessions spend that budget, so strangers signing up with the address never refuse its owner.
 * Confirmed accounts are not counted: their address is their own.
 */
export const emailsTheCaller = t.middleware(async ({ ctx, next, path }) => {
  const user = ctx.session?.user;
  if (user && !user.emailConfirmed && !(await spendAccountEmail(ctx.db, user.id, 'own', ctx.log, `${path} by an unconfirmed account`))) {
    throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_ACCOUNT_EMAILS });
  }
  return next();
});

/** Applies the per-IP limit of an abuse-prone action before the procedure runs. */
export const rateLimited = (action: RateLimitedAction) =>
  t.middleware(async ({ ctx, next }) => {
    await ctx.rateLimit(action);
    return next();
  });
