// @ts-check
// `npm run package`: production build, then `toolshed.vsix` with vsce, then checks that the VSIX
// holds only what runs. Exits non-zero when a check fails; `npm test` runs it and counts each
// check. Relative README links are kept relative (--no-rewrite-relative-links) and the README's
// images are shipped (docs/images, allow-listed in .vscodeignore), so they resolve in VS Code's
// extension page without a public repository URL.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readZipEntries, readZipEntry } from './zipEntries.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VSIX = path.join(ROOT, 'toolshed.vsix');
// 4 MB: about 1.5 MB of it is the bundled word vectors of hybrid ranking (dist/word-vectors.bin); the CLI
// (dist/cli.js and the dist/cliMain.js it loads, which setup copies to ~/.toolshed/bin) adds about 300 KB (3.53 MB → 3.82 MB when it was added).
export const VSIX_MAX_BYTES = 4 * 1024 * 1024;

/**
 * What may be in the VSIX: the extension bundle, the CLI bundle, the parser thread, sql.js's wasm, the word
 * table, generated schemas, media, packs, and the images the README shows. Not source maps, not
 * sources or tests. The CLI ships because `toolshed setup` (and Set Up Agent Runtimes…) copies it to
 * ~/.toolshed/bin, where the agent runtimes' hook and MCP entries run it.
 */
const ALLOWED = [
  /^extension\/package\.json$/,
  /^extension\/dist\/extension\.js$/,
  /^extension\/dist\/cli\.js$/, // the launcher's source: what the runtimes' hook and MCP entries run
  /^extension\/dist\/cliMain\.js$/, // the CLI it loads (all but the hook's fast path)
  /^extension\/dist\/hookClient\.js$/, // the hook's fast path beside it
  /^extension\/dist\/parseWorker\.js$/, // parses large skill and example files off the extension host's thread
  /^extension\/dist\/sql-wasm\.wasm$/,
  /^extension\/dist\/schemas\/[\w.-]+\.json$/,
  /^extension\/dist\/related-terms\.txt$/, // the WordNet table of the vocabulary bridge
  /^extension\/dist\/word-vectors\.bin$/, // the bundled embedding of hybrid ranking
  /^extension\/media\//,
  /^extension\/skill-packs\//,
  /^extension\/(readme|changelog)\.md$/i,
  /^extension\/LICENSE(\.txt)?$/,
  /^extension\.vsixmanifest$/,
  /^\[Content_Types\]\.xml$/,
];

/**
 * @param {string} command
 * @param {string[]} args
 */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

/**
 * Image links of a Markdown text (a leading `./` dropped).
 * @param {string} markdown
 */
function imageLinks(markdown) {
  return [...markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1].replace(/^\.\//, ''));
}

/** Relative image links of the README (what VS Code's extension page shows from the VSIX). */
export function readmeImages() {
  return imageLinks(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).filter((href) => !/^[a-z]+:/i.test(href));
}

/**
 * Width and height from a PNG's IHDR chunk, or undefined when the bytes are not a PNG.
 * @param {Buffer} bytes
 */
function pngSize(bytes) {
  const signature = '89504e470d0a1a0a';
  if (bytes.length < 24 || bytes.subarray(0, 8).toString('hex') !== signature || bytes.toString('ascii', 12, 16) !== 'IHDR') return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export function buildVsix() {
  run(process.execPath, ['esbuild.mjs', '--production']);
  const vsce = path.join(path.dirname(createRequire(path.join(ROOT, 'package.json')).resolve('@vscode/vsce/package.json')), 'vsce');
  // .vscodeignore plus the README's images (a static glob would ship every screenshot).
  const ignoreFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'toolshed-vsix-')), '.vscodeignore');
  const base = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8');
  writeFileSync(
    ignoreFile,
    `${base.trimEnd()}\n${readmeImages()
      .map((href) => `!${href}`)
      .join('\n')}\n`,
  );
  try {
    run(process.execPath, [
      vsce,
      'package',
      '--no-dependencies',
      '--no-rewrite-relative-links',
      '--allow-missing-repository',
      '--ignoreFile',
      ignoreFile,
      '--out',
      VSIX,
    ]);
  } finally {
    rmSync(path.dirname(ignoreFile), { recursive: true, force: true });
  }
}

/** @typedef {{ title: string, ok: boolean, detail: string }} VsixCheck */

/**
 * Checks of the built VSIX, each `{ title, ok, detail }`.
 * @returns {VsixCheck[]}
 */
export function checkVsix(file = VSIX) {
  /** @type {VsixCheck[]} */
  const checks = [];
  /** @type {(title: string, ok: unknown, detail?: string) => unknown} */
  const check = (title, ok, detail = '') => checks.push({ title, ok: Boolean(ok), detail });
  if (!existsSync(file)) {
    check('the VSIX exists', false, `${file} is missing`);
    return checks;
  }
  check('the VSIX exists', true);
  const size = statSync(file).size;
  check(`the VSIX is smaller than 4 MB (${(size / 1024).toFixed(0)} KB)`, size < VSIX_MAX_BYTES, `${size} bytes`);
  const names = readZipEntries(readFileSync(file)).map((entry) => entry.name);
  const images = readmeImages();
  const shown = new Set(images.map((href) => `extension/${href}`));
  const stray = names.filter((name) => !shown.has(name) && !ALLOWED.some((pattern) => pattern.test(name)));
  check('it holds only what runs (bundle, wasm, word table, schemas, media, skill packs, README images)', stray.length === 0, stray.slice(0, 10).join(', '));
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const needed = [
    manifest.main,
    'dist/cli.js',
    'dist/cliMain.js',
    'dist/sql-wasm.wasm',
    'dist/parseWorker.js',
    'dist/word-vectors.bin',
    'dist/related-terms.txt',
  ].map((p) => `extension/${p.replace(/^\.\//, '')}`);
  const missing = needed.filter((p) => !names.includes(p));
  check(
    "it holds the extension entry point, the CLI and what it reads (sql.js's wasm, the parser thread, the word vectors and table)",
    missing.length === 0,
    missing.join(', '),
  );
  // esbuild.mjs leaves zod's translations out (≈ 260 KB a bundle); German stands for all of them.
  const translated = ['dist/extension.js', 'dist/cliMain.js', 'dist/parseWorker.js'].filter((p) =>
    readFileSync(path.join(ROOT, p), 'utf8').includes('Ungültige Eingabe'),
  );
  check("the bundles hold no translation of zod's messages (English only)", translated.length === 0, translated.join(', '));
  const unresolved = images.filter((href) => !names.includes(`extension/${href}`));
  check(`every README image (${images.length}) is inside the VSIX`, images.length > 0 && unresolved.length === 0, unresolved.join(', '));
  const zip = readFileSync(file);
  // The README as packaged (what the extension page renders): its image links must still be
  // relative and resolve to files of the package, not to a URL vsce made up.
  const packagedReadme = names.find((name) => /^extension\/readme\.md$/i.test(name));
  const packagedImages = imageLinks(packagedReadme ? (readZipEntry(zip, packagedReadme)?.toString('utf8') ?? '') : '');
  const broken = packagedImages.filter((href) => /^[a-z]+:/i.test(href) || !names.includes(`extension/${href}`));
  check(
    `the packaged README's images (${packagedImages.length}) resolve to files in the package`,
    packagedImages.length > 0 && broken.length === 0,
    broken.slice(0, 5).join(', ') || 'no packaged README',
  );
  const iconPath = manifest.icon ? `extension/${manifest.icon.replace(/^\.\//, '')}` : undefined;
  const icon = iconPath ? readZipEntry(zip, iconPath) : undefined;
  const iconSize = icon ? pngSize(icon) : undefined;
  check(
    "the manifest's icon is a 128×128 PNG in the package",
    iconSize?.width === 128 && iconSize.height === 128,
    icon ? `${iconPath}: ${iconSize ? `${iconSize.width}×${iconSize.height}` : 'not a PNG'}` : `icon ${manifest.icon ?? '(none)'} not in the VSIX`,
  );
  const activityBar = manifest.contributes?.viewsContainers?.activitybar?.[0]?.icon;
  check(
    'the activity bar keeps its SVG icon',
    typeof activityBar === 'string' && activityBar.endsWith('.svg') && names.includes(`extension/${activityBar.replace(/^\.\//, '')}`),
    String(activityBar),
  );
  return checks;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildVsix();
  const checks = checkVsix();
  for (const c of checks) console.log(`  ${c.ok ? '✓' : '✗'} ${c.title}${c.ok || !c.detail ? '' : `: ${c.detail}`}`);
  process.exitCode = checks.every((c) => c.ok) ? 0 : 1;
}
