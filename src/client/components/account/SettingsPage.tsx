import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { useMutation } from '../../mutations';
import { emptyAddress } from '../../../shared/constants';
import { billingMatchesShipping, changePasswordInput, profileInput } from '../../../shared/schemas/account';
import { newPasswordField, PASSWORDS_DO_NOT_MATCH } from '../../../shared/schemas/auth';
import { errorMessage, showServerErrors } from '../../errors';
import { useSignedInUser } from '../../session/session';
import { useTRPC } from '../../trpc';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { Checkbox, TextField } from '../ui/fields';
import { Form, FormMessage, SubmitButton } from '../ui/Form';
import { LoadingState } from '../ui/states';
import { toast } from '../ui/Toast';
import { useDocumentTitle } from '../ui/use-document-title';
import { AddressFields } from './AddressFields';
import { NewPasswordFields } from './credential-fields';
import { PrivacySection } from './PrivacySection';
import { BackLink } from '../ui/BackLink';

// Texts of docs/PRODUCT.md § Messages, word for word.
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
  const me = useSignedInUser();
  return (
    <div className="bg-stone-50">
      <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14 lg:px-8">
        <BackLink to="/dashboard">My Account</BackLink>
        <h1 className="font-display mt-4 text-3xl font-extrabold tracking-tight text-stone-950 sm:text-4xl">Account Settings</h1>
        <p className="mt-2 text-stone-600">
          Keep your details up to date for faster checkout. Fields marked <span className="text-red-700">*</span> are required.
        </p>
        <div className="mt-8 space-y-8">
          <ProfileSection email={me.email} />
          <PasswordSection />
          <PrivacySection />
        </div>
      </div>
    </div>
  );
}

function ProfileSection({ email }: { email: string }) {
  const trpc = useTRPC();
  // Read once for the form; a background refetch must not overwrite what the user is typing.
  const profile = useQuery(trpc.account.profile.queryOptions(undefined, { refetchOnWindowFocus: false }));
  if (profile.isPending) return <LoadingState label="Loading your settings..." />;
  if (profile.isError) {
    return (
      <div className="space-y-4">
        <FormMessage kind="error">We couldn't load your settings. Please try again.</FormMessage>
        <Button variant="secondary" size="lg" onClick={() => void profile.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  const saved = profile.data;
  const shipping = { ...emptyAddress(), ...saved?.shipping_address };
  const billing = { ...emptyAddress(), ...saved?.billing_address };
  return (
    <ProfileForm
      email={email}
      defaults={{
        first_name: saved?.first_name ?? '',
        last_name: saved?.last_name ?? '',
        phone: saved?.phone ?? '',
        shipping_address: shipping,
        billing_address: billing,
        // docs/PRODUCT.md § Validation: checked when billing and shipping street, city, state and zip match.
        same_as_shipping: billingMatchesShipping(shipping, billing),
      }}
    />
  );
}

function ProfileForm({ email, defaults }: { email: string; defaults: ProfileFormInput }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<ProfileFormInput, unknown, ProfileFormOutput>({ resolver: zodResolver(profileInput), defaultValues: defaults });
  const sameAsShipping = useWatch({ control: form.control, name: 'same_as_shipping' });
  const save = useMutation(trpc.account.saveProfile.mutationOptions());

  const onValid = async (values: ProfileFormOutput) => {
    try {
      const row = await save.mutateAsync(values);
      queryClient.setQueryData(trpc.account.profile.queryKey(), row);
      toast.success(SETTINGS_SAVED);
    } catch (error) {
      showServerErrors(form, error);
      toast.error(SETTINGS_FAILED);
    }
  };

  return (
    <Form form={form} onSubmit={onValid} className="space-y-8">
      <Card spacious title="Personal Details">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField name="first_name" label="First name" autoComplete="given-name" required />
          <TextField name="last_name" label="Last name" autoComplete="family-name" required />
          <TextField name="phone" label="Phone" type="tel" autoComplete="tel" required />
          <TextField label="Email address" type="email" value={email} readOnly hint="The address you sign in with." />
        </div>
      </Card>

      <Card spacious title="Shipping Address">
        <AddressFields prefix="shipping_address" section="shipping" label="Shipping Address" />
      </Card>

      <Card spacious title="Billing Address">
        <Checkbox name="same_as_shipping" label="Same as shipping" />
        {!sameAsShipping && (
          <div className="mt-6">
            <AddressFields prefix="billing_address" section="billing" label="Billing Address" />
          </div>
        )}
      </Card>

      <SettingsSubmit busyLabel="Saving...">Save Settings</SettingsSubmit>
    </Form>
  );
}

function PasswordSection() {
  const trpc = useTRPC();
  const form = useForm({ resolver: zodResolver(passwordForm), defaultValues: { currentPassword: '', password: '', confirmPassword: '' } });
  const change = useMutation(trpc.account.changePassword.mutationOptions());

  const onValid = async ({ currentPassword, password }: z.output<typeof passwordForm>) => {
    try {
      await change.mutateAsync({ currentPassword, password });
      form.reset();
      toast.success(PASSWORD_CHANGED);
    } catch (error) {
      // A wrong current password is named under its field, and the spec's alert says it too.
      showServerErrors(form, error);
      toast.error(errorMessage(error, PASSWORD_FAILED));
    }
  };

  return (
    <Card spacious title="Change Password" description="You stay signed in here; any other devices are signed out.">
      <Form form={form} onSubmit={onValid} className="grid gap-5 sm:grid-cols-2">
        <TextField
          className="sm:col-span-2 sm:max-w-[calc(50%-0.625rem)]"
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
        />
        <NewPasswordFields />
        <SettingsSubmit busyLabel="Changing..." spansGrid>
          Change Password
        </SettingsSubmit>
      </Form>
    </Card>
  );
}

/** A settings form's submit button: at the form's right end, full width on a phone; `spansGrid` in a form laid out in two columns. */
function SettingsSubmit({ busyLabel, spansGrid = false, children }: { busyLabel: string; spansGrid?: boolean; children: ReactNode }) {
  return (
    <div className={spansGrid ? 'flex justify-end sm:col-span-2' : 'flex justify-end'}>
      <SubmitButton busyLabel={busyLabel} className="w-full sm:w-auto">
        {children}
      </SubmitButton>
    </div>
  );
}
