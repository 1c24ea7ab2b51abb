// Rows as a plain-text table for a terminal: one header line, columns padded to their widest value.

export type Cell = string | number | boolean | Date | null;

const shown = (value: Cell) => (value === null ? "-" : value instanceof Date ? value.toISOString() : String(value));

/** Columns are named by the rows' keys, so a renamed field is a type error here, not an empty column. */
export function formatTable<Row extends { [Column in Columns]: Cell }, Columns extends keyof Row & string>(
  rows: readonly Row[],
  columns: readonly Columns[],
): string {
  const lines: string[][] = [[...columns], ...rows.map((row) => columns.map((column) => shown(row[column])))];
  const widths = columns.map((_, index) => Math.max(...lines.map((line) => line[index]!.length)));
  return lines
    .map((line) =>
      line
        .map((cell, index) => cell.padEnd(widths[index]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
