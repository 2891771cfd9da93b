import { readdirSync, readFileSync } from 'node:fs';

/**
 * Finding the processes a skill script left behind on Linux, through /proc. Killing the script's
 * process group misses any process that called `setsid` (a new session and group); such a
 * process is still found while it descends from the script, and afterwards — once its parent
 * has exited and init adopted it — by the run marker every process of the run inherits in its
 * environment. Elsewhere (no /proc) nothing is found and only the group is killed.
 */

/** Environment variable holding a run's random marker (inherited by everything the script starts). */
export const RUN_MARKER_VARIABLE = 'TOOLSHED_SCRIPT_RUN';

interface ProcEntry {
  pid: number;
  ppid: number;
}

function liveProcesses(): ProcEntry[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcEntry[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // `pid (comm) state ppid …`; comm may hold spaces and parentheses, so split after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z' || state === 'X') continue;
      out.push({ pid: Number(name), ppid: Number(ppid) });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

function carriesMarker(pid: number, entry: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(entry);
  } catch {
    // Another user's process, or gone: not ours.
    return false;
  }
}

/**
 * Live processes of this run other than this one: descendants of `rootPid` (even in another
 * session) and any process whose environment carries `marker`.
 */
export function runProcesses(rootPid: number, marker: string): number[] {
  const processes = liveProcesses();
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of processes) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found = new Set<number>();
  const queue = [rootPid];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop() as number) ?? []) {
      if (found.has(child)) continue;
      found.add(child);
      queue.push(child);
    }
  }
  const entry = `${RUN_MARKER_VARIABLE}=${marker}\u0000`;
  for (const { pid } of processes) if (!found.has(pid) && carriesMarker(pid, entry)) found.add(pid);
  found.delete(process.pid);
  return [...found];
}
