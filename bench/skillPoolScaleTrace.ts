/**
 * A memory timeline of one measured start of skillPoolScaleBench.ts (TOOLSHED_POOL_SCALE_TRACE=DIR):
 * every ~50 ms the process's RSS (both threads), its peak so far (`maxRSS`, so a spike shorter than
 * a sample still shows in which window it happened), this thread's heap by space and its external
 * memory; V8's collections as they end (kind, duration); and marks at the load's steps the bench
 * can see from outside the code it measures: the store's exports (sql.js `Database.export`) and
 * its file writes (`FileHandle.writeFile`). Written as `<label>.json` in DIR when stopped.
 */
import { promises as fs, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import type { SqlEngine } from '../src/core/sql/sqlEngine';

const mb = (bytes: number) => Math.round(bytes / 104857.6) / 10;

interface MemoryTrace {
  mark(name: string): void;
  /** A reading now (a loop that never yields to timers, as the searches', calls it itself). */
  sample(): void;
  stop(): void;
}

export function startTrace(dir: string, label: string, engine: SqlEngine): MemoryTrace {
  const t0 = performance.now();
  const at = () => Math.round(performance.now() - t0);
  const samples: unknown[] = [];
  const marks: Array<[number, string]> = [];
  const gcs: Array<[number, number, number]> = [];
  const mappings: Array<[number, string, Record<string, number>]> = [];
  const mark = (name: string) => {
    marks.push([at(), name]);
    if (!name.startsWith('write') && !name.startsWith('export')) mappings.push([at(), name, residentMappings()]);
  };
  const sample = () => {
    const m = process.memoryUsage();
    const spaces: Record<string, number> = {};
    for (const s of v8.getHeapSpaceStatistics()) {
      const name = s.space_name.replace('_space', '');
      if (s.space_size === 0) continue;
      spaces[name] = mb(s.space_used_size);
      spaces[`${name}_size`] = mb(s.space_size);
    }
    const status = procStatus();
    samples.push({
      t: at(),
      rss: mb(m.rss),
      anon: status.RssAnon,
      file: status.RssFile,
      threads: status.Threads,
      max: mb(process.resourceUsage().maxRSS * 1024),
      heap: mb(m.heapUsed),
      total: mb(m.heapTotal),
      ext: mb(m.external),
      ab: mb(m.arrayBuffers),
      ...spaces,
    });
  };
  const timer = setInterval(sample, 50);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      gcs.push([Math.round(entry.startTime - t0), Math.round(entry.duration), (entry as { detail?: { kind?: number } }).detail?.kind ?? 0]);
  });
  observer.observe({ entryTypes: ['gc'] });
  // The store's steps, seen from outside: each export of a database, each file write.
  const proto = engine.sql.Database.prototype as { export: () => Uint8Array };
  const exportBytes = proto.export;
  proto.export = function (this: unknown) {
    mark('export start');
    const bytes = exportBytes.call(this);
    mark(`export end ${mb(bytes.byteLength)} MB`);
    return bytes;
  };
  const open = fs.open;
  (fs as { open: typeof fs.open }).open = async (...args: Parameters<typeof fs.open>) => {
    const handle = await open(...args);
    if (args[1] === 'wx') {
      const write = handle.writeFile.bind(handle);
      handle.writeFile = async (data: Parameters<typeof write>[0], options?: Parameters<typeof write>[1]) => {
        const size = typeof data === 'string' ? data.length : (data as Uint8Array).byteLength;
        mark(`write ${path.basename(String(args[0])).split('.').slice(0, 3).join('.')} ${mb(size)} MB`);
        await write(data, options);
        mark('write end');
      };
    }
    return handle;
  };
  sample();
  let last = 0;
  return {
    mark,
    sample() {
      if (performance.now() - last < 25) return;
      last = performance.now();
      sample();
    },
    stop() {
      sample();
      clearInterval(timer);
      observer.disconnect();
      proto.export = exportBytes;
      (fs as { open: typeof fs.open }).open = open;
      writeFileSync(
        path.join(dir, `${label}.json`),
        JSON.stringify({ label, marks, gcs, samples, mappings: [...mappings, [at(), 'settled', residentMappings()]] }),
      );
    },
  };
}

/** RssAnon / RssFile of /proc/self/status, in MB (Linux; empty elsewhere). */
function procStatus(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
      const m = /^(RssAnon|RssFile|Threads):\s+(\d+)/.exec(line);
      if (m) out[m[1]!] = m[1] === 'Threads' ? Number(m[2]) : Math.round(Number(m[2]) / 102.4) / 10;
    }
  } catch {
    // not Linux
  }
  return out;
}

/** The resident memory (MB) by kind of mapping: `[heap]` (malloc's main arena), anonymous ones by size (V8's 256 KB pages, malloc's 64 MB arenas of other threads, large mmap'd chunks), files. */
function residentMappings(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    let kind = '';
    for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (head) {
        const size = (parseInt(head[2]!, 16) - parseInt(head[1]!, 16)) / 1048576;
        const name = head[3] ?? '';
        kind = name.startsWith('[')
          ? name
          : name
            ? 'file'
            : size <= 0.25
              ? 'anon<=256K'
              : size < 1
                ? 'anon<1M'
                : size < 16
                  ? 'anon<16M'
                  : size <= 64
                    ? 'anon<=64M'
                    : 'anon>64M';
        continue;
      }
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss) out[kind] = (out[kind] ?? 0) + Number(rss[1]) / 1024;
    }
  } catch {
    // not Linux
  }
  for (const key of Object.keys(out)) out[key] = Math.round(out[key]! * 10) / 10;
  return out;
}
