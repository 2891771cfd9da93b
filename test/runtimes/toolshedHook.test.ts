/**
 * Toolshed's prompt-submit hook (`node dist/cli.js hook <runtime>`) inside the real runtimes,
 * configured at user level the way `toolshed setup` does: after a prompt a skill covers, the
 * model request carries that skill's own text (its body, which no runtime sends by itself);
 * after an unrelated prompt, no Toolshed context at all; and the skills of a workspace the
 * runtime does not trust never reach the model through the hook (trusted, they do: the same
 * test shows it can fail).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { hookContextIn, RUNTIMES, runRuntime, skipUnlessRunnable, scriptedModelPerTest } from './runtimeHarness';
import type { RuntimeName } from './runtimeHarness';
import { MATCHING_PROMPT, RELEASE_NOTES, TEAM_SKILLS, UNRELATED_PROMPT } from './runtimeSkills';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
// A budget far above any start-up: the test waits for the hook's answer, it does not time it
// (the hook's latency is the bench's); under the default budget a loaded machine gets "nothing".
const hook = (runtime: RuntimeName): string => `"${process.execPath}" "${CLI}" hook ${runtime} --budget-ms 60000`;
const MARKERS = /MARKER-[A-Z-]+-BODY/g;

describe("Toolshed's prompt-submit hook in the real runtimes", function () {
  const startModel = scriptedModelPerTest();

  for (const runtime of RUNTIMES) {
    it(`${runtime}: after a prompt a skill covers, the model request carries that skill's text and no other's`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel();
      const run = await runRuntime(runtime, server, MATCHING_PROMPT, { userSkills: TEAM_SKILLS, hookCommand: hook(runtime), trustWorkspace: true });
      assert.equal(run.exitCode, 0, run.stderr);
      const first = run.turns[0];
      assert.ok(first, `${runtime} sent no model request: ${run.stderr}`);
      const context = hookContextIn(runtime, first) ?? '';
      assert.deepEqual(context.match(MARKERS), ['MARKER-RELEASE-NOTES-BODY'], `the hook's context was: ${context.slice(0, 2000)}`);
      assert.deepEqual(server.outbound, []);
    });

    it(`${runtime}: after an unrelated prompt, the model request carries no Toolshed context`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel();
      const run = await runRuntime(runtime, server, UNRELATED_PROMPT, { userSkills: TEAM_SKILLS, hookCommand: hook(runtime), trustWorkspace: true });
      assert.equal(run.exitCode, 0, run.stderr);
      const first = run.turns[0];
      assert.ok(first, `${runtime} sent no model request: ${run.stderr}`);
      assert.equal(hookContextIn(runtime, first), undefined);
      assert.equal(first.allText.match(MARKERS), null);
    });

    it(`${runtime}: skills of a workspace the runtime does not trust never reach the model through the hook; trusted, they do`, async function () {
      skipUnlessRunnable(this, runtime);
      const server = await startModel();
      const setup = { workspaceSkills: [RELEASE_NOTES], hookCommand: hook(runtime) };
      const untrusted = await runRuntime(runtime, server, MATCHING_PROMPT, { ...setup, trustWorkspace: false });
      assert.equal(untrusted.exitCode, 0, untrusted.stderr);
      assert.ok(untrusted.turns.length > 0, `${runtime} sent no model request: ${untrusted.stderr}`);
      for (const turn of untrusted.turns) assert.equal(turn.allText.match(MARKERS), null, 'a skill body from the untrusted workspace reached the model');
      const trusted = await runRuntime(runtime, server, MATCHING_PROMPT, { ...setup, trustWorkspace: true });
      assert.equal(trusted.exitCode, 0, trusted.stderr);
      assert.match(hookContextIn(runtime, trusted.turns[0]!) ?? '', /MARKER-RELEASE-NOTES-BODY/);
    });
  }
});
