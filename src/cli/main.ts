import { TOOLSHED_VERSION } from '../core/platform/version';
import type { CliCommand, CliIo } from './cliCommand';
import { COMMANDS } from './commandList';
import { UsageError } from './commands/cliInput';
import { escapeForLine } from '../core/platform/lineText';
import { z } from 'zod';
import { describeZodIssues } from '../core/schema/zodSchemas';

/** The hook's in-process run, for the fast path (`dist/hookClient.js`) when no resident hook answered. */
export { answerInProcess } from './commands/hook';

function helpText(commands: readonly CliCommand[]): string {
  const width = Math.max(16, ...commands.map((c) => c.path.join(' ').length + 2));
  const lines = commands.map((c) => `  toolshed ${c.path.join(' ').padEnd(width)}${c.summary}`);
  return [
    `toolshed ${TOOLSHED_VERSION} — tool search and skills from the command line`,
    '',
    'Usage:',
    ...lines,
    `  toolshed ${'--help'.padEnd(width)}Show this help (or "toolshed <command> --help", e.g. "toolshed bench --help")`,
    `  toolshed ${'--version'.padEnd(width)}Print the version`,
    '',
  ].join('\n');
}

/** `toolshed bench --help` and the like: the subcommands under a first word. */
function groupHelp(word: string, commands: readonly CliCommand[]): string {
  const group = commands.filter((c) => c.path.length > 1 && c.path[0] === word);
  const width = Math.max(...group.map((c) => c.path.join(' ').length + 2));
  return [
    `Usage: toolshed ${word} <${group.map((c) => c.path[1]).join('|')}> …`,
    '',
    ...group.map((c) => `  toolshed ${c.path.join(' ').padEnd(width)}${c.summary}`),
    '',
    `"toolshed ${word} <subcommand> --help" shows its options.`,
    '',
  ].join('\n');
}

/** Picks the command whose path matches the longest prefix of argv. */
function findCommand(argv: string[], commands: readonly CliCommand[]): CliCommand | undefined {
  return [...commands].sort((a, b) => b.path.length - a.path.length).find((c) => c.path.every((word, i) => argv[i] === word));
}

export async function main(argv: string[], io: CliIo, commands: readonly CliCommand[] = COMMANDS): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout(helpText(commands));
    return 0;
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    io.stdout(`${TOOLSHED_VERSION}\n`);
    return 0;
  }
  const command = findCommand(argv, commands);
  if (!command) {
    if (commands.some((c) => c.path.length > 1 && c.path[0] === argv[0])) {
      if (argv[1] === '--help' || argv[1] === '-h') {
        io.stdout(groupHelp(argv[0], commands));
        return 0;
      }
      io.stderr(`toolshed: ${argv.length === 1 ? 'which' : 'unknown'} command "${escapeForLine(argv.join(' '))}"?\n${groupHelp(argv[0], commands)}`);
      return 2;
    }
    io.stderr(`toolshed: unknown command "${escapeForLine(argv.join(' '))}". Run "toolshed --help".\n`);
    return 2;
  }
  const rest = argv.slice(command.path.length);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage.endsWith('\n') ? command.usage : `${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // An option the engine's own schema refuses (`--limit 50` where 20 is the most) is a mistake in the call too.
    const message =
      error instanceof UsageError ? error.message : error instanceof z.ZodError ? escapeForLine(describeZodIssues(error, 'arguments')) : undefined;
    if (message === undefined) throw error;
    // A mistake in the call: say which, with the usage line (its first), and exit 2.
    const usageLine = command.usage.split('\n')[0] ?? '';
    io.stderr(`toolshed ${command.path.join(' ')}: ${message}\n${usageLine}\nRun "toolshed ${command.path.join(' ')} --help" for the options.\n`);
    return 2;
  }
}

/** Runs the command line of this process (`dist/cli.js` calls it) and sets its exit code. */
export function runProgram(): void {
  // A reader that stops early (`toolshed ledger | head`) closes the pipe: the rest of the output has
  // nowhere to go, which is not an error of the command; anything else on stdout still is.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // Messages may quote a bad input line: escaped, so they cannot drive the terminal.
      process.stderr.write(`toolshed: ${escapeForLine(error instanceof Error ? error.message : String(error))}\n`);
      process.exitCode = 1;
    },
  );
}

// Run as a program of its own (`node dist/cliMain.js …`, or the source under tsx).
if (require.main === module) runProgram();
