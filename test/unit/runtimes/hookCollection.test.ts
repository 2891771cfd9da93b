import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';
import { collectGarbage } from '../../../src/core/platform/heapCollection';
import { openDoorSession } from '../../../src/core/runtimes/doorSession';
import { runPromptHook } from '../../../src/core/runtimes/promptHook';
import { makeWorld, PDF_SKILL, writeSkill } from './hookFixtures';
import type { HookWorld } from './hookFixtures';

/** Full collections forced by code (V8's `gc`), as the process's own GC entries report them. */
function forcedCollections() {
  const forced: PerformanceEntry[] = [];
  let waiting: (() => void) | undefined;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const flags = (entry as PerformanceEntry & { detail?: { flags?: number } }).detail?.flags ?? 0;
      if (flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced.push(entry);
    }
    waiting?.();
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    /**
     * How many forced collections started before a marker collection made now (entries arrive
     * in order, later than they happen: once the marker's has arrived, every earlier one has too).
     */
    async countBeforeMarker(): Promise<number> {
      const markerStart = performance.now();
      assert.ok(collectGarbage(), 'this process can force a collection');
      await new Promise<void>((resolve) => {
        waiting = () => {
          if (forced.some((entry) => entry.startTime >= markerStart)) resolve();
        };
        waiting();
      });
      waiting = undefined;
      observer.disconnect();
      return forced.filter((entry) => entry.startTime < markerStart).length;
    },
  };
}

/** 1,000 skills in Claude Code's user folder: a cold load that reads at least COLLECT_AFTER_FILES_READ files. */
function worldWithALibrary(): HookWorld {
  const world = makeWorld();
  const folder = path.join(world.home, '.claude', 'skills');
  writeSkill(folder, PDF_SKILL.name, PDF_SKILL.description, PDF_SKILL.body);
  for (let i = 0; i < 999; i++) writeSkill(folder, `library-skill-${i}`, `Library skill number ${i} about topic ${i % 37}.`, `# Skill ${i}\nStep one.`);
  return world;
}

// After a cold load of a large library, a door that lives on (resident hook, MCP server) frees the
// load's garbage before it searches; the one-shot hook exits right after its answer, so a
// collection there would only delay the runtime's prompt.
describe('the heap collection after a large cold load: where it happens', function () {
  this.timeout(120_000);

  it('the one-shot hook answers without forcing a collection', async () => {
    const world = worldWithALibrary();
    const gcs = forcedCollections();
    const answer = await runPromptHook(JSON.stringify({ prompt: PDF_SKILL.prompt, cwd: world.workspace, hook_event_name: 'UserPromptSubmit' }), {
      runtime: 'claude',
      cwd: world.workspace,
      home: world.home,
      env: {},
      toolshedHome: world.toolshedHome,
      budgetMs: 600_000,
      record: () => undefined,
    });
    assert.ok(answer.stdout.includes(PDF_SKILL.name), `the hook answered from the loaded library: ${answer.stdout}${answer.stderr ?? ''}`);
    assert.equal(await gcs.countBeforeMarker(), 0);
  });

  it('a door that lives on collects once after the same cold load', async () => {
    const world = worldWithALibrary();
    const gcs = forcedCollections();
    const door = await openDoorSession({ runtime: 'claude', workspaceFolder: world.workspace, home: world.home, env: {}, toolshedHome: world.toolshedHome });
    try {
      const preflight = await door.preflight(PDF_SKILL.prompt);
      assert.deepEqual(
        preflight.injected.map((s) => s.name),
        [PDF_SKILL.name],
      );
    } finally {
      await door.dispose();
    }
    assert.equal(await gcs.countBeforeMarker(), 1);
  });
});
