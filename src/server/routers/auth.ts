import { TRPCError } from '@trpc/server';
import { sql } from 'kysely';
import { EMAIL_CONFIRMATION_TTL_MS, PASSWORD_RESET_TTL_MS } from '../../shared/constants';
import {
  CHOOSE_PASSWORD_TO_CONFIRM,
  confirmEmailInput,
  INVALID_CONFIRMATION_LINK,
  INVALID_CREDENTIALS,
  INVALID_EXPIRED_RESET_LINK,
  passwordResetRequestInput,
  resetPasswordInput,
  signInInput,
  signUpInput,
  TOO_MANY_ACCOUNT_EMAILS,
  verifyResetTokenInput,
} from '../../shared/schemas/auth';
import { resetLinkDue, spendAccountEmail } from '../auth/account-emails';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../auth/password';
import { createSession, invalidateSession, invalidateUserSessions } from '../auth/session';
import { consumeAuthToken, createAuthToken, madeForBrowser, peekAuthToken, revokeAuthTokens } from '../auth/tokens';
import type { Db } from '../db/database';
import { attachGuestOrders } from '../orders/guests';
import { isUniqueViolation } from '../db/errors';
import { enqueueEmail } from '../email/queue';
import { emailConfirmationEmail, existingAccountEmail, passwordResetEmail } from '../email/templates';
import { customerProcedure, publicProcedure, rateLimited, router, type Context } from '../trpc/init';

export interface Me {
  id: string;
  email: string;
  isAdmin: boolean;
  emailConfirmed: boolean;
}

async function loadMe(db: Db, userId: string): Promise<Me | null> {
  const row = await db
    .selectFrom('users')
    .leftJoin('customers', 'customers.id', 'users.id')
    .select(['users.id', 'users.email', 'users.email_confirmed_at', 'customers.is_admin'])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  return { id: row.id, email: row.email, isAdmin: row.is_admin === true, emailConfirmed: row.email_confirmed_at !== null };
}

const findUserByEmail = (db: Db, email: string) =>
  db
    .selectFrom('users')
    .select(['id', 'email', 'password_hash', 'email_confirmed_at'])
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();

/** A fresh session for every sign-in, so a session fixed before sign-in is worthless after it. */
async function startSession(ctx: Context, userId: string): Promise<Me> {
  if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
  await ctx.db.updateTable('users').set({ last_sign_in_at: new Date() }).where('id', '=', userId).execute();
  const { token, expiresAt } = await createSession(ctx.db, userId, ctx.config.sessionDays);
  ctx.setSessionCookie(token, expiresAt);
  const me = await loadMe(ctx.db, userId);
  if (!me) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR' });
  // Orders placed as a guest with this (confirmed) address join the account's history now.
  await attachGuestOrders(ctx.db, me);
  return me;
}

/**
 * A new address gets its account and a confirmation link tied to the signing-up browser; a known
 * one an email saying it has an account. Both links lead back to `returnTo`, a page of this store
 * (the checkout, a plan's join page, a guest order), once the owner has confirmed or signed in.
 */
export async function completeSignUp(
  ctx: Context,
  email: string,
  passwordHash: string,
  browserSecret: string,
  returnTo: string | undefined,
): Promise<void> {
  if (!(await findUserByEmail(ctx.db, email))) {
    try {
      await createAccount(ctx, email, passwordHash, browserSecret, returnTo);
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Another sign-up for this address created the account first: this one is for a known address now.
      ctx.log.warn({ err: error }, 'sign-up raced another for the same address');
    }
  }
  await emailExistingAccount(ctx, email, returnTo);
}

async function createAccount(
  ctx: Context,
  email: string,
  passwordHash: string,
  browserSecret: string,
  returnTo: string | undefined,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const user = await trx.insertInto('users').values({ email, password_hash: passwordHash }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('customers').values({ id: user.id, email }).execute();
    const token = await createAuthToken(trx, user.id, 'email_confirmation', EMAIL_CONFIRMATION_TTL_MS, browserSecret);
    await enqueueEmail(trx, emailConfirmationEmail(ctx.config, email, token, returnTo), ctx.config.emailMaxRetries);
  });
}

/**
 * Tells a known address someone signed up with it. An account not confirmed yet gets a reset link,
 * whose password the inbox's owner chooses (resetPassword confirms the address and signs everyone
 * out): the account may have been made by someone who does not own the address, and this sign-up
 * too, so neither one's password may come with the link.
 */
async function emailExistingAccount(ctx: Context, email: string, returnTo: string | undefined): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email);
    // Deleted in the meantime: there is no one to tell.
    if (!user) return;
    if (!(await spendAccountEmail(trx, user.id, 'anyone', ctx.log, 'existing-account note'))) return;
    const passwordToken = user.email_confirmed_at ? null : await createAuthToken(trx, user.id, 'password_reset', PASSWORD_RESET_TTL_MS);
    await enqueueEmail(trx, existingAccountEmail(ctx.config, user.email, passwordToken, returnTo), ctx.config.emailMaxRetries);
  });
}

/** What a link from one of our emails opens: those uses share one rate limit. */
const emailLinkProcedure = publicProcedure.use(rateLimited('emailLink'));

export const authRouter = router({
  me: publicProcedure.query(({ ctx }) => (ctx.session ? loadMe(ctx.db, ctx.session.user.id) : null)),

  /**
   * Same answer, in the same time, whether or not the address has an account, and no session: the
   * password is hashed here either way (so the argon2 queue bounds a flood), the browser gets its
   * sign-up cookie either way, the rest happens once the answer is sent, and what follows reaches
   * only the inbox (completeSignUp).
   */
  signUp: publicProcedure
    .use(rateLimited('signUp'))
    .input(signUpInput)
    .mutation(async ({ ctx, input }) => {
      const passwordHash = await hashPassword(input.password);
      const browserSecret = ctx.markSignUpBrowser();
      ctx.background.run(
        () => completeSignUp(ctx, input.email, passwordHash, browserSecret, input.returnTo),
        ctx.answerSent(),
        ctx.log,
        'sign-up',
      );
      return { ok: true as const };
    }),

  signIn: publicProcedure
    .use(rateLimited('signIn'))
    .input(signInInput)
    .mutation(async ({ ctx, input }) => {
      const user = await findUserByEmail(ctx.db, input.email);
      const valid = user ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDecoy(input.password);
      if (!user || !valid) throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_CREDENTIALS });
      return startSession(ctx, user.id);
    }),

  signOut: publicProcedure.use(rateLimited('session')).mutation(async ({ ctx }) => {
    if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
    ctx.clearSessionCookie();
    return { ok: true as const };
  }),

  /**
   * Same answer, in the same time, whether or not the address has an account, so it cannot be used
   * to find accounts: the lookup and the email start once the answer is sent. A link still live is
   * not sent again (resetLinkDue).
   */
  requestPasswordReset: publicProcedure
    .use(rateLimited('passwordReset'))
    .input(passwordResetRequestInput)
    .mutation(({ ctx, input }) => {
      ctx.background.run(
        async () => {
          const user = await findUserByEmail(ctx.db, input.email);
          if (!user) return;
          await ctx.db.transaction().execute(async (trx) => {
            if (!(await resetLinkDue(trx, user.id, ctx.log))) return;
            const token = await createAuthToken(trx, user.id, 'password_reset', PASSWORD_RESET_TTL_MS);
            await enqueueEmail(trx, passwordResetEmail(ctx.config, user.email, token), ctx.config.emailMaxRetries);
          });
        },
        ctx.answerSent(),
        ctx.log,
        'password reset request',
      );
      return { ok: true as const };
    }),

  verifyResetToken: emailLinkProcedure.input(verifyResetTokenInput).query(async ({ ctx, input }) => {
    if (!(await peekAuthToken(ctx.db, input.token, 'password_reset'))) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_EXPIRED_RESET_LINK });
    }
    return { valid: true as const };
  }),

  /**
   * Sets a new password from a reset link and ends every session of that user. The link is checked
   * before the (costly) hash, so junk links cost the server nothing but a lookup.
   */
  resetPassword: emailLinkProcedure.input(resetPasswordInput).mutation(async ({ ctx, input }) => {
    if (!(await peekAuthToken(ctx.db, input.token, 'password_reset'))) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_EXPIRED_RESET_LINK });
    }
    const passwordHash = await hashPassword(input.password);
    await ctx.db.transaction().execute(async (trx) => {
      const userId = (await consumeAuthToken(trx, input.token, 'password_reset'))?.userId;
      if (!userId) throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_EXPIRED_RESET_LINK });
      await trx
        .updateTable('users')
        .set({
          password_hash: passwordHash,
          // The reset link reached this inbox, which proves the address.
          email_confirmed_at: sql`coalesce(email_confirmed_at, now())`,
          updated_at: new Date(),
        })
        .where('id', '=', userId)
        .execute();
      await invalidateUserSessions(trx, userId);
      await revokeAuthTokens(trx, userId, 'password_reset', 'email_confirmation');
    });
    ctx.clearSessionCookie();
    return { ok: true as const };
  }),

  /**
   * A fresh confirmation link for the signed-in user, when the first one was lost or has expired,
   * tied to this browser: who asks here knows the password.
   */
  resendConfirmation: customerProcedure.use(rateLimited('signUp')).mutation(async ({ ctx }) => {
    const user = await ctx.db
      .selectFrom('users')
      .select(['email', 'email_confirmed_at'])
      .where('id', '=', ctx.session.user.id)
      .executeTakeFirstOrThrow();
    if (user.email_confirmed_at) return { sent: false as const };
    const browserSecret = ctx.markSignUpBrowser();
    await ctx.db.transaction().execute(async (trx) => {
      if (!(await spendAccountEmail(trx, ctx.session.user.id, 'own', ctx.log, 'new confirmation link'))) {
        throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_ACCOUNT_EMAILS });
      }
      const token = await createAuthToken(trx, ctx.session.user.id, 'email_confirmation', EMAIL_CONFIRMATION_TTL_MS, browserSecret);
      await enqueueEmail(trx, emailConfirmationEmail(ctx.config, user.email, token), ctx.config.emailMaxRetries);
    });
    return { sent: true as const };
  }),

  /**
   * The address a confirmation link is for, shown before anything happens: opening a link confirms
   * nothing, so a link someone else sent cannot sign this browser into their account unnoticed.
   * `choosePassword`: the address is not confirmed yet and the link was not made for this browser,
   * so confirming here takes a password of the confirmer's own (confirmEmail).
   */
  confirmationFor: emailLinkProcedure.input(confirmEmailInput.pick({ token: true })).query(async ({ ctx, input }) => {
    const link = await peekAuthToken(ctx.db, input.token, 'email_confirmation');
    const user = link
      ? await ctx.db.selectFrom('users').select(['email', 'email_confirmed_at']).where('id', '=', link.userId).executeTakeFirst()
      : undefined;
    if (!link || !user) throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_CONFIRMATION_LINK });
    return { email: user.email, choosePassword: !user.email_confirmed_at && !madeForBrowser(link, ctx.signUpSecret) };
  }),

  /**
   * Confirms the address and signs its owner in: the link reached this inbox, which proves who they
   * are. Until then anyone could have made the account with this address, with a password of their
   * choosing (docs/adr/0022-confirmation-tied-to-the-sign-up-browser.md):
   *
   * - in the browser that signed up (the link is tied to its sign-up cookie), the one who chose the
   *   password holds the inbox: one press confirms, and the password stays;
   * - anywhere else the password may be a stranger's, so the confirmer chooses one (`password`),
   *   which replaces it.
   *
   * A first confirmation ends every session, and every other confirmation link; the reset links
   * mailed to the address stay: they too reach only its inbox.
   */
  confirmEmail: emailLinkProcedure.input(confirmEmailInput).mutation(async ({ ctx, input }) => {
    const link = await peekAuthToken(ctx.db, input.token, 'email_confirmation');
    if (!link) throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_CONFIRMATION_LINK });
    const confirmed = await ctx.db.selectFrom('users').select('email_confirmed_at').where('id', '=', link.userId).executeTakeFirst();
    if (input.password === undefined && !confirmed?.email_confirmed_at && !madeForBrowser(link, ctx.signUpSecret)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: CHOOSE_PASSWORD_TO_CONFIRM });
    }
    // Hashed once the link is known to be live, as resetPassword does, and outside the transaction.
    const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
    const userId = await ctx.db.transaction().execute(async (trx) => {
      const used = await consumeAuthToken(trx, input.token, 'email_confirmation');
      if (!used) return null;
      const firstConfirmation = await trx
        .updateTable('users')
        .set({ email_confirmed_at: new Date(), updated_at: new Date() })
        .where('id', '=', used.userId)
        .where('email_confirmed_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (passwordHash !== undefined) {
        await trx.updateTable('users').set({ password_hash: passwordHash, updated_at: new Date() }).where('id', '=', used.userId).execute();
      }
      if (firstConfirmation || passwordHash !== undefined) await invalidateUserSessions(trx, used.userId);
      // Confirmed: the other links mailed for it sign no one in any more.
      await revokeAuthTokens(trx, used.userId, 'email_confirmation');
      return used.userId;
    });
    if (!userId) throw new TRPCError({ code: 'BAD_REQUEST', message: INVALID_CONFIRMATION_LINK });
    return startSession(ctx, userId);
  }),
});
