import { TOOLSHED_VERSION } from '../core/platform/version';
import type { CliCommand, CliIo } from './cliCommand';
import { COMMANDS } from './commandList';

function helpText(commands: readonly CliCommand[]): string {
  const width = Math.max(16, ...commands.map((c) => c.path.join(' ').length + 2));
  const lines = commands.map((c) => `  toolshed ${c.path.join(' ').padEnd(width)}${c.summary}`);
  return [
    `toolshed ${TOOLSHED_VERSION} — tool search and skills from the command line`,
    '',
    'Usage:',
    ...lines,
    `  toolshed ${'--help'.padEnd(width)}Show this help (or "toolshed <command> --help")`,
    `  toolshed ${'--version'.padEnd(width)}Print the version`,
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
    io.stderr(`toolshed: unknown command "${argv.join(' ')}". Run "toolshed --help".\n`);
    return 2;
  }
  const rest = argv.slice(command.path.length);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(command.usage.endsWith('\n') ? command.usage : `${command.usage}\n`);
    return 0;
  }
  return command.run(rest, io);
}

if (require.main === module) {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`toolshed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
