import { useState } from 'react';
import { formatCalendarDay } from '../../../shared/dates';
import { PAUSE_CYCLES } from '../../../shared/schemas/subscriptions';
import { Button } from '../ui/Button';
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

/** When a cancellation takes effect: at once while paused (nothing is paid ahead), else when the paid period ends. */
export const cancellationTakesEffect = (membership: { status: string; next_cycle_on: string }) =>
  membership.status === 'paused' ? 'today' : `on ${formatCalendarDay(membership.next_cycle_on)}`;

export function PauseMembershipDialog({
  text,
  untilResumedLabel,
  busy,
  onPause,
  onClose,
}: {
  text: DialogText;
  untilResumedLabel: string;
  busy: boolean;
  onPause: (cycles: PauseCycles) => void;
  onClose: () => void;
}) {
  const [cycles, setCycles] = useState<PauseCycles>(1);
  const options = [
    ...PAUSE_CYCLES.map((n) => ({ value: n, label: `${n} ${n === 1 ? 'shipment' : 'shipments'}` })),
    { value: null, label: untilResumedLabel },
  ];
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
          <Button busy={busy} busyLabel="Pausing..." onClick={() => onPause(cycles)}>
            Pause
          </Button>
        </>
      }
    >
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
    </Modal>
  );
}

export function CancelMembershipDialog({
  text,
  reasonLabel,
  busy,
  onCancel,
  onClose,
}: {
  text: DialogText;
  reasonLabel: string;
  busy: boolean;
  onCancel: (reason: string) => void;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
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
          <Button variant="danger" busy={busy} busyLabel="Cancelling..." onClick={() => onCancel(reason)}>
            Cancel subscription
          </Button>
        </>
      }
    >
      <TextArea label={reasonLabel} rows={3} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
    </Modal>
  );
}
