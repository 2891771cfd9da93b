import { gatewayDoorRecorder } from '../../../src/mcp/gateway/gatewayLedger';

/**
 * One gateway process's calls, as the gateway records them (the parallel-writers test of
 * gatewayCoreSet.test.ts): `<home> <workspace> <tool> <count>` records `count` calls of `tool`
 * that a search had to find.
 */
const [home, workspace, tool, count] = process.argv.slice(2);
const record = gatewayDoorRecorder(
  workspace,
  () => 'writer',
  (line) => process.stderr.write(`${line}\n`),
  home,
);
for (let i = 0; i < Number(count); i++)
  record({ at: Date.now(), action: 'call', request: tool, tokens: 10, found: [], called: tool, failed: false, missed: true });
