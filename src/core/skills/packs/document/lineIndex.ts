import type { Span } from './skillProblems';

/** Maps UTF-16 offsets of a text to 1-based line/column (the units VS Code uses). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset of the first character of a 1-based line. */
  lineStart(line: number): number {
    return this.starts[Math.min(Math.max(line, 1), this.starts.length) - 1] ?? 0;
  }

  position(offset: number): { line: number; column: number } {
    const clamped = Math.min(Math.max(offset, 0), this.text.length);
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: clamped - (this.starts[low] ?? 0) + 1 };
  }

  span(start: number, end: number): Span {
    const a = this.position(start);
    const b = this.position(Math.max(end, start));
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  }

  /** The whole of a 1-based line (without its newline). */
  lineSpan(line: number): Span {
    const start = this.lineStart(line);
    let end = this.text.indexOf('\n', start);
    if (end < 0) end = this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return this.span(start, end);
  }
}
