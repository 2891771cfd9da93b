import { TOOLSHED_VERSION } from '../core/platform/version';

const HELP = `toolshed ${TOOLSHED_VERSION} — tool search and skills, from the command line

Usage:
  toolshed --help                 Show this help
  toolshed --version              Print the version

Commands are added by the tool-search and skills modules.
`;

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  if (argv.includes('--version') || argv.includes('-v')) {
    process.stdout.write(`${TOOLSHED_VERSION}\n`);
    return 0;
  }
  process.stderr.write(`toolshed: unknown command "${argv[0]}". Run "toolshed --help".\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (error: unknown) => {
    process.stderr.write(`toolshed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
