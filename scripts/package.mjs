// `npm run package`: production build, then `toolshed.vsix` with vsce, then checks that the VSIX
// holds only what runs. Exits non-zero when a check fails; `npm test` runs it and counts each
// check. Relative README links are kept relative (--no-rewrite-relative-links) and the README's
// images are shipped (docs/images, allow-listed in .vscodeignore), so they resolve in VS Code's
// extension page without a public repository URL.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readZipEntries } from './zipEntries.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VSIX = path.join(ROOT, 'toolshed.vsix');
export const VSIX_MAX_BYTES = 2 * 1024 * 1024;

/** What may be in the VSIX: the bundles, sql.js's wasm, generated schemas, media, packs, docs. */
const ALLOWED = [
  /^extension\/package\.json$/,
  /^extension\/dist\/(extension|cli)\.js$/,
  /^extension\/dist\/sql-wasm\.wasm$/,
  /^extension\/dist\/schemas\/[\w.-]+\.json$/,
  /^extension\/dist\/related-terms\.txt$/, // the WordNet table of the vocabulary bridge
  /^extension\/media\//,
  /^extension\/skill-packs\//,
  /^extension\/docs\/images\/[\w.-]+\.png$/,
  /^extension\/(readme|changelog)\.md$/i,
  /^extension\/LICENSE(\.txt)?$/,
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

export function buildVsix() {
  run(process.execPath, ['esbuild.mjs', '--production']);
  const vsce = path.join(path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('@vscode/vsce/package.json')), 'vsce');
  run(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '--allow-missing-repository', '--out', VSIX]);
}

/** Checks of the built VSIX, each `{ title, ok, detail }`. */
export function checkVsix(file = VSIX) {
  const checks = [];
  const check = (title, ok, detail = '') => checks.push({ title, ok: Boolean(ok), detail });
  if (!existsSync(file)) {
    check('the VSIX exists', false, `${file} is missing`);
    return checks;
  }
  check('the VSIX exists', true);
  const size = statSync(file).size;
  check(`the VSIX is smaller than 2 MB (${(size / 1024).toFixed(0)} KB)`, size < VSIX_MAX_BYTES, `${size} bytes`);
  const names = readZipEntries(readFileSync(file)).map((entry) => entry.name);
  const stray = names.filter((name) => !ALLOWED.some((pattern) => pattern.test(name)));
  check('it holds only what runs (bundles, wasm, schemas, media, skill packs, README images)', stray.length === 0, stray.slice(0, 10).join(', '));
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const needed = [manifest.main, 'dist/sql-wasm.wasm', 'dist/cli.js'].map((p) => `extension/${p.replace(/^\.\//, '')}`);
  const missing = needed.filter((p) => !names.includes(p));
  check('it holds the extension entry point, the CLI and sql.js\'s wasm', missing.length === 0, missing.join(', '));
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/i.test(href));
  const unresolved = images.filter((href) => !names.includes(`extension/${href.replace(/^\.\//, '')}`));
  check(`every README image (${images.length}) is inside the VSIX`, images.length > 0 && unresolved.length === 0, unresolved.join(', '));
  return checks;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildVsix();
  const checks = checkVsix();
  for (const c of checks) console.log(`  ${c.ok ? '✓' : '✗'} ${c.title}${c.ok || !c.detail ? '' : `: ${c.detail}`}`);
  process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
}
