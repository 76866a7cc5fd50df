import ExcelJS from 'exceljs';
import type { Table, TableRow } from './types';

/** One worksheet of a workbook, as a table. */
export interface Sheet {
  name: string;
  table: Table;
}

/** Reads every non-empty worksheet of an .xlsx workbook as rows of text cells; throws when the bytes are not a workbook. */
export async function readWorkbook(bytes: Uint8Array): Promise<Sheet[]> {
  const workbook = new ExcelJS.Workbook();
  // exceljs's typings ask for its own Buffer type; a Node Buffer over the same memory is what it reads.
  await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  const sheets: Sheet[] = [];
  for (const worksheet of workbook.worksheets) {
    const rows: TableRow[] = [];
    worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      row.eachCell({ includeEmpty: true }, (cell, col) => {
        cells[col - 1] = cellText(cell.value);
      });
      const filled = Array.from(cells, (c) => c ?? '');
      if (filled.some((c) => c !== '')) rows.push({ line: rowNumber, cells: filled });
    });
    if (rows.length > 0) sheets.push({ name: worksheet.name, table: { rows, delimiter: null, container: 'Excel' } });
  }
  return sheets;
}

/** The text of a cell: numbers in shortest form (alleles are rounded later), formulas by their result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((part) => part.text).join('').trim();
  if ('formula' in value || 'sharedFormula' in value) return 'result' in value && value.result !== undefined ? cellText(value.result as ExcelJS.CellValue) : '';
  if ('text' in value) return String(value.text).trim();
  if ('error' in value) return '';
  return '';
}
