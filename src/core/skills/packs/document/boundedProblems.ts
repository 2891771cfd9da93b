import { FILE_START, makeProblem, PROBLEM_CODES } from './skillProblems';
import type { ProblemCode, ProblemSeverity, SkillProblem, Span } from './skillProblems';

/** A position, or a way to compute it only when the problem is actually listed. */
export type SpanSource = Span | (() => Span);
type Extra = { skillName?: string; data?: Record<string, unknown> };

export interface ProblemBudget {
  /** Problems listed; more are counted in one closing warning. */
  maxProblems: number;
  /** Errors after which parsing stops. */
  maxErrors: number;
  /** Time after which parsing stops. */
  budgetMs: number;
}

/**
 * The problems of one file, bounded so a hostile file cannot make the parser do unbounded work:
 * past `maxProblems` a problem is only counted (no position lookup, no message), and `spent()`
 * says when the file has used up its error allowance or its time.
 */
export class BoundedProblems {
  readonly list: SkillProblem[] = [];
  /** Every problem found, listed or not; and how many of them were errors. */
  total = 0;
  errors = 0;
  private readonly deadline: number;

  constructor(
    private readonly file: string,
    private readonly budget: ProblemBudget,
  ) {
    this.deadline = performance.now() + budget.budgetMs;
  }

  get full(): boolean {
    return this.list.length >= this.budget.maxProblems;
  }

  add(span: SpanSource, severity: ProblemSeverity, code: ProblemCode, message: string | (() => string), extra: Extra | (() => Extra) = {}): void {
    this.total++;
    if (severity === 'error') this.errors++;
    if (this.full) return;
    this.list.push(
      makeProblem(
        this.file,
        typeof span === 'function' ? span() : span,
        severity,
        code,
        typeof message === 'function' ? message() : message,
        typeof extra === 'function' ? extra() : extra,
      ),
    );
  }

  /** A problem another checker built (e.g. the mid-line comment check), counted and capped like the rest. */
  addBuilt(problem: SkillProblem): void {
    this.total++;
    if (problem.severity === 'error') this.errors++;
    if (!this.full) this.list.push(problem);
  }

  /** A point to roll back to (the JSONL fast path tries a line, then redoes it with positions). */
  mark(): { listed: number; total: number; errors: number } {
    return { listed: this.list.length, total: this.total, errors: this.errors };
  }

  rollback(mark: { listed: number; total: number; errors: number }): void {
    this.list.length = mark.listed;
    this.total = mark.total;
    this.errors = mark.errors;
  }

  /**
   * True (after listing why, first, even past the cap) when the file has used up its error
   * allowance or its time; checked between skills so the work per file stays bounded.
   */
  spent(where: string): boolean {
    let why: string;
    if (this.errors >= this.budget.maxErrors) {
      why = `${this.errors} errors so far (the limit is ${this.budget.maxErrors}). Fix the listed problems, or split the file.`;
    } else if (performance.now() > this.deadline) {
      why = `this file takes too long to read (over ${this.budget.budgetMs} ms). Split it into smaller skill files.`;
    } else {
      return false;
    }
    this.list.unshift(makeProblem(this.file, FILE_START, 'error', PROBLEM_CODES.parseBudgetExceeded, `Parsing stopped at ${where}: ${why}`));
    this.total++;
    this.errors++;
    return true;
  }

  /** Adds the closing "N more problems" warning when the list was capped. */
  close(): void {
    const omitted = this.total - this.list.length;
    if (omitted <= 0) return;
    this.list.push(
      makeProblem(
        this.file,
        FILE_START,
        'warning',
        PROBLEM_CODES.tooManyProblems,
        `${omitted} more problem${omitted === 1 ? '' : 's'} in this file ${omitted === 1 ? 'is' : 'are'} not listed (only the first ${this.budget.maxProblems} are). Fix these first and validate again.`,
        { data: { omitted } },
      ),
    );
  }
}
