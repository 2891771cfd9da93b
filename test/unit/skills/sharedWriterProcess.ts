/**
 * One writer process for the shared-store tests (run with `node --import tsx`): like a VS Code
 * window, it opens the user's shared skill store in DIR and writes to it through the lock file.
 *
 *   write DIR WRITER COUNT  — adds COUNT global skills `<WRITER>-<i>` and, with each, +1 helpful
 *                             on the common counter `shared-counter`; prints "done".
 *   hold DIR                — takes the lock, prints "locked" and never lets go (to be killed).
 */
import { nullLogger, systemClock } from '../../../src/core/platform/basicPorts';
import { NodeByteStore } from '../../../src/core/platform/nodeByteStore';
import { NodeFileLock } from '../../../src/core/platform/nodeFileLock';
import { learnedRecord } from '../../../src/core/skills/store/skillRecords';
import { makeScope } from '../../../src/core/skills/store/skillScope';
import { SHARED_SKILLS_LOCK, SharedSkillStore } from '../../../src/core/skills/store/learned/sharedSkillStore';
import type { SkillRecord } from '../../../src/core/skills/skillSchema';
import { loadSqlEngine } from '../../../src/core/sql/sqlEngine';

export function globalSkill(name: string): SkillRecord {
  return learnedRecord({ name, trigger: `When ${name} is needed`, steps: [`Do ${name}.`] }, makeScope('global'), 1);
}

export const SHARED_COUNTER = 'shared-counter';

async function main(): Promise<void> {
  const [command, dir, writer, count] = process.argv.slice(2);
  if (!dir) throw new Error('usage: write DIR WRITER COUNT | hold DIR');
  const lock = new NodeFileLock(dir, SHARED_SKILLS_LOCK, { timeoutMs: 60_000 });
  if (command === 'hold') {
    await lock.withLock(async () => {
      process.stdout.write('locked\n');
      await new Promise(() => undefined);
    });
    return;
  }
  const engine = await loadSqlEngine({});
  const shared = new SharedSkillStore({ engine, bytes: new NodeByteStore(dir), lock, logger: nullLogger, clock: systemClock });
  for (let i = 0; i < Number(count); i++) {
    await shared.write({
      upsert: [globalSkill(`${writer}-${i}`)],
      counters: [{ name: SHARED_COUNTER, helpful: 1, harmful: 0, use_count: 1, last_used: Date.now(), last_validated: 0 }],
    });
  }
  process.stdout.write('done\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
