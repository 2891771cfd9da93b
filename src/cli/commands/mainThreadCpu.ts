import { readFileSync } from 'node:fs';

/**
 * CPU time of this process's main thread in ms: on Linux from /proc (schedstat, nanoseconds),
 * elsewhere the whole process (`process.cpuUsage`, which also counts GC and compiler threads).
 * Benches report it beside wall time because the machines they run on are often shared, and
 * a busy neighbour stretches wall time but not the work done.
 */
export function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    const ns = Number(fields[0]);
    if (Number.isFinite(ns)) return ns / 1e6;
  } catch {
    // Not Linux (or /proc hidden): fall back to the process-wide figure.
  }
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}
