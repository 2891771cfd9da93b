import * as path from 'node:path';
import * as esbuild from 'esbuild';

/** Builds the parser thread's script into `folder` the way esbuild.mjs builds `dist/parseWorker.js`; returns its path. */
export async function buildParseWorker(folder: string): Promise<string> {
  const script = path.join(folder, 'parseWorker.js');
  await esbuild.build({
    entryPoints: [path.join(__dirname, '../../../src/workers/parseWorker.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
  return script;
}
