import { changePasswordInput, deleteAccountInput, PASSWORD_INCORRECT, profileInput } from '../../shared/schemas/account';
import { hashPassword, verifyPassword } from '../auth/password';
import { createSession, invalidateUserSessions } from '../auth/session';
import { revokeAuthTokens } from '../auth/tokens';
import { eraseAccount, erasureServices } from '../privacy/erase';
import { exportPersonalData } from '../privacy/export';
import { fieldError } from '../trpc/errors';
import { customerProcedure, rateLimited, router } from '../trpc/init';

const CURRENT_PASSWORD_WRONG = 'Current password is incorrect';

export const accountRouter = router({
  /** The signed-in user's customers row (docs/PRODUCT.md § Reads and writes "Read customers by id"); null if it has none. */
  profile: customerProcedure.query(async ({ ctx }) => {
    const customer = await ctx.db
      .selectFrom('customers')
      .select(['id', 'email', 'first_name', 'last_name', 'phone', 'shipping_address', 'billing_address', 'updated_at'])
      .where('id', '=', ctx.session.user.id)
      .executeTakeFirst();
    return customer ?? null;
  }),

  /** Upserts the user's own customers row; never touches is_admin. */
  saveProfile: customerProcedure.input(profileInput).mutation(async ({ ctx, input }) => {
    const values = {
      first_name: input.first_name,
      last_name: input.last_name,
      phone: input.phone,
      shipping_address: JSON.stringify(input.shipping_address),
      billing_address: JSON.stringify(input.billing_address),
      updated_at: new Date(),
    };
    return ctx.db
      .insertInto('customers')
      .values({ id: ctx.session.user.id, email: ctx.session.user.email, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .returning(['id', 'email', 'first_name', 'last_name', 'phone', 'shipping_address', 'billing_address', 'updated_at'])
      .executeTakeFirstOrThrow();
  }),

  /** Changes the password after checking the current one; every other session of the user and every reset link end. */
  changePassword: customerProcedure
    .use(rateLimited('signIn'))
    .input(changePasswordInput)
    .mutation(async ({ ctx, input }) => {
      const user = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', ctx.session.user.id).executeTakeFirstOrThrow();
      if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
        throw fieldError('BAD_REQUEST', 'currentPassword', CURRENT_PASSWORD_WRONG);
      }
      const passwordHash = await hashPassword(input.password);
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: new Date() })
          .where('id', '=', ctx.session.user.id)
          .execute();
        await invalidateUserSessions(trx, ctx.session.user.id);
        // A link mailed before the change (a reset, a confirmation) must not undo it.
        await revokeAuthTokens(trx, ctx.session.user.id, 'password_reset', 'email_confirmation');
      });
      // This browser stays signed in, on a new session.
      const { token, expiresAt } = await createSession(ctx.db, ctx.session.user.id, ctx.config.sessionDays);
      ctx.setSessionCookie(token, expiresAt);
      return { ok: true as const };
    }),

  /** Download my data: everything the store holds of the signed-in person, as one JSON document. */
  exportData: customerProcedure.query(({ ctx }) => exportPersonalData(ctx.db, ctx.session.user.id, ctx.clock.now())),

  /**
   * Delete my account, after the password is given again: memberships end (at Stripe too), the
   * person's data is erased and every session of theirs ends, this one included.
   */
  deleteAccount: customerProcedure
    .use(rateLimited('signIn'))
    .input(deleteAccountInput)
    .mutation(async ({ ctx, input }) => {
      const user = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', ctx.session.user.id).executeTakeFirstOrThrow();
      if (!(await verifyPassword(user.password_hash, input.password))) throw fieldError('BAD_REQUEST', 'password', PASSWORD_INCORRECT);
      await eraseAccount(erasureServices(ctx), ctx.session.user.id);
      ctx.clearSessionCookie();
      return { ok: true as const };
    }),
});
