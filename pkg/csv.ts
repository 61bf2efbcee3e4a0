// CSV as RFC 4180 writes it, safe to open in a spreadsheet: text that would start a formula
// (OWASP's CSV injection list) is quoted and led by a '.

const FORMULA_START = /^[=+\-@\t\r]/;

const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  // A name someone chose is text, never a formula; numbers (a negative amount) stay numbers.
  if (typeof v === 'string' && FORMULA_START.test(s)) return `"'${s.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** Rows of cells as CSV, each line ended by CRLF. */
export const toCsv = (rows: unknown[][]): string => `${rows.map((cells) => cells.map(csvCell).join(',')).join('\r\n')}\r\n`;
