import {
  AlertTriangle,
  ArrowDown,
  ArrowLeft,
  ArrowRight,
  ArrowUp,
  Ban,
  CheckCircle2,
  Minus,
  Plus,
  RotateCcw,
  RotateCw,
  type LucideIcon,
} from 'lucide-react';
import { useId } from 'react';
import {
  clampPercent,
  DPI_MIN,
  DPI_WARN,
  dpiLevel,
  effectiveDpi,
  moveTo,
  MOVE_STEP,
  placedWidthInches,
  stepRotation,
  stepSize,
  withSize,
  type ArtPosition,
  type Size,
} from '../../../../shared/placement';
import { iconButtonClass } from '../../ui/Button';
import { controlClass } from '../../ui/fields';

// Size ±5 %, rotation ±5°, position by arrow buttons or numbers, and the DPI readout of the
// artwork at its placed size (warning below 300, refusal below 150).

const stepButton = `${iconButtonClass()} border border-stone-300 bg-white`;

export function PlacementControls({
  position,
  onChange,
  templateSize,
  artSize,
}: {
  position: ArtPosition;
  onChange: (position: ArtPosition) => void;
  templateSize: Size;
  artSize: Size;
}) {
  const xId = useId();
  const yId = useId();
  const move = (dx: number, dy: number) => onChange(moveTo(position, position.x + dx * MOVE_STEP, position.y + dy * MOVE_STEP));
  return (
    <div className="space-y-5">
      <Stepper label="Size" value={`${position.width}%`} hint="of the template width">
        <StepButton
          icon={Minus}
          label="Decrease size"
          onClick={() => onChange(withSize(position, stepSize(position.width, -1)))}
          disabled={position.width <= 5}
        />
        <StepButton
          icon={Plus}
          label="Increase size"
          onClick={() => onChange(withSize(position, stepSize(position.width, 1)))}
          disabled={position.width >= 100}
        />
      </Stepper>
      <Stepper label="Rotation" value={`${position.rotation}°`}>
        <StepButton
          icon={RotateCcw}
          label="Rotate left 5 degrees"
          onClick={() => onChange({ ...position, rotation: stepRotation(position.rotation, -1) })}
        />
        <StepButton
          icon={RotateCw}
          label="Rotate right 5 degrees"
          onClick={() => onChange({ ...position, rotation: stepRotation(position.rotation, 1) })}
        />
      </Stepper>

      <fieldset>
        <legend className="text-sm font-medium text-stone-800">Position (centre, % of the template)</legend>
        <div className="mt-2 flex flex-wrap items-end gap-4">
          <div className="grid grid-cols-3 gap-1" role="group" aria-label="Move artwork">
            <span />
            <StepButton icon={ArrowUp} label="Move up" onClick={() => move(0, -1)} />
            <span />
            <StepButton icon={ArrowLeft} label="Move left" onClick={() => move(-1, 0)} />
            <StepButton icon={ArrowDown} label="Move down" onClick={() => move(0, 1)} />
            <StepButton icon={ArrowRight} label="Move right" onClick={() => move(1, 0)} />
          </div>
          <div className="flex gap-3">
            <PercentInput id={xId} label="X" value={position.x} onChange={(x) => onChange(moveTo(position, x, position.y))} />
            <PercentInput id={yId} label="Y" value={position.y} onChange={(y) => onChange(moveTo(position, position.x, y))} />
          </div>
        </div>
      </fieldset>

      <DpiReadout position={position} templateSize={templateSize} artSize={artSize} />
    </div>
  );
}

/** A square icon button of the controls, named for screen readers. */
function StepButton({
  icon: Icon,
  label,
  onClick,
  disabled,
}: {
  icon: LucideIcon;
  label: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button type="button" className={stepButton} onClick={onClick} disabled={disabled} aria-label={label}>
      <Icon className="size-4" aria-hidden="true" />
    </button>
  );
}

function Stepper({ label, value, hint, children }: { label: string; value: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <div>
        <p className="text-sm font-medium text-stone-800">{label}</p>
        {hint && <p className="text-xs text-stone-600">{hint}</p>}
      </div>
      <div className="flex items-center gap-2">
        {children}
        <output className="w-14 text-right font-semibold text-stone-950 tabular-nums" aria-label={label}>
          {value}
        </output>
      </div>
    </div>
  );
}

function PercentInput({ id, label, value, onChange }: { id: string; label: string; value: number; onChange: (value: number) => void }) {
  return (
    <div className="w-24">
      <label htmlFor={id} className="block text-xs font-medium text-stone-700">
        {label} (%)
      </label>
      <input
        id={id}
        type="number"
        min={0}
        max={100}
        step={1}
        value={value}
        onChange={(event) => {
          if (event.target.value !== '') onChange(clampPercent(Number(event.target.value)));
        }}
        className={`mt-1 ${controlClass()}`}
      />
    </div>
  );
}

function DpiReadout({ position, templateSize, artSize }: { position: ArtPosition; templateSize: Size; artSize: Size }) {
  const dpi = effectiveDpi(templateSize, artSize, position);
  const inches = placedWidthInches(templateSize, artSize, position);
  const level = dpiLevel(dpi);
  const styles = {
    ok: { box: 'border-emerald-200 bg-emerald-50 text-emerald-900', Icon: CheckCircle2, text: 'Good print quality.' },
    warn: {
      box: 'border-amber-300 bg-amber-50 text-amber-900',
      Icon: AlertTriangle,
      text: `Below ${DPI_WARN} DPI: the print may look soft.`,
    },
    refuse: {
      box: 'border-red-300 bg-red-50 text-red-900',
      Icon: Ban,
      text: `Below ${DPI_MIN} DPI: make the artwork smaller to save this side.`,
    },
  }[level];
  return (
    <div className={`rounded-lg border p-3 text-sm ${styles.box}`} data-testid="dpi-readout" data-level={level} aria-live="polite">
      <p className="flex items-center gap-2 font-semibold">
        <styles.Icon className="size-4 shrink-0" aria-hidden="true" />
        {Math.floor(dpi)} DPI at {inches.toFixed(1)} in wide
      </p>
      <p className="mt-0.5">{styles.text}</p>
      <p className="mt-1 text-xs opacity-80">
        Artwork {artSize.width} × {artSize.height} px; print area 12 × 16 in.
      </p>
    </div>
  );
}
