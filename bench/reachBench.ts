/**
 * Reach: does the right skill get in front of the model? With 300 and 10,000 real SKILL.md
 * skills in each runtime's own user skill folder (Copilot CLI, Claude Code, Codex — the real npm
 * packages, offline, against the scripted model on 127.0.0.1), the share of one-skill tasks whose
 * right skill the model is *shown with its description*:
 *
 * - runtime alone: parsed from the runtime's real first model request (its skill listing does not
 *   depend on the prompt: alphabetical up to a budget), so one run per runtime and size;
 * - with Toolshed's hook: the listing, or the skills `toolshed hook <runtime>` (the real CLI
 *   process, warm, as the runtime starts it) injected for that request;
 *
 * plus the share of no-skill requests the hook injects anything for, the tokens (characters / 4)
 * the runtime's listing costs in every request, and the hook's latency (p50/p95, process start
 * included). The requests are the skills-at-scale dev set (bench/data/skills-at-scale): held-out
 * half (even ids) reported; the pool's real skills are padded with generated ones to 10,000.
 * A second placement keeps the library in Toolshed's own folder (~/.toolshed/skills), which no
 * runtime lists: its listing row shows what that saves.
 *
 * Run: `node bench/reach.bench.mjs` (after `node esbuild.mjs`). TOOLSHED_BENCH_REACH_SIZES
 * (default `300,10000`) and TOOLSHED_BENCH_REACH_RUNTIMES (default all three) narrow it.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DATA_DIR, readPool, readRequests, skillFields } from './skillsAtScaleData';
import type { PoolEntry, ScaleRequest } from './skillsAtScaleData';
import { rng } from './benchMath';
import { killRuntimes, prepareRuntime, RUNTIMES, runPrepared, runtimeUnavailable, SKILL_FOLDERS } from '../test/runtimes/runtimeHarness';
import type { RuntimeName } from '../test/runtimes/runtimeHarness';
import { skillsShownInRequest } from '../test/runtimes/skillListing';
import { startScriptedModelServer } from '../test/runtimes/scriptedModelServer';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const SAFE_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

interface LibrarySkill {
  name: string;
  text: string;
}

/** The pool's skills with a usable, unique name (the first copy of a name wins, as a runtime keyed by name shows one). */
function poolSkills(pool: readonly PoolEntry[]): { skills: LibrarySkill[]; nameOf: Map<string, string> } {
  const skills: LibrarySkill[] = [];
  const nameOf = new Map<string, string>();
  const seen = new Set<string>();
  for (const entry of pool) {
    const { name, description } = skillFields(entry.text);
    const clean = name.trim();
    if (!SAFE_NAME.test(clean) || !description.trim()) continue;
    nameOf.set(entry.id, clean);
    if (seen.has(clean)) continue;
    seen.add(clean);
    skills.push({ name: clean, text: entry.text });
  }
  return { skills, nameOf };
}

const WORDS = 'ledger orbit quartz meadow harbor signal lantern cobalt prairie tundra basalt willow canyon ember glacier'.split(' ');

/** A generated skill that shares no topic with the requests (to pad the library to its size). */
function paddingSkill(i: number): LibrarySkill {
  const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length] ?? 'x';
  const name = `zz-pad-${w(0)}-${w(1)}-${i}`;
  return { name, text: `---\nname: ${name}\ndescription: Catalogue the ${w(2)} ${w(3)} records of archive ${i}\n---\n# ${name}\nSort the ${w(4)} entries.\n` };
}

/** `size` skills: the gold skills of the requests first (so every task is answerable), then the pool in a seeded order, then padding. */
function library(size: number, all: readonly LibrarySkill[], goldNames: ReadonlySet<string>): LibrarySkill[] {
  const gold = all.filter((s) => goldNames.has(s.name));
  const rest = all.filter((s) => !goldNames.has(s.name));
  const random = rng(2026);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  const chosen = [...gold, ...rest].slice(0, size);
  for (let i = 0; chosen.length < size; i++) chosen.push(paddingSkill(i));
  return chosen;
}

function writeLibrary(folder: string, skills: readonly LibrarySkill[]): void {
  for (const skill of skills) {
    mkdirSync(path.join(folder, skill.name), { recursive: true });
    writeFileSync(path.join(folder, skill.name, 'SKILL.md'), skill.text);
  }
}

/** Runs `node dist/cli.js hook <runtime>` as the runtime does; its stdout and wall time. */
function runHook(runtime: RuntimeName, home: string, workspace: string, prompt: string, extra: string[] = []): Promise<{ stdout: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'hook', runtime, ...extra], {
    cwd: workspace,
    env: { PATH: process.env.PATH, HOME: home },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.resume();
  child.stdin.end(JSON.stringify({ prompt, cwd: workspace, hook_event_name: 'UserPromptSubmit' }));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', () => resolve({ stdout, ms: performance.now() - started }));
  });
}

/** The skill names a hook answer injected (`### <name> — …` lines of the `<skills>` block). */
function injectedNames(stdout: string): string[] {
  if (!stdout.trim()) return [];
  const parsed = JSON.parse(stdout) as { additionalContext?: string; hookSpecificOutput?: { additionalContext?: string } };
  const context = parsed.additionalContext ?? parsed.hookSpecificOutput?.additionalContext ?? '';
  return [...context.matchAll(/^### (\S+) —/gm)].map((m) => m[1] ?? '');
}

const pct = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** What the runtime showed in its first request, with `skills` in its user folder (or in Toolshed's). */
async function runtimeListing(runtime: RuntimeName, skills: readonly LibrarySkill[], placement: 'runtime' | 'toolshed') {
  const server = await startScriptedModelServer();
  const { home, workspace } = prepareRuntime(runtime, server, { trustWorkspace: true });
  try {
    writeLibrary(path.join(home, placement === 'runtime' ? SKILL_FOLDERS[runtime].user : '.toolshed/skills'), skills);
    const run = await runPrepared(runtime, server, 'Say OK.', { trustWorkspace: true }, home, workspace);
    const first = run.turns[0];
    if (!first) throw new Error(`${runtime} sent no model request (exit ${run.exitCode}): ${run.stderr.slice(0, 400)}`);
    return { listing: skillsShownInRequest(runtime, first), home, workspace, server };
  } catch (error) {
    await server.close();
    rmSync(path.dirname(home), { recursive: true, force: true });
    throw error;
  }
}

async function main(): Promise<void> {
  const loaded = readRequests(path.join(ROOT, DATA_DIR, 'requests.jsonl'));
  if ('skip' in loaded) {
    console.log(JSON.stringify({ title: 'Reach: the right skill in front of the model', skipped: loaded.skip, rows: [] }));
    return;
  }
  const { skills: all, nameOf } = poolSkills(readPool(ROOT));
  const heldOut = loaded.requests.filter((r) => r.id % 2 === 0 && r.kind !== 'multi');
  const goldNamesOf = (r: ScaleRequest) => new Set(r.gold.flat().flatMap((id) => (nameOf.has(id) ? [nameOf.get(id)!] : [])));
  const oneSkill = heldOut.filter((r) => r.kind === 'one' && goldNamesOf(r).size > 0);
  const noSkill = heldOut.filter((r) => r.kind === 'none');
  const goldNames = new Set(loaded.requests.flatMap((r) => [...goldNamesOf(r)]));
  const sizes = (process.env.TOOLSHED_BENCH_REACH_SIZES ?? '300,10000').split(',').map(Number);
  const only = process.env.TOOLSHED_BENCH_REACH_RUNTIMES?.split(',');
  const rows: Record<string, unknown>[] = [];
  for (const size of sizes) {
    const skills = library(size, all, goldNames);
    for (const runtime of RUNTIMES.filter((r) => !only || only.includes(r))) {
      const unavailable = runtimeUnavailable(runtime);
      if (unavailable) {
        rows.push({ size, runtime, skipped: unavailable });
        continue;
      }
      const { listing, home, workspace, server } = await runtimeListing(runtime, skills, 'runtime');
      try {
        const described = new Set(listing.described);
        const alone = oneSkill.filter((r) => [...goldNamesOf(r)].some((n) => described.has(n))).length;
        // Warm the door once, as the first prompt after an install does in the background.
        await runHook(runtime, home, workspace, '', ['--warm', workspace]);
        let withHook = 0;
        let injectedForNone = 0;
        const latencies: number[] = [];
        for (const r of oneSkill) {
          const answer = await runHook(runtime, home, workspace, r.request);
          latencies.push(answer.ms);
          const injected = new Set(injectedNames(answer.stdout));
          if ([...goldNamesOf(r)].some((n) => described.has(n) || injected.has(n))) withHook++;
        }
        for (const r of noSkill) {
          const answer = await runHook(runtime, home, workspace, r.request);
          latencies.push(answer.ms);
          if (injectedNames(answer.stdout).length > 0) injectedForNone++;
        }
        latencies.sort((a, b) => a - b);
        const inToolshedFolder = await runtimeListing(runtime, skills, 'toolshed');
        await inToolshedFolder.server.close();
        rmSync(path.dirname(inToolshedFolder.home), { recursive: true, force: true });
        rows.push({
          size,
          runtime,
          one_skill_tasks: oneSkill.length,
          shown_described_runtime_alone: round(alone / oneSkill.length),
          shown_described_with_hook: round(withHook / oneSkill.length),
          no_skill_requests: noSkill.length,
          no_skill_injected_with_hook: round(injectedForNone / noSkill.length),
          listing_described: listing.described.length,
          listing_named_only: listing.namedOnly.length,
          listing_said_more: listing.saidMore,
          listing_tokens_per_request: Math.round(listing.chars / 4),
          listing_tokens_library_in_toolshed_folder: Math.round(inToolshedFolder.listing.chars / 4),
          hook_p50_ms: round(pct(latencies, 0.5), 0),
          hook_p95_ms: round(pct(latencies, 0.95), 0),
        });
      } finally {
        killRuntimes();
        await server.close();
        rmSync(path.dirname(home), { recursive: true, force: true });
      }
    }
  }
  console.log(
    JSON.stringify({
      title: 'Reach: right skill shown with its description, runtime alone vs with the hook (held-out half, even ids)',
      machine: { cpus: os.cpus().length, load: os.loadavg().map((x) => round(x, 2)) },
      rows,
    }),
  );
}

void main().catch((error: unknown) => {
  killRuntimes();
  console.error(error);
  process.exitCode = 1;
});
