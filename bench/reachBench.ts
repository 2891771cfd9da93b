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
import { existsSync, rmSync } from 'node:fs';
import { doorFolderFor } from '../src/core/runtimes/doors/doorFolder';
import { residentPidFile } from '../src/core/runtimes/residentSocket';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DATA_DIR, readPool, readRequests } from './skillsAtScaleData';
import type { ScaleRequest } from './skillsAtScaleData';
import { library, poolSkills, writeLibrary } from './skillLibrary';
import type { LibrarySkill } from './skillLibrary';
import { killRuntimes, prepareRuntime, RUNTIMES, runPrepared, runtimeUnavailable, SKILL_FOLDERS } from '../test/runtimes/runtimeHarness';
import type { RuntimeName } from '../test/runtimes/runtimeHarness';
import { skillsShownInRequest } from '../test/runtimes/skillListing';
import { startScriptedModelServer } from '../test/runtimes/scriptedModelServer';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
/** Resolves once the resident hook of `workspace` has written its pid file (polled: no event crosses processes here). */
async function residentListening(runtime: RuntimeName, home: string, workspace: string): Promise<void> {
  const pidFile = residentPidFile(doorFolderFor(workspace, path.join(home, '.toolshed')), runtime);
  while (!existsSync(pidFile)) await new Promise((resolve) => setTimeout(resolve, 100));
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

/**
 * The skills a hook answer injected (`### <name>` lines of the `<skills>` block) and those it
 * offered by name and description (`- <name>: …` lines of the `<skill_directory>` block).
 */
function hookSkills(stdout: string): { injected: string[]; offered: string[] } {
  if (!stdout.trim()) return { injected: [], offered: [] };
  const parsed = JSON.parse(stdout) as { additionalContext?: string; hookSpecificOutput?: { additionalContext?: string } };
  const context = parsed.additionalContext ?? parsed.hookSpecificOutput?.additionalContext ?? '';
  const skills = /<skills>[\s\S]*?<\/skills>/.exec(context)?.[0] ?? '';
  const offer = /<skill_directory>[\s\S]*?<\/skill_directory>/.exec(context)?.[0] ?? '';
  return {
    injected: [...skills.matchAll(/^### (\S+)/gm)].map((m) => m[1] ?? ''),
    offered: [...offer.matchAll(/^- (\S+?):/gm)].map((m) => m[1] ?? ''),
  };
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
        // One prompt first: it indexes the library and starts the resident hook; the measured
        // prompts begin once the resident has written its pid file (it listens by then).
        await runHook(runtime, home, workspace, 'hello');
        await residentListening(runtime, home, workspace);
        let withHook = 0;
        let injectedOnly = 0;
        let injectedForNone = 0;
        let offeredForNone = 0;
        let anyForNone = 0;
        let hookChars = 0;
        const latencies: number[] = [];
        for (const r of oneSkill) {
          const answer = await runHook(runtime, home, workspace, r.request);
          latencies.push(answer.ms);
          const answered = hookSkills(answer.stdout);
          const shown = new Set([...answered.injected, ...answered.offered]);
          const injected = new Set(answered.injected);
          if ([...goldNamesOf(r)].some((n) => described.has(n) || shown.has(n))) withHook++;
          if ([...goldNamesOf(r)].some((n) => injected.has(n))) injectedOnly++;
          hookChars += answer.stdout.length;
        }
        for (const r of noSkill) {
          const answer = await runHook(runtime, home, workspace, r.request);
          latencies.push(answer.ms);
          const answered = hookSkills(answer.stdout);
          if (answered.injected.length > 0) injectedForNone++;
          if (answered.offered.length > 0) offeredForNone++;
          if (answered.injected.length > 0 || answered.offered.length > 0) anyForNone++;
          hookChars += answer.stdout.length;
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
          right_skill_text_injected_by_hook: round(injectedOnly / oneSkill.length),
          no_skill_requests: noSkill.length,
          no_skill_injected_with_hook: round(injectedForNone / noSkill.length),
          no_skill_offered_with_hook: round(offeredForNone / noSkill.length),
          // The done-when line: a request no skill serves that gets any skill, injected or offered.
          no_skill_any_with_hook: round(anyForNone / noSkill.length),
          hook_tokens_per_request: Math.round(hookChars / 4 / (oneSkill.length + noSkill.length)),
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
