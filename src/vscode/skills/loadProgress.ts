import * as path from 'node:path';

/** What a load's progress is reported to (`vscode.Progress` of `window.withProgress`). */
export interface ProgressSink {
  report(value: { message?: string; increment?: number }): void;
}

/** Between whole percents, the message names the file being read at most this often. */
const REPORT_EVERY_MS = 250;

/**
 * A load's `onProgress` for `progress`: each report crosses to the workbench, so a load reports
 * once per whole percent (with the file it reached), and between them at most every
 * REPORT_EVERY_MS, not once per file (a first load of 10,000 skills sent 10,000 reports). The
 * increments add up to the percentage done; the last file is always reported.
 */
export function loadProgressReporter(progress: ProgressSink, now: () => number = () => performance.now()) {
  let lastPercent = 0;
  let lastReport = Number.NEGATIVE_INFINITY;
  return (done: number, total: number, file: string): void => {
    if (total === 0) return;
    const percent = Math.floor((done / total) * 100);
    const at = now();
    if (percent === lastPercent && done < total && at - lastReport < REPORT_EVERY_MS) return;
    progress.report({ message: `${done}/${total} ${path.basename(file)}`, increment: percent - lastPercent });
    lastPercent = percent;
    lastReport = at;
  };
}
