import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TOOLSHED_VERSION } from '../../core/platform/version';
import { escapeForLine } from '../../core/platform/lineText';
import { toolshedHome } from '../../core/runtimes/doors/doorFolder';
import { describePlan, SetupError } from '../../core/runtimes/setup/setupPlan';
import { prepareSetup } from '../../core/runtimes/setup/runtimeSetup';
import { SETUP_RUNTIMES, type SetupRuntime } from '../../core/runtimes/setup/runtimeTargets';
import { nodeRuntime } from '../../core/runtimes/setup/launcher';
import type { CliCommand } from '../cliCommand';
import { UsageError } from './cliInput';
import { parseArgs } from './toolCliSupport';

export const setupCommand: CliCommand = {
  path: ['setup'],
  summary: "Write (or --remove) Toolshed's hook and MCP server entries in Copilot CLI, Claude Code or Codex",
  usage: [
    'Usage: toolshed setup copilot|claude|codex [--user | --workspace DIR] [--remove] [--gateway] [--dry-run]',
    '',
    "Writes the runtime's prompt-submit hook (toolshed hook <runtime>) and its MCP server entry (toolshed mcp) in the",
    "runtime's own config files: the user's (--user, the default) or the workspace DIR's (--workspace). The entries run a",
    'copy of this CLI in ~/.toolshed/bin (TOOLSHED_HOME moves it), so they survive an update of the extension.',
    'Prints each change (file, entry, before and after); a second run changes nothing. Entries Toolshed did not write are',
    'never touched; a file that cannot be parsed is refused, never overwritten; each file is backed up once',
    '(<file>.toolshed-backup) before its first change.',
    '--remove removes only the entries setup wrote. --gateway adds the toolshed-gateway entry (toolshed mcp --upstream',
    '~/.toolshed/gateway.mcp.json, created empty when absent). --dry-run prints the changes and writes nothing.',
    'Exit code: 0 on success, 1 when a file is refused, 2 on usage errors.',
  ].join('\n'),
  async run(args, io) {
    const parsed = parseArgs(args, { switches: ['user', 'remove', 'gateway', 'dry-run'], values: ['workspace'] });
    const [runtime, ...extra] = parsed.positional;
    if (!runtime || !SETUP_RUNTIMES.includes(runtime as SetupRuntime)) throw new UsageError(`which runtime? One of ${SETUP_RUNTIMES.join(', ')}.`);
    if (extra.length) throw new UsageError(`unexpected "${escapeForLine(extra.join(' '))}".`);
    const workspace = parsed.flags.get('workspace');
    if (workspace !== undefined && parsed.flags.has('user')) throw new UsageError('--user and --workspace exclude each other.');
    if (typeof workspace === 'string' && !existsSync(workspace)) throw new UsageError(`--workspace ${escapeForLine(workspace)} does not exist.`);
    const dryRun = parsed.flags.has('dry-run');
    const remove = parsed.flags.has('remove');
    try {
      const setup = prepareSetup({
        runtime: runtime as SetupRuntime,
        scope: typeof workspace === 'string' ? 'workspace' : 'user',
        workspace: path.resolve(typeof workspace === 'string' ? workspace : process.cwd()),
        remove,
        gateway: parsed.flags.has('gateway'),
        userHome: os.homedir(),
        toolshedHome: toolshedHome(),
        launcher: nodeRuntime({ executable: process.execPath, electron: false }),
        // The bundled CLI runs from dist/; the built-in pack is beside dist/ (the extension's root).
        source: { distDir: __dirname, packsRoot: path.dirname(__dirname), version: TOOLSHED_VERSION },
        ...(process.env.CODEX_HOME ? { codexHome: process.env.CODEX_HOME } : {}),
      });
      io.stdout(describePlan(setup.plan, dryRun).split('\n').map(escapeForLine).join('\n'));
      if (dryRun) {
        for (const note of setup.notes) io.stdout(`Would ${escapeForLine(note[0]!.toLowerCase() + note.slice(1))}\n`);
        return 0;
      }
      for (const line of setup.apply()) io.stdout(`${escapeForLine(line)}\n`);
      return 0;
    } catch (error) {
      if (!(error instanceof SetupError)) throw error;
      io.stderr(`toolshed setup: ${escapeForLine(error.message)}\n`);
      return 1;
    }
  },
};
