import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { useForm, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { z } from 'zod';
import { emptyAddress, type Address } from '../../../shared/constants';
import { billingMatchesShipping, changePasswordInput, profileInput } from '../../../shared/schemas/account';
import { newPasswordField, PASSWORDS_DO_NOT_MATCH } from '../../../shared/schemas/auth';
import { errorMessage } from '../../session/errors';
import { useTRPC } from '../../trpc';
import { useDocumentTitle } from '../ui/use-document-title';
import { SignedInOnly } from './SignedInOnly';
import { Toast, useToast, type ToastMessage } from './Toast';
import { FormMessage, LoadingBlock, secondaryButton, SubmitButton, TextField } from './ui';

// Texts of SPEC §8, word for word.
const SETTINGS_SAVED = 'Settings saved successfully!';
const SETTINGS_FAILED = 'Failed to save settings. Please try again.';
const PASSWORD_CHANGED = 'Password changed successfully!';
const PASSWORD_FAILED = 'Failed to change password. Please try again.';

type ProfileFormInput = z.input<typeof profileInput>;
type ProfileFormOutput = z.output<typeof profileInput>;

const passwordForm = z
  .object({ currentPassword: changePasswordInput.shape.currentPassword, password: newPasswordField, confirmPassword: z.string() })
  .refine((value) => value.password === value.confirmPassword, { error: PASSWORDS_DO_NOT_MATCH, path: ['confirmPassword'] });

export function SettingsPage() {
  useDocumentTitle('Account Settings');
  const { toast, show, dismiss } = useToast();
  return (
    <SignedInOnly>
      {(me) => (
        <div className="bg-stone-50">
          <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
            <Link to="/dashboard" className="inline-flex items-center gap-1.5 rounded-sm text-sm font-medium text-stone-600 hover:text-stone-900">
              <ArrowLeft className="size-4" aria-hidden="true" />
              My Account
            </Link>
            <h1 className="font-display mt-4 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">Account Settings</h1>
            <p className="mt-2 text-stone-600">
              Keep your details up to date for faster checkout. Fields marked <span className="text-red-700">*</span> are required.
            </p>
            <div className="mt-8 space-y-8">
              <ProfileSection email={me.email} notify={show} />
              <PasswordSection notify={show} />
            </div>
          </div>
          <Toast toast={toast} onDismiss={dismiss} />
        </div>
      )}
    </SignedInOnly>
  );
}

function Card({ title, description, children, labelledBy }: { title: string; description?: string; children: ReactNode; labelledBy: string }) {
  return (
    <section aria-labelledby={labelledBy} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-xs sm:p-8">
      <h2 id={labelledBy} className="font-display text-xl font-bold text-stone-950">
        {title}
      </h2>
      {description && <p className="mt-1 text-sm text-stone-600">{description}</p>}
      <div className="mt-6">{children}</div>
    </section>
  );
}

function ProfileSection({ email, notify }: { email: string; notify: (message: ToastMessage) => void }) {
  const trpc = useTRPC();
  // Read once for the form; a background refetch must not overwrite what the user is typing.
  const profile = useQuery(trpc.account.profile.queryOptions(undefined, { refetchOnWindowFocus: false }));
  if (profile.isPending) return <LoadingBlock label="Loading your settings..." />;
  if (profile.isError) {
    return (
      <div className="space-y-4">
        <FormMessage kind="error">We couldn't load your settings. Please try again.</FormMessage>
        <button type="button" className={secondaryButton} onClick={() => void profile.refetch()}>
          Try Again
        </button>
      </div>
    );
  }
  const saved = profile.data;
  const shipping = { ...emptyAddress(), ...saved?.shipping_address };
  const billing = { ...emptyAddress(), ...saved?.billing_address };
  return (
    <ProfileForm
      email={email}
      notify={notify}
      defaults={{
        first_name: saved?.first_name ?? '',
        last_name: saved?.last_name ?? '',
        phone: saved?.phone ?? '',
        shipping_address: shipping,
        billing_address: billing,
        // SPEC §5: checked when billing and shipping street, city, state and zip match.
        same_as_shipping: billingMatchesShipping(shipping, billing),
      }}
    />
  );
}

function ProfileForm({ email, defaults, notify }: { email: string; defaults: ProfileFormInput; notify: (message: ToastMessage) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const ids = { personal: useId(), shipping: useId(), billing: useId() };
  const form = useForm<ProfileFormInput, unknown, ProfileFormOutput>({ resolver: zodResolver(profileInput), defaultValues: defaults });
  const sameAsShipping = useWatch({ control: form.control, name: 'same_as_shipping' });
  const save = useMutation(trpc.account.saveProfile.mutationOptions());
  const { errors } = form.formState;

  const onValid = async (values: ProfileFormOutput) => {
    try {
      const row = await save.mutateAsync(values);
      queryClient.setQueryData(trpc.account.profile.queryKey(), row);
      notify({ kind: 'success', text: SETTINGS_SAVED });
    } catch {
      notify({ kind: 'error', text: SETTINGS_FAILED });
    }
  };

  return (
    <form noValidate onSubmit={(event) => void form.handleSubmit(onValid)(event)} className="space-y-8">
      <Card title="Personal Details" labelledBy={ids.personal}>
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" required error={errors.first_name?.message} {...form.register('first_name')} />
          <TextField label="Last name" autoComplete="family-name" required error={errors.last_name?.message} {...form.register('last_name')} />
          <TextField label="Phone" type="tel" autoComplete="tel" required error={errors.phone?.message} {...form.register('phone')} />
          <TextField label="Email address" type="email" value={email} readOnly hint="The address you sign in with." />
        </div>
      </Card>

      <Card title="Shipping Address" labelledBy={ids.shipping}>
        <AddressFields
          group="shipping_address"
          labelledBy={ids.shipping}
          autoCompleteSection="shipping"
          register={form.register}
          errors={errors.shipping_address}
          required
        />
      </Card>

      <Card title="Billing Address" labelledBy={ids.billing}>
        <label className="flex w-fit cursor-pointer items-center gap-3 text-sm font-medium text-stone-800">
          <input type="checkbox" className="size-4.5 rounded border-stone-300 accent-accent-600" {...form.register('same_as_shipping')} />
          Same as shipping
        </label>
        {!sameAsShipping && (
          <div className="mt-6">
            <AddressFields
              group="billing_address"
              labelledBy={ids.billing}
              autoCompleteSection="billing"
              register={form.register}
              errors={errors.billing_address}
              required
            />
          </div>
        )}
      </Card>

      <div className="flex justify-end">
        <SubmitButton busy={save.isPending || form.formState.isSubmitting} busyLabel="Saving..." className="w-full sm:w-auto">
          Save Settings
        </SubmitButton>
      </div>
    </form>
  );
}

function AddressFields({
  group,
  labelledBy,
  autoCompleteSection,
  register,
  errors,
  required,
}: {
  group: 'shipping_address' | 'billing_address';
  labelledBy: string;
  autoCompleteSection: 'shipping' | 'billing';
  register: UseFormRegister<ProfileFormInput>;
  errors: FieldErrors<Address> | undefined;
  required: boolean;
}) {
  const auto = (field: string) => `${autoCompleteSection} ${field}`;
  return (
    <div role="group" aria-labelledby={labelledBy} className="grid gap-5 sm:grid-cols-6">
      <TextField
        className="sm:col-span-6"
        label="Street address"
        autoComplete={auto('street-address')}
        required={required}
        error={errors?.street?.message}
        {...register(`${group}.street`)}
      />
      <TextField className="sm:col-span-3" label="City" autoComplete={auto('address-level2')} required={required} error={errors?.city?.message} {...register(`${group}.city`)} />
      <TextField className="sm:col-span-3" label="State" autoComplete={auto('address-level1')} required={required} error={errors?.state?.message} {...register(`${group}.state`)} />
      <TextField className="sm:col-span-3" label="ZIP code" autoComplete={auto('postal-code')} required={required} error={errors?.zip?.message} {...register(`${group}.zip`)} />
      <TextField className="sm:col-span-3" label="Country" autoComplete={auto('country-name')} error={errors?.country?.message} {...register(`${group}.country`)} />
    </div>
  );
}

function PasswordSection({ notify }: { notify: (message: ToastMessage) => void }) {
  const trpc = useTRPC();
  const id = useId();
  const form = useForm({ resolver: zodResolver(passwordForm), defaultValues: { currentPassword: '', password: '', confirmPassword: '' } });
  const change = useMutation(trpc.account.changePassword.mutationOptions());
  const { errors } = form.formState;

  const onValid = async ({ currentPassword, password }: z.output<typeof passwordForm>) => {
    try {
      await change.mutateAsync({ currentPassword, password });
      form.reset();
      notify({ kind: 'success', text: PASSWORD_CHANGED });
    } catch (error) {
      notify({ kind: 'error', text: errorMessage(error, PASSWORD_FAILED) });
    }
  };

  return (
    <Card title="Change Password" description="You stay signed in here; any other devices are signed out." labelledBy={id}>
      <form noValidate onSubmit={(event) => void form.handleSubmit(onValid)(event)} className="grid gap-5 sm:grid-cols-2">
        <TextField
          className="sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.currentPassword?.message}
          {...form.register('currentPassword')}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 6 characters."
          error={errors.password?.message}
          {...form.register('password')}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <div className="flex justify-end sm:col-span-2">
          <SubmitButton busy={change.isPending || form.formState.isSubmitting} busyLabel="Changing..." className="w-full sm:w-auto">
            Change Password
          </SubmitButton>
        </div>
      </form>
    </Card>
  );
}
