/**
 * Ports: the small interfaces through which `src/core` talks to the outside world.
 * The VS Code layer and the CLI supply implementations; tests supply in-memory ones.
 * Nothing here may import `vscode`.
 */

/** Leveled logger. The VS Code adapter writes to the "Toolshed" LogOutputChannel. */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
}

/** A structured event (docs/contracts.md#events). */
export interface ToolshedEvent {
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
}

/** Where core events go. The VS Code adapter logs each one as a single structured line. */
export interface EventSink {
  emit(event: ToolshedEvent): void;
}

/**
 * Key → bytes persistence for the sql.js databases. `write` must be atomic: after a crash the
 * key holds either the old or the new bytes, never a torn file.
 */
export interface ByteStore {
  /** A new array each call, the caller's to change: a database's bytes become sql.js's file (sql/fileBytes.ts). */
  read(key: string): Promise<Uint8Array | undefined>;
  /** Parts are written one after another as one file, never joined into one array first (a large file need not be copied to be written). */
  write(key: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void>;
  /** Move a key's bytes aside (e.g. a corrupt database kept as a backup). No-op when absent. */
  rename(fromKey: string, toKey: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Wall clock in epoch milliseconds; injectable so tests are deterministic. */
export interface Clock {
  now(): number;
}

/**
 * Counts tokens of prompt text. Core default is len/4 (docs/contracts.md#token-estimate); in VS Code the
 * adapter uses the request model's exact `countTokens`.
 */
export interface TokenCounter {
  count(text: string): Promise<number>;
}

export type FileKind = 'file' | 'directory' | 'symlink' | 'other';

export interface DirectoryEntry {
  name: string;
  kind: FileKind;
}

/** What a stat of a path (never following a symbolic link) tells. */
export interface FileStat {
  kind: FileKind;
  size: number;
  mtimeMs: number;
}

/** Read-only file access for skill packs and example files. */
export interface FileSystemPort {
  readFile(path: string): Promise<Uint8Array>;
  /** Entries directly inside a folder; `undefined` when the folder does not exist. */
  readDirectory(path: string): Promise<DirectoryEntry[] | undefined>;
  stat(path: string): Promise<FileStat | undefined>;
  /**
   * Synchronous twins of `readDirectory` and `stat` (same results and errors), for loops over
   * thousands of files that run in short slices between turns of the event loop (platform/
   * hostSlices.ts): a sync call costs a fraction of an async one. A port without them is used
   * asynchronously.
   */
  readDirectorySync?(path: string): DirectoryEntry[] | undefined;
  statSync?(path: string): FileStat | undefined;
  /**
   * A regular file's bytes, synchronously, or undefined (absent, a link, not a regular file, over
   * `maxBytes`): how the skill store reads a pack skill's body from its file when the skill is
   * fetched, and a load reads skill files (in slices, as above). A port without it keeps bodies
   * in the store. Never blocks on a FIFO or device, even one swapped in after a check.
   */
  readRegularFileSync?(path: string, maxBytes: number): Uint8Array | undefined;
}

/**
 * Creating new files in a folder the user chose (Export as Skill Pack): the VS Code layer goes
 * through workspace.fs, the CLI through node:fs. Never used to overwrite.
 */
export interface PackFolderWriter {
  /** Whether anything (file or folder) exists at that path. */
  exists(file: string): Promise<boolean>;
  /** Creates the parent folders, then the file; fails rather than overwrite an existing one. */
  writeFile(file: string, text: string): Promise<void>;
}

/** Starts a program without a shell (skill scripts); implemented over node:child_process in nodeProcesses.ts. */
export interface SpawnRequest {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

export interface SpawnedProcess {
  readonly pid: number | undefined;
  onStdout(listener: (chunk: Uint8Array) => void): void;
  onStderr(listener: (chunk: Uint8Array) => void): void;
  /** The process ended and its output streams are closed. */
  onClose(listener: (code: number | null, signal: string | null) => void): void;
  /** The process could not be started (or another OS error). */
  onError(listener: (error: Error) => void): void;
  /** Kills the process and every process in its group (no-op when already gone). */
  killTree(): void;
}

export interface ProcessPort {
  spawn(request: SpawnRequest): SpawnedProcess;
}

/**
 * A lock shared by every process of this user on this machine (e.g. every VS Code window):
 * `withLock` runs `fn` while no other holder runs its own. Implemented over a lock file in
 * nodeFileLock.ts; used so writers of one shared database reload, change and save it in turn.
 */
export interface FileLock {
  withLock<T>(fn: () => Promise<T>): Promise<T>;
}
