import { readFileSync } from 'node:fs';

/**
 * CPU clocks for benches, reported beside wall time because the machines they run on are often
 * shared: a busy neighbour stretches wall time but not the work done.
 */

/**
 * CPU time of this process's main thread in ms: on Linux from /proc (schedstat), elsewhere the
 * whole process. Scheduler-tick granular (a few ms): for spans of tens of ms and more.
 */
export function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    const ns = Number(fields[0]);
    if (Number.isFinite(ns)) return ns / 1e6;
  } catch {
    // Not Linux (or /proc hidden): fall back to the process-wide figure.
  }
  return processCpuMs();
}

/** CPU time of the whole process in ms (precise; also counts GC and compiler threads). */
export function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
