import { main } from '../../../src/cli/main';

/** Runs the CLI in-process and captures what it prints: `out`, `err`, and `all` (both, in the order printed). */
export async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string; all: string }> {
  let out = '';
  let err = '';
  let all = '';
  const code = await main(argv, {
    stdout: (t) => {
      out += t;
      all += t;
    },
    stderr: (t) => {
      err += t;
      all += t;
    },
  });
  return { code, out, err, all };
}
