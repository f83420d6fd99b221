/**
 * An image address the store accepts: a file of its own storage ("/storage/<bucket>/<key>") or an
 * absolute http(s) URL. Other site paths are refused: "/\evil.example/x.png" is another host to a
 * browser, and server-side rendering reads only its own storage anyway.
 */
export function isImageUrl(value: string): boolean {
  if (/^\/storage\/[a-z0-9][a-z0-9-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) return true;
  if (/\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
