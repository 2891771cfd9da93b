import { recordDoorDecision } from '../../../src/core/runtimes/doors/doorDecision';

/** A door process for doors.test.ts: records N decisions for a workspace, as N hook runs would (optionally into small journal segments). */
const [home, workspace, name, count, segmentBytes] = process.argv.slice(2) as [string, string, string, string, string | undefined];
const journalLimits = segmentBytes ? { segmentBytes: Number(segmentBytes), keepBytes: Number.MAX_SAFE_INTEGER } : undefined;
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
    { home, journalLimits },
  );
  if (error) throw new Error(error);
}
process.stdout.write('done\n');
