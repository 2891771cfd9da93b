// @ts-check
// Builds the extension bundle, its parser thread, the CLI bundle, and copies sql.js's wasm beside them.
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildSchemas } from './scripts/build-schemas.mjs';

const require = createRequire(import.meta.url);
const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

mkdirSync('dist', { recursive: true });
// The wasm is loaded from the extension's own folder at run time, never fetched.
copyFileSync(path.join(path.dirname(require.resolve('sql.js')), 'sql-wasm.wasm'), 'dist/sql-wasm.wasm');
// The vocabulary bridge of tool search (generated from WordNet by scripts/build-related-terms.ts).
copyFileSync('src/core/search/vocabulary/related-terms.txt', 'dist/related-terms.txt');
// The bundled word vectors of hybrid ranking (built by scripts/embedding/build-word-vectors.ts).
copyFileSync('src/core/search/vocabulary/word-vectors.bin', 'dist/word-vectors.bin');
// JSON Schemas of the skill formats, generated from the zod schema (contributed via jsonValidation/yamlValidation).
await buildSchemas();

/**
 * zod imports every translation of its error messages (≈ 260 KB of each bundle) for its
 * `locales` namespace; Toolshed never reads it and its messages are English, which zod's schemas
 * load on their own. The namespace becomes an empty module (scripts/package.mjs checks that no
 * translation is shipped).
 */
/** @type {import('esbuild').Plugin} */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /[\\/]locales[\\/]index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({ contents: 'export {};', loader: 'js' }));
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'info',
  define: { __TOOLSHED_VERSION__: JSON.stringify(pkg.version) },
  plugins: [zodEnglishOnly],
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  { ...common, entryPoints: ['src/vscode/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  // Parses large skill and tool-example files on a worker thread (src/core/platform/offThreadRunner.ts).
  { ...common, entryPoints: ['src/workers/parseWorker.ts'], outfile: 'dist/parseWorker.js' },
  // The CLI (src/cli/main.ts). `dist/cli.js` below is the program that loads it.
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cliMain.js' },
  // The `toolshed` program: sends `hook …` to the fast path and the rest to the CLI, loading only the
  // one it runs (src/cli/entry.ts: V8 parses a whole script before its first line runs).
  {
    ...common,
    entryPoints: ['src/cli/entry.ts'],
    outfile: 'dist/cli.js',
    external: ['./hookClient.js', './cliMain.js'],
    banner: { js: '#!/usr/bin/env node' },
  },
  // The prompt-submit hook's fast path (src/cli/hookClient.ts): asks the resident hook, loads no engine.
  { ...common, entryPoints: ['src/cli/hookClient.ts'], outfile: 'dist/hookClient.js' },
];

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  // The CLI runs as a program of its own (`ln -s "$PWD/dist/cli.js" ~/.local/bin/toolshed`): esbuild
  // writes it without the executable bit, so every build sets it again.
  chmodSync('dist/cli.js', 0o755);
}
