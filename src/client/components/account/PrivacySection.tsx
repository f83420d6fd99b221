import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  ACCOUNT_DELETED,
  DELETE_MY_ACCOUNT,
  deleteAccountInput,
  DOWNLOAD_MY_DATA,
  personalDataFileName,
} from '../../../shared/schemas/account';
import { errorMessage, showServerErrors } from '../../errors';
import { useMutation } from '../../mutations';
import { saveJson } from '../../save-file';
import { sessionChanged } from '../../session/session';
import { useTRPC } from '../../trpc';
import { Button } from '../ui/Button';
import { Card } from '../ui/Card';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { TextField } from '../ui/fields';
import { Form } from '../ui/Form';
import { Modal } from '../ui/Modal';
import { toast } from '../ui/Toast';

// Your data (docs/PRODUCT.md § Screens, Settings): Download my data saves everything the store holds
// of the person as JSON; Delete my account asks for the password again, then for a confirmation,
// and erases the account (orders stay for the shop's books as "Deleted customer").

export function PrivacySection() {
  const [deleting, setDeleting] = useState(false);
  return (
    <Card
      spacious
      title="Your Data"
      description="Download a copy of everything we hold about you, or delete your account and your personal details for good."
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:justify-end">
        <DownloadMyData />
        <Button variant="danger" icon={Trash2} onClick={() => setDeleting(true)} className="w-full sm:w-auto">
          {DELETE_MY_ACCOUNT}
        </Button>
      </div>
      {deleting && <DeleteAccountDialog onClose={() => setDeleting(false)} />}
    </Card>
  );
}

function DownloadMyData() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      // Fresh every time, and not kept: it is a copy of the moment.
      const data = await queryClient.fetchQuery({ ...trpc.account.exportData.queryOptions(), staleTime: 0, gcTime: 0 });
      saveJson(data, personalDataFileName(data.exported_at.slice(0, 10)));
    } catch (error) {
      toast.error(errorMessage(error, 'Your data could not be downloaded. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="secondary"
      icon={Download}
      busy={busy}
      busyLabel="Preparing..."
      onClick={() => void download()}
      className="w-full sm:w-auto"
    >
      {DOWNLOAD_MY_DATA}
    </Button>
  );
}

/** Step one asks for the password; step two asks to confirm, and only then is anything sent. */
function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useForm({ resolver: zodResolver(deleteAccountInput), defaultValues: { password: '' } });
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.account.deleteAccount.mutationOptions({
      onSuccess: async () => {
        toast.success(ACCOUNT_DELETED);
        await navigate({ to: '/' });
        queryClient.setQueryData(trpc.auth.me.queryKey(), null);
        await sessionChanged(queryClient, 'signed-out');
      },
      onError: (error) => {
        // A wrong password goes back to its field; anything else is said as it is.
        setConfirming(false);
        showServerErrors(form, error);
        toast.error(errorMessage(error, 'Your account could not be deleted. Please try again.'));
      },
    }),
  );

  if (confirming) {
    return (
      <ConfirmDialog
        title="Delete your account for good?"
        message="Your memberships end today, you are signed out everywhere, and your name, addresses, phone and messages are erased. Orders stay in the shop's books as “Deleted customer”. This cannot be undone."
        confirmLabel={DELETE_MY_ACCOUNT}
        busyLabel="Deleting..."
        busy={remove.isPending}
        onConfirm={() => remove.mutate(form.getValues())}
        onCancel={onClose}
      />
    );
  }
  return (
    <Modal title={DELETE_MY_ACCOUNT} description="To keep your account safe, enter your password first." onClose={onClose} size="sm">
      <Form form={form} onSubmit={() => setConfirming(true)} className="space-y-5">
        <TextField name="password" label="Password" type="password" autoComplete="current-password" required />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger">
            Continue
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
