// Products → Import CSV (docs/adr/0034-product-csv-in-shopify-columns.md): what the import's two
// requests answer, shared by the server and the admin's screen.

/** The file is checked in full and nothing is stored: answers an ImportPreview or an ImportRefusal. */
export const PRODUCT_IMPORT_PREVIEW_PATH = '/api/admin/products/import/preview';
/** The valid rows applied in one transaction: answers ImportProgress lines, then one ImportSummary line (NDJSON). */
export const PRODUCT_IMPORT_PATH = '/api/admin/products/import';

export const MAX_IMPORT_ROWS = 5000;
/** A 5,000-row export of long descriptions stays well under this. */
export const MAX_IMPORT_FILE_BYTES = 20 * 1024 * 1024;
/** Each image named by URL. */
export const MAX_IMPORTED_IMAGE_BYTES = 10 * 1024 * 1024;

/** A cell a person can fix: its row as a spreadsheet numbers it (the header is row 1), its column as the file names it. */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
}

export interface ImportCounts {
  create: number;
  update: number;
  unchanged: number;
  /** Rows with at least one error: their products are left out whole. */
  errorRows: number;
}

export interface ImportPreview {
  counts: ImportCounts;
  errors: ImportRowError[];
}

export interface ImportRefusal {
  error: string;
}

export interface ImportProgress {
  progress: { done: number; total: number };
}

export interface ImportSummary {
  summary: { created: number; updated: number; unchanged: number; errors: ImportRowError[] };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "12 products to create, 40 to update, 3 rows with errors". */
export const previewHeadline = ({ create, update, errorRows }: ImportCounts) =>
  `${plural(create, 'product', 'products')} to create, ${update} to update, ${plural(errorRows, 'row', 'rows')} with errors`;

/** "Row 14, Variant Price: "12,5" is not a price". */
export const rowErrorText = (error: ImportRowError) => `Row ${error.row}, ${error.column}: ${error.message}`;

/** "Imported: 12 products created, 40 updated, 3 unchanged". */
export const summaryHeadline = ({ created, updated, unchanged }: ImportSummary['summary']) =>
  `Imported: ${plural(created, 'product', 'products')} created, ${updated} updated, ${unchanged} unchanged`;
