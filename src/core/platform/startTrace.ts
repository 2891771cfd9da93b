/**
 * Marks on the path of a start's first answer, for the extension-host bench
 * (bench/hostSkillScale.bench.mjs with TOOLSHED_START_TRACE=1): each mark is a name and
 * `performance.now()`, kept on a process-wide list the bench's in-host suite reads. Off unless the
 * variable is set when this module loads; off, a mark is one comparison.
 */
const TRACE_KEY = Symbol.for('toolshed.startTrace');

type Marks = Array<[string, number]>;

const marks: Marks | undefined =
  typeof process !== 'undefined' && process.env.TOOLSHED_START_TRACE
    ? (((globalThis as Record<symbol, unknown>)[TRACE_KEY] as Marks | undefined) ?? (((globalThis as Record<symbol, unknown>)[TRACE_KEY] = []) as Marks))
    : undefined;

export function markStart(name: string): void {
  if (marks) marks.push([name, performance.now()]);
}
