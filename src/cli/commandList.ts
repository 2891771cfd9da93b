import type { CliCommand } from './cliCommand';

/**
 * Every CLI subcommand, in the order `--help` lists them. Add one import and one entry per
 * command module under ./commands.
 */
export const COMMANDS: readonly CliCommand[] = [
];
