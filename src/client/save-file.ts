// Hands bytes the page fetched to the browser as a download under `name` (the print queue's CSV,
// a customer's data as JSON).

export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by now; give the browser a moment before freeing the blob.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A JSON document as a pretty-printed .json download. */
export function saveJson(data: unknown, name: string): void {
  saveFile(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }), name);
}
