/** Cell text that means "no value" (FORMATS.md §0): empty, or a placeholder a tool writes instead. */
const PLACEHOLDERS = new Set(['', '-', '--', 'na', 'n/a', 'null', 'nan']);

/** Whether a cell holds no value. */
export function isBlank(cell: string | undefined): boolean {
  return cell === undefined || PLACEHOLDERS.has(cell.trim().toLowerCase());
}
