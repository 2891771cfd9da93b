/**
 * The runtimes alone (bundled and run by bench/runtimeReach.bench.mjs): Copilot CLI, Claude Code
 * and Codex, each run for real (offline, scripted model on 127.0.0.1) with 300 and with 10,000
 * skills in its own user-level skill folder, and what its first model request shows — how many
 * skills it describes (name and description), how many it names only, what it says it left out,
 * what the listing costs per request (≈ chars / 4 tokens) — and, over the held-out one-skill
 * requests of bench/data/skills-at-scale (even ids), how many have their right skill described.
 * The pool has fewer distinct usable names than 10,000: synthetic skills pad it (column
 * `synthetic`). Prints one JSON line last: {"title", "rows", "described"} (`described`: the
 * library's skills each runtime described, per size). `builtInListed`: the runtime's own skills
 * in the same listing.
 */
import * as path from 'node:path';
import { RUNTIMES, runtimeUnavailable } from '../test/runtimes/runtimeHarness';
import { chooseSkills, measureRuntimeAlone } from '../test/runtimes/runtimeReach';
import { DATA_DIR, readRequests } from './skillsAtScaleData';

const TITLE = 'Runtimes alone — which skills Copilot CLI, Claude Code and Codex show the model, and what the listing costs';
const SIZES = (process.env.TOOLSHED_RUNTIME_REACH_SIZES ?? '300,10000').split(',').map(Number);

async function main(): Promise<void> {
  const root = process.cwd();
  const loaded = readRequests(path.join(root, DATA_DIR, 'requests.jsonl'));
  if ('skip' in loaded) {
    console.log(JSON.stringify({ title: TITLE, rows: [], skipped: loaded.skip }));
    return;
  }
  const heldOut = loaded.requests.filter((r) => r.id % 2 === 0);
  const prompt = heldOut.find((r) => r.kind === 'one')?.request ?? 'hello';
  const rows: Array<Record<string, unknown>> = [];
  const described: Record<string, string[]> = {};
  for (const size of SIZES) {
    const chosen = chooseSkills(root, loaded.requests, size);
    for (const runtime of RUNTIMES) {
      const unavailable = runtimeUnavailable(runtime);
      if (unavailable) {
        rows.push({ runtime, skills: size, skipped: unavailable });
        continue;
      }
      const r = await measureRuntimeAlone(runtime, chosen, heldOut, prompt);
      described[`${runtime}@${size}`] = r.library.described;
      rows.push({
        runtime,
        skills: r.skills,
        synthetic: r.synthetic,
        libraryDescribed: r.library.described.length,
        libraryNamedOnly: r.library.namedOnly,
        builtInListed: r.listing.described.length + r.listing.namedOnly.length - r.library.described.length - r.library.namedOnly,
        saidMore: r.listing.saidMore,
        listingTokens: r.listingTokens,
        requestTokens: Math.round(r.requestChars / 4),
        heldOutOneSkillTasks: r.oneSkill.tasks,
        rightSkillDescribed: r.oneSkill.described,
        rightSkillNamedOnly: r.oneSkill.namedOnly,
        // A runtime lists its skills in every request, whatever it asks: a request no skill
        // serves gets them all the same (the hook's figure is reachBench.ts's no_skill_any_with_hook).
        noSkillRequestsShownAnySkill: r.library.described.length + r.library.namedOnly > 0 ? 1 : 0,
      });
      process.stderr.write(`${runtime} ${size}: ${JSON.stringify(rows[rows.length - 1])}\n`);
    }
  }
  console.log(JSON.stringify({ title: TITLE, rows, described }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
