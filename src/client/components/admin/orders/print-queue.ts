import { PRINT_QUEUE_PATH, printQueueFileName } from '../../../../shared/schemas/admin-orders';
import { saveFile } from '../../../save-file';

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
  saveFile(await response.blob(), fileNameOf(response));
  return 'downloaded';
}
