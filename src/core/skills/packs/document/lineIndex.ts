import type { Span } from './skillProblems';

/**
 * Maps UTF-16 offsets of a text to 1-based line/column (the units VS Code uses). Line starts are
 * found as far as a question needs them: a SKILL.md's problems sit in its front matter, so its
 * body (most of the file) is never scanned.
 */
export class LineIndex {
  private readonly starts: number[] = [0];
  /** Offsets before this are scanned: every line start up to here is in `starts`. */
  private scanned = 0;

  constructor(readonly text: string) {}

  get lineCount(): number {
    this.scanTo(this.text.length);
    return this.starts.length;
  }

  /** Offset of the first character of a 1-based line. */
  lineStart(line: number): number {
    const wanted = Math.max(line, 1);
    while (this.starts.length < wanted && this.scanned < this.text.length) this.scanTo(this.scanned + 4096);
    return this.starts[Math.min(wanted, this.starts.length) - 1] ?? 0;
  }

  position(offset: number): { line: number; column: number } {
    const clamped = Math.min(Math.max(offset, 0), this.text.length);
    this.scanTo(clamped);
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

  /** Records the line starts at offsets up to and including `offset`. */
  private scanTo(offset: number): void {
    const { text, starts } = this;
    const until = Math.min(offset, text.length);
    for (let at = text.indexOf('\n', this.scanned); at >= 0 && at < until; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    this.scanned = Math.max(this.scanned, until);
  }
}
