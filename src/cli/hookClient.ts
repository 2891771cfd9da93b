import * as path from 'node:path';
import type { CliIo } from './cliCommand';
import { askResidentFirst, parseHookArgs, readStdin, refuseHook } from './commands/hookIo';
import { MAX_HOOK_EVENT_BYTES } from '../core/runtimes/runtimeDescriptors';

/**
 * The fast path of `toolshed hook <runtime>` (`dist/hookClient.js`): `dist/cli.js` hands a hook
 * call here before it loads anything else (src/cli/entry.ts), so a prompt answered by the resident hook costs Node's
 * start, this small file and one connection — not the whole CLI with its engine. When no
 * resident hook answers, the full CLI is loaded after all and runs the hook in-process.
 */

const io: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** The full CLI (`dist/cliMain.js`, beside this file). */
function fullCli(): typeof import('./main') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(path.join(__dirname, 'cliMain.js')) as typeof import('./main');
}

async function runHook(): Promise<number> {
  const started = Date.now();
  const call = parseHookArgs(process.argv.slice(3));
  if ('problem' in call || call.serve) return fullCli().main(process.argv.slice(2), io);
  const input = await readStdin(MAX_HOOK_EVENT_BYTES, started + call.budgetMs);
  const resident = await askResidentFirst(call.runtime, input, started, call.budgetMs, io);
  if (resident.answered) return 0;
  return fullCli().answerInProcess(call.runtime, input.bytes, started, call.budgetMs, resident.startResident, io);
}

runHook().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = refuseHook(io, error instanceof Error ? error.message : String(error));
  },
);
