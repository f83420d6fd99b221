import { ImageUp, LoaderCircle, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { UPLOAD_ACCEPT, UPLOAD_FAILED, type UploadBucket } from '../../../../shared/schemas/admin-uploads';
import { buttonClass, iconButtonClass } from '../../ui/Button';
import { uploadImage } from './upload';

// An image upload with a preview and a progress bar, for every admin form that stores an image.
//
//   <UploadField
//     label="Front artwork"
//     bucket="product-art"
//     value={watch('front_art_url')}
//     onChange={(url) => setValue('front_art_url', url ?? '', { shouldValidate: true })}
//   />
//
// The file is checked in the browser first (type, 50 MB), then sent with upload progress; the
// server checks it again by its bytes. Errors show under the field with the spec's texts.
// `onChange(null)` is called by the Remove button. `onBusyChange` tells a form to hold its submit.

export interface UploadFieldProps {
  label: string;
  bucket: UploadBucket;
  /** The current image URL ('' or null: none). */
  value: string | null | undefined;
  onChange: (url: string | null) => void;
  onBusyChange?: (busy: boolean) => void;
  /** An error about the value from the form (e.g. a required image), shown like an upload error. */
  error?: string | undefined;
  hint?: string;
  /** Tailwind aspect class of the preview box. */
  previewClassName?: string;
  testId?: string;
}

export function UploadField({
  label,
  bucket,
  value,
  onChange,
  onBusyChange,
  error,
  hint,
  previewClassName = 'aspect-square',
  testId,
}: UploadFieldProps) {
  const id = useId();
  const [progress, setProgress] = useState<number | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  // An upload still running when the form goes away is cancelled.
  useEffect(() => () => abortRef.current?.abort(), []);

  const busy = progress !== null;
  const shownError = uploadError ?? error;

  const upload = async (file: File) => {
    setUploadError(null);
    setProgress(0);
    onBusyChange?.(true);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      onChange(await uploadImage(bucket, file, setProgress, controller.signal));
    } catch (caught) {
      if (controller.signal.aborted) return;
      setUploadError(caught instanceof Error && caught.message ? caught.message : UPLOAD_FAILED);
    } finally {
      if (!controller.signal.aborted) {
        setProgress(null);
        onBusyChange?.(false);
      }
    }
  };

  return (
    <div data-testid={testId}>
      <p className="block text-sm font-medium text-stone-800">{label}</p>
      <div className="mt-1.5 flex flex-wrap items-start gap-x-4 gap-y-3">
        <div
          className={`relative flex w-24 shrink-0 items-center justify-center overflow-hidden rounded-lg border border-dashed border-stone-300 bg-stone-50 sm:w-28 ${previewClassName}`}
        >
          {value ? (
            <img src={value} alt={`${label} preview`} className="size-full object-contain" />
          ) : (
            <ImageUp className="size-7 text-stone-300" aria-hidden="true" />
          )}
        </div>
        <div className="min-w-40 flex-1 space-y-2">
          <div className="flex flex-wrap items-center gap-2">
            {/* The real file input, visually hidden inside its label: keyboard and screen readers reach it. */}
            <label
              className={`${buttonClass({ variant: 'secondary', size: 'sm' })} cursor-pointer focus-within:ring-3 focus-within:ring-accent-600/30 ${
                busy ? 'pointer-events-none opacity-60' : ''
              }`}
            >
              {busy ? (
                <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
              ) : (
                <ImageUp className="size-4" aria-hidden="true" />
              )}
              {busy ? 'Uploading...' : value ? 'Replace image' : 'Upload image'}
              <input
                type="file"
                accept={UPLOAD_ACCEPT}
                className="sr-only"
                disabled={busy}
                aria-label={`Upload ${label.toLowerCase()}`}
                aria-describedby={[hint ? `${id}-hint` : '', shownError ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined}
                aria-invalid={shownError ? true : undefined}
                data-testid={testId ? `${testId}-input` : undefined}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  // Cleared so choosing the same file again still fires a change.
                  event.target.value = '';
                  if (file) void upload(file);
                }}
              />
            </label>
            {value && !busy && (
              <button
                type="button"
                className={iconButtonClass()}
                onClick={() => onChange(null)}
                aria-label={`Remove ${label.toLowerCase()}`}
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            )}
          </div>
          {busy && (
            <div className="flex items-center gap-2">
              <div
                role="progressbar"
                aria-label={`Uploading ${label.toLowerCase()}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress}
                data-testid="upload-progress"
                className="h-2 flex-1 overflow-hidden rounded-full bg-stone-200"
              >
                <div className="h-full rounded-full bg-accent-600 transition-[width]" style={{ width: `${progress}%` }} />
              </div>
              <span className="w-10 text-right text-xs font-medium text-stone-600 tabular-nums">{progress}%</span>
            </div>
          )}
          {hint && (
            <p id={`${id}-hint`} className="text-xs text-stone-600">
              {hint}
            </p>
          )}
          {shownError && (
            <p id={`${id}-error`} role="alert" className="text-sm text-red-700" data-testid="upload-error">
              {shownError}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
