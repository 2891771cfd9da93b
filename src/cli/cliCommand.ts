/** One CLI subcommand. `path` is the words that select it, e.g. ['search', 'tools']. */
export interface CliCommand {
  readonly path: readonly string[];
  /** One line for `toolshed --help`. */
  readonly summary: string;
  /** Full usage text for `toolshed <path> --help`. */
  readonly usage: string;
  /** Runs with the arguments after `path`; returns the process exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}
