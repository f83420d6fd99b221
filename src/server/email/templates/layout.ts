import { escapeMarkup } from '../../../shared/markup';

// Transactional emails: plain text first (what every client shows), with a simple HTML twin.

export interface StoreInfo {
  storeName: string;
  publicUrl: string;
}

export interface EmailBody {
  heading: string;
  paragraphs: string[];
  /** Rows of a two-column table (an order's lines and totals), after the paragraphs. */
  table?: [string, string][];
  /** Paragraphs after the table. */
  after?: string[];
  action?: { label: string; url: string };
  /** Plain links under the button, for emails that offer more than one way on. */
  links?: { label: string; url: string }[];
}

const paragraphsHtml = (paragraphs: string[]) =>
  paragraphs.map((p) => `<p style="margin:0 0 16px;white-space:pre-line">${escapeMarkup(p)}</p>`).join('');

export function layout(store: StoreInfo, { heading, paragraphs, table, after = [], action, links = [] }: EmailBody): string {
  const rows = table
    ? `<table style="width:100%;border-collapse:collapse;margin:0 0 16px">${table
        .map(
          ([left, right]) =>
            `<tr><td style="padding:6px 0;border-bottom:1px solid #e5e7eb">${escapeMarkup(left)}</td><td style="padding:6px 0;border-bottom:1px solid #e5e7eb;text-align:right">${escapeMarkup(right)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeMarkup(action.url)}" style="background:#111827;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600">${escapeMarkup(action.label)}</a></p>`
    : '';
  const linkList = links
    .map(
      ({ label, url }) => `<p style="margin:0 0 12px"><a href="${escapeMarkup(url)}" style="color:#111827">${escapeMarkup(label)}</a></p>`,
    )
    .join('');
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111827;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px">${escapeMarkup(heading)}</h1>${paragraphsHtml(paragraphs)}${rows}${paragraphsHtml(after)}${button}${linkList}
<p style="color:#6b7280;font-size:12px">${escapeMarkup(store.storeName)} · ${escapeMarkup(store.publicUrl)}</p></body></html>`;
}

/** The text twin of the same body. */
export function textOf({ paragraphs, table, after = [], action, links = [] }: EmailBody): string {
  const width = Math.max(0, ...(table ?? []).map(([left]) => left.length));
  const rows = (table ?? []).map(([left, right]) => `${left.padEnd(width)}  ${right}`);
  const linkTexts = [...(action ? [action] : []), ...links].map(({ label, url }) => `${label}:\n${url}`);
  return `${[...paragraphs, ...(rows.length > 0 ? [rows.join('\n')] : []), ...after, ...linkTexts].join('\n\n')}\n`;
}
