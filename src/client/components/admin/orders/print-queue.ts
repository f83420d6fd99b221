import { PRINT_QUEUE_PATH, printQueueFileName } from '../../../../shared/schemas/admin-orders';

// Export Print Queue: fetch the CSV (the session cookie goes along), then hand it to the browser
// as a download under the server's file name. The server answers 204 when nothing waits.

/** The name in Content-Disposition, else today's. */
function fileNameOf(response: Response): string {
  const match = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '');
  return match?.[1] ?? printQueueFileName(new Date());
}

export async function downloadPrintQueue(): Promise<'downloaded' | 'empty'> {
  const response = await fetch(PRINT_QUEUE_PATH, {
    credentials: 'same-origin',
  });
  if (response.status === 204) return 'empty';
  if (!response.ok) throw new Error(`The print queue could not be exported (HTTP ${response.status})`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response);
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by now; give the browser a moment before freeing the blob.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return 'downloaded';
}
