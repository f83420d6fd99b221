import { RotateCcw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { formatCalendarDay } from '../../../shared/dates';
import { PAUSE_CYCLES } from '../../../shared/schemas/subscriptions';
import { Button, type ButtonStyle } from '../ui/Button';
import { TextArea } from '../ui/fields';
import { Modal } from '../ui/Modal';

// The pause and cancel confirmations, asked of a member on their page and of an admin acting for
// one: the same choices, in the words of whoever is asked.

type PauseCycles = (typeof PAUSE_CYCLES)[number] | null;

interface DialogText {
  title: string;
  description: string;
  keepLabel: string;
}

/** What the page asking gives either confirmation: its words, whether the change is under way, and how to close. */
interface ConfirmationProps {
  text: DialogText;
  busy: boolean;
  onClose: () => void;
}

/** When a cancellation takes effect: at once while paused or on hold (nothing is paid ahead), else when the paid period ends. */
export const cancellationTakesEffect = (membership: { status: string; next_cycle_on: string }) =>
  membership.status === 'paused' || membership.status === 'past_due' ? 'today' : `on ${formatCalendarDay(membership.next_cycle_on)}`;

/** Takes back a cancellation set for the period's end: the member's button and the admin's, each in its own words. */
export function KeepMembershipButton({
  busy,
  onKeep,
  children,
  ...style
}: ButtonStyle & { busy: boolean; onKeep: () => void; children: ReactNode }) {
  return (
    <Button {...style} icon={RotateCcw} busy={busy} busyLabel="Updating..." onClick={onKeep}>
      {children}
    </Button>
  );
}

/** Each confirmation's confirming button. */
const CONFIRM_BUTTONS = {
  pause: { label: 'Pause', busyLabel: 'Pausing...', variant: 'primary' },
  cancel: { label: 'Cancel subscription', busyLabel: 'Cancelling...', variant: 'danger' },
} as const;

/** What both confirmations share: the asker's words, the button that keeps things as they are, and the one that confirms. */
function MembershipDialog({
  action,
  text,
  busy,
  onClose,
  onConfirm,
  children,
}: ConfirmationProps & { action: keyof typeof CONFIRM_BUTTONS; onConfirm: () => void; children: ReactNode }) {
  const confirm = CONFIRM_BUTTONS[action];
  return (
    <Modal
      title={text.title}
      role="alertdialog"
      description={text.description}
      onClose={onClose}
      busy={busy}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {text.keepLabel}
          </Button>
          <Button variant={confirm.variant} busy={busy} busyLabel={confirm.busyLabel} onClick={onConfirm}>
            {confirm.label}
          </Button>
        </>
      }
    >
      {children}
    </Modal>
  );
}

export function PauseMembershipDialog({
  untilResumedLabel,
  onPause,
  ...confirmation
}: ConfirmationProps & { untilResumedLabel: string; onPause: (cycles: PauseCycles) => void }) {
  const [cycles, setCycles] = useState<PauseCycles>(1);
  const options = [
    ...PAUSE_CYCLES.map((n) => ({ value: n, label: `${n} ${n === 1 ? 'shipment' : 'shipments'}` })),
    { value: null, label: untilResumedLabel },
  ];
  return (
    <MembershipDialog action="pause" {...confirmation} onConfirm={() => onPause(cycles)}>
      <fieldset>
        <legend className="text-sm font-medium text-stone-900">Pause for</legend>
        <div className="mt-3 space-y-2">
          {options.map((option) => (
            <label key={option.label} className="flex items-center gap-3 text-sm text-stone-800">
              <input
                type="radio"
                name="pause-cycles"
                className="size-4 accent-accent-700"
                checked={cycles === option.value}
                onChange={() => setCycles(option.value)}
              />
              {option.label}
            </label>
          ))}
        </div>
      </fieldset>
    </MembershipDialog>
  );
}

export function CancelMembershipDialog({
  reasonLabel,
  onCancel,
  ...confirmation
}: ConfirmationProps & { reasonLabel: string; onCancel: (reason: string) => void }) {
  const [reason, setReason] = useState('');
  return (
    <MembershipDialog action="cancel" {...confirmation} onConfirm={() => onCancel(reason)}>
      <TextArea label={reasonLabel} rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
    </MembershipDialog>
  );
}
