import { useState } from 'react';
import {
  PRODUCT_IMPORT_PATH,
  PRODUCT_IMPORT_PREVIEW_PATH,
  previewHeadline,
  rowErrorText,
  summaryHeadline,
  type ImportPreview,
  type ImportProgress,
  type ImportRefusal,
  type ImportRowError,
  type ImportSummary,
} from '../../../../shared/schemas/admin-products-import';
import { Button } from '../../ui/Button';
import { FormMessage } from '../../ui/Form';
import { Modal } from '../../ui/Modal';

// Products → Import CSV (docs/adr/0034): choose a file, read its preview (nothing stored yet), then
// Import, with a progress bar while the server fetches images and writes, and its summary at the end.
// The file goes as it is (its bytes, not text the browser decoded), so the server can tell a file
// that is not UTF-8.

type Step =
  | { kind: 'choose'; refusal: string | null }
  | { kind: 'checking' }
  | { kind: 'preview'; file: File; preview: ImportPreview }
  | { kind: 'importing'; done: number; total: number }
  | { kind: 'done'; summary: ImportSummary['summary'] }
  | { kind: 'failed'; message: string };

const UNREACHABLE = 'The store could not be reached. Check the connection and try again.';

const send = (path: string, file: File) => fetch(path, { method: 'POST', headers: { 'content-type': 'text/csv' }, body: file });

async function refusalOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as Partial<ImportRefusal> | null;
  return body?.error ?? UNREACHABLE;
}

/** The import's answer, line by line as the server sends it: progress, then the summary (or why it failed). */
async function readImport(response: Response, onProgress: (progress: ImportProgress['progress']) => void) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffered += value ?? '';
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines.filter(Boolean)) {
      const message = JSON.parse(line) as ImportProgress | ImportSummary | ImportRefusal;
      if ('progress' in message) onProgress(message.progress);
      else return message;
    }
    if (done) return { error: UNREACHABLE };
  }
}

function RowErrors({ errors }: { errors: ImportRowError[] }) {
  if (errors.length === 0) return null;
  return (
    <ul aria-label="Rows with errors" className="mt-3 max-h-64 space-y-1 overflow-y-auto rounded-lg bg-red-50 p-3 text-sm text-red-800">
      {errors.map((error) => (
        <li key={`${error.row}|${error.column}|${error.message}`}>{rowErrorText(error)}</li>
      ))}
    </ul>
  );
}

export function ImportCsvDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const [step, setStep] = useState<Step>({ kind: 'choose', refusal: null });

  const check = async (file: File) => {
    setStep({ kind: 'checking' });
    try {
      const response = await send(PRODUCT_IMPORT_PREVIEW_PATH, file);
      if (!response.ok) return setStep({ kind: 'choose', refusal: await refusalOf(response) });
      setStep({ kind: 'preview', file, preview: (await response.json()) as ImportPreview });
    } catch {
      setStep({ kind: 'choose', refusal: UNREACHABLE });
    }
  };

  const apply = async (file: File) => {
    setStep({ kind: 'importing', done: 0, total: 0 });
    try {
      const response = await send(PRODUCT_IMPORT_PATH, file);
      if (!response.ok) return setStep({ kind: 'failed', message: await refusalOf(response) });
      const outcome = await readImport(response, ({ done, total }) => setStep({ kind: 'importing', done, total }));
      if ('summary' in outcome) {
        setStep({ kind: 'done', summary: outcome.summary });
        onImported();
      } else setStep({ kind: 'failed', message: outcome.error });
    } catch {
      setStep({ kind: 'failed', message: UNREACHABLE });
    }
  };

  const busy = step.kind === 'checking' || step.kind === 'importing';
  const footer = (() => {
    switch (step.kind) {
      case 'preview': {
        const { create, update } = step.preview.counts;
        return (
          <>
            <Button variant="secondary" onClick={() => setStep({ kind: 'choose', refusal: null })}>
              Choose another file
            </Button>
            <Button variant="accent" disabled={create + update === 0} onClick={() => void apply(step.file)}>
              Import
            </Button>
          </>
        );
      }
      case 'done':
      case 'failed':
        return <Button onClick={onClose}>Close</Button>;
      default:
        return (
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
        );
    }
  })();

  return (
    <Modal
      title="Import CSV"
      description="Products in our export's columns or Shopify's, up to 5,000 rows. Rows are grouped by Handle; a product with an error is left out."
      onClose={onClose}
      busy={busy}
      size="lg"
      footer={footer}
    >
      {(step.kind === 'choose' || step.kind === 'checking') && (
        <div>
          <label htmlFor="product-import-file" className="block text-sm font-semibold text-stone-800">
            CSV file
          </label>
          <input
            id="product-import-file"
            type="file"
            accept=".csv,text/csv"
            disabled={step.kind === 'checking'}
            className="mt-1 block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-stone-100 file:px-3 file:py-2 file:font-semibold"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void check(file);
            }}
          />
          {step.kind === 'checking' && (
            <p role="status" className="mt-3 text-sm text-stone-600">
              Checking the file...
            </p>
          )}
          {step.kind === 'choose' && step.refusal && (
            <div className="mt-3">
              <FormMessage kind="error">{step.refusal}</FormMessage>
            </div>
          )}
        </div>
      )}
      {step.kind === 'preview' && (
        <div>
          <p className="text-sm text-stone-600">{step.file.name}: nothing is stored until you import.</p>
          <p role="status" className="mt-2 font-semibold text-stone-900">
            {previewHeadline(step.preview.counts)}
          </p>
          {step.preview.counts.unchanged > 0 && (
            <p className="mt-1 text-sm text-stone-600">
              {step.preview.counts.unchanged} {step.preview.counts.unchanged === 1 ? 'product is' : 'products are'} unchanged.
            </p>
          )}
          <RowErrors errors={step.preview.errors} />
        </div>
      )}
      {step.kind === 'importing' && (
        <div>
          <p id="product-import-progress" className="text-sm font-semibold text-stone-800">
            Importing...
          </p>
          <div
            role="progressbar"
            aria-labelledby="product-import-progress"
            aria-valuemin={0}
            aria-valuemax={step.total || 1}
            aria-valuenow={step.done}
            className="mt-2 h-3 overflow-hidden rounded-full bg-stone-200"
          >
            <div
              className="h-full rounded-full bg-accent-600 transition-[width]"
              style={{ width: `${step.total === 0 ? 0 : Math.round((100 * step.done) / step.total)}%` }}
            />
          </div>
        </div>
      )}
      {step.kind === 'done' && (
        <div>
          <p role="status" className="font-semibold text-stone-900">
            {summaryHeadline(step.summary)}
          </p>
          <RowErrors errors={step.summary.errors} />
        </div>
      )}
      {step.kind === 'failed' && <FormMessage kind="error">{step.message}</FormMessage>}
    </Modal>
  );
}
