// An invoice as a CSV (its lines, then the total) and as a PDF, drawn by pdfkit. Amounts in the
// CSV stay integer minor units; the PDF shows them in the currency.
import PDFDocument from 'pdfkit';
import { toCsv } from '../csv.js';
import type { Invoice } from '../store/invoices/row.js';
import { formatMoney } from './money.js';

const title = (i: Invoice): string =>
  i.kind === 'credit_note' ? `Credit note ${i.number}` : i.number ? `Invoice ${i.number}` : `Draft invoice ${i.month}`;

/** The file name of its downloads, without the extension. */
export const documentName = (i: Invoice): string => i.number ?? `draft-${i.month}`;

export function invoiceCsv(i: Invoice): string {
  return toCsv([
    ['description', 'quantity', 'unit_price', 'amount', 'currency'],
    ...i.lines.map((l) => [l.description, l.quantity, l.unitPrice, l.amount, i.currency]),
    ['Total', '', '', i.total, i.currency],
  ]);
}

const A4_WIDTH = 595.28;
const MARGIN = 50;
// Columns: description, quantity, unit price, amount (x and width, in points).
const COLUMNS = [
  { x: MARGIN, width: 245, align: 'left' },
  { x: 300, width: 70, align: 'right' },
  { x: 375, width: 80, align: 'right' },
  { x: 460, width: A4_WIDTH - MARGIN - 460, align: 'right' },
] as const;

/** The invoice of the company named `companyName` as a PDF (A4). */
export async function invoicePdf(i: Invoice, companyName: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: title(i), Author: 'Switchboard' } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => doc.on('end', resolve).on('error', reject));
  const money = (minor: number) => formatMoney(minor, i.currency);

  doc.font('Helvetica-Bold').fontSize(18).text(title(i));
  doc.moveDown(0.5).font('Helvetica').fontSize(10);
  doc.text(`Company: ${companyName} (${i.tenantId})`);
  doc.text(`Period: ${i.month} (${i.timezone}), ${i.periodStart.toISOString()} to ${i.periodEnd.toISOString()}`);
  doc.text(i.issuedAt ? `Issued: ${i.issuedAt.toISOString()}` : 'Not final: the running month so far');
  if (i.creditsNumber) doc.text(`Corrects: ${i.creditsNumber}. Reason: ${i.reason}`);
  doc.moveDown();

  const row = (cells: string[], font = 'Helvetica') => {
    // Drawn at explicit positions, so pdfkit does not break pages itself: near the bottom, a new one.
    if (doc.y > doc.page.height - MARGIN - 40) doc.addPage();
    const y = doc.y;
    doc.font(font);
    const heights = cells.map((text, c) => {
      const col = COLUMNS[c]!;
      return doc.heightOfString(text, { width: col.width });
    });
    cells.forEach((text, c) => {
      const col = COLUMNS[c]!;
      doc.text(text, col.x, y, { width: col.width, align: col.align });
    });
    doc.x = MARGIN;
    doc.y = y + Math.max(...heights) + 4;
  };
  row(['Description', 'Quantity', 'Unit price', 'Amount'], 'Helvetica-Bold');
  for (const l of i.lines)
    row([l.description, l.quantity.toLocaleString('en', { maximumFractionDigits: 6 }), money(l.unitPrice), money(l.amount)]);
  if (!i.lines.length) row(['No usage in this period', '', '', money(0)]);
  doc.moveDown(0.5);
  row([`Total (${i.currency})`, '', '', money(i.total)], 'Helvetica-Bold');
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
