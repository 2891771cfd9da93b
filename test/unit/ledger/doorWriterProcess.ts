import { recordDoorDecision } from '../../../src/core/runtimes/doors/doorDecision';

/** A door process for doors.test.ts: records N decisions for a workspace, as N hook runs would. */
const [home, workspace, name, count] = process.argv.slice(2) as [string, string, string, string];
for (let i = 0; i < Number(count); i++) {
  const error = recordDoorDecision(
    workspace,
    {
      door: i % 2 ? 'mcp' : 'hook',
      runtime: name,
      action: i % 2 ? 'skill_search' : 'inject',
      request: `request ${i}`,
      injected: [`skill-${name}-${i}`],
      searches: 1,
      tokens: 10,
    },
    { home },
  );
  if (error) throw new Error(error);
}
process.stdout.write('done\n');
