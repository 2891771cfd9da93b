import { existsSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The `toolshed` program (`dist/cli.js`): a few lines that choose what to load. A hook call goes
 * to the hook's fast path (`dist/hookClient.js`, src/cli/hookClient.ts), which asks the resident
 * hook and loads the CLI only when none answers; everything else to the CLI (`dist/cliMain.js`,
 * src/cli/main.ts). The CLI is a file of its own because V8 parses a whole script before it runs
 * its first line: with the CLI's 1.4 MB in this file, every prompt the resident hook answered
 * spent ~70 ms of a ~150 ms answer parsing code it never ran.
 */
if (process.argv[2] === 'hook' && existsSync(path.join(__dirname, 'hookClient.js'))) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require('./hookClient.js');
} else {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./cliMain.js') as typeof import('./main')).runProgram();
}
