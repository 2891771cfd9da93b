// @ts-check
// Builds (or grows) the skills-at-scale dev pool, bench/data/skills-at-scale/pool.jsonl.gz, from
// local bare git snapshots of public repositories (`<mirror>/<owner>+<repo>/repo`). Only the
// SKILL.md files are taken, never code. A repository is used only under a permissive licence
// (root LICENSE, or a per-skill LICENSE file when the root has none); a skill whose own front
// matter or folder licence is not permissive is left out. Byte-identical duplicates are dropped
// (near-copies stay: they are what real skill collections look like); files over 256 KB too.
//
// Ids are stable: entries already in the pool are kept as they are and new ones are appended, so
// the gold ids in requests.jsonl never go stale. Then SOURCES.md, licenses/ and catalog.tsv are
// rewritten from the pool.
//
//   node scripts/build-skills-pool.mjs [--mirror /work/.mirror]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeSkillsCatalog } from './build-skills-catalog.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dataDir = path.join(root, 'bench', 'data', 'skills-at-scale');
const poolFile = path.join(dataDir, 'pool.jsonl.gz');
const mirrorArg = process.argv.indexOf('--mirror');
const mirror = mirrorArg > 0 ? process.argv[mirrorArg + 1] : '/work/.mirror';
const MAX_BYTES = 256 * 1024;

/**
 * Sources in the order they were added (order decides which copy of a byte-identical file is
 * kept). `cap` takes a deterministic sample (by SHA-1 of the path); raising it only adds.
 * @type {{ repo: string, cap?: number }[]}
 */
const SOURCES = [
  { repo: 'anthropics/skills' },
  { repo: 'obra/superpowers' },
  { repo: 'K-Dense-AI/claude-scientific-skills' },
  { repo: 'PranavNagrecha/AwesomeSalesforceSkills' },
  { repo: 'mukul975/Anthropic-Cybersecurity-Skills' },
  { repo: 'alirezarezvani/claude-skills' },
  { repo: 'terrylica/cc-skills' },
  { repo: 'wshobson/agents' },
  { repo: 'affaan-m/everything-claude-code' },
  { repo: 'github/awesome-copilot' },
  { repo: 'sickn33/antigravity-awesome-skills' },
  { repo: 'davila7/claude-code-templates' },
  { repo: 'openclaw/skills' },
  { repo: 'agentskillexchange/skills', cap: 1000 },
];

/** Translated copies of a collection's skills: a user loads one language, not all of them. */
const LOCALE_DIR = /(^|\/)(zh|zh-cn|zh-tw|zh-hans|zh-hant|ja|ja-jp|ko|ko-kr|pt|pt-br|es|fr|de|ru|tr|vi|it|id|ar|hi)\//i;
const NOT_A_SKILL_DIR = /(^|\/)(node_modules|test|tests|fixtures|__fixtures__|\.git)\//;

/**
 * The licence a text grants, or '' when it is not one of the permissive ones we may ship.
 * @param {string} text
 */
function permissiveLicence(text) {
  if (/NonCommercial|NoDerivatives|ShareAlike|GNU (Affero |Lesser )?General Public/i.test(text)) return '';
  if (/Apache License[\s\S]{0,40}Version 2\.0/i.test(text)) return 'Apache-2.0';
  if (/Permission is hereby granted, free of charge/i.test(text)) return 'MIT';
  if (/Permission to use, copy, modify, and\/?or distribute this software for any purpose/i.test(text)) return 'ISC';
  if (/Redistribution and use in source and binary forms/i.test(text)) return 'BSD';
  if (/CC0 1\.0|Creative Commons Zero|No Copyright/i.test(text)) return 'CC0-1.0';
  if (/Attribution 4\.0 International/i.test(text)) return 'CC-BY-4.0';
  return '';
}

/** @param {string} skillText */
function frontMatterLicence(skillText) {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(skillText);
  if (!fm) return undefined;
  const line = /^license:\s*(.+)$/im.exec(fm[1]);
  return line ? line[1].trim().replace(/^["']|["']$/g, '') : undefined;
}

/**
 * Whether a skill's own `license:` field forbids shipping it: a non-permissive licence, or a
 * pointer to terms elsewhere when its folder has no permissive licence file.
 * @param {string} value @param {boolean} folderLicensed
 */
function skillLicenceForbids(value, folderLicensed) {
  if (/^(mit|mit-0|apache[- ]?2(\.0)?|apache license 2\.0|bsd(-[23]-clause)?|isc|cc0(-1\.0)?|cc-by(-4\.0)?)$/i.test(value)) return false;
  if (/proprietary|rights reserved|commercial|gpl|share-?alike|cc-by-(nc|sa|nd)/i.test(value)) return true;
  return /terms|license\.txt|see /i.test(value) && !folderLicensed;
}

/** @param {string} gitDir @param {string[]} args */
function git(gitDir, args) {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** Reads many blobs at once. @param {string} gitDir @param {string[]} shas */
function readBlobs(gitDir, shas) {
  const out = execFileSync('git', [`--git-dir=${gitDir}`, 'cat-file', '--batch'], { input: shas.join('\n') + '\n', maxBuffer: 1 << 30 });
  /** @type {Map<string, Buffer>} */
  const blobs = new Map();
  let at = 0;
  while (at < out.length) {
    const nl = out.indexOf(10, at);
    const [sha, , size] = out.subarray(at, nl).toString().split(' ');
    const start = nl + 1;
    blobs.set(sha, out.subarray(start, start + Number(size)));
    at = start + Number(size) + 1;
  }
  return blobs;
}

/** @param {string} s */
const sha1 = (s) => createHash('sha1').update(s).digest('hex');

/** @returns {{ id: string, repo: string, commit: string, path: string, license: string, text: string }[]} */
function readPool() {
  if (!existsSync(poolFile)) return [];
  return gunzipSync(readFileSync(poolFile))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

const pool = readPool();
const seenIds = new Set(pool.map((e) => e.id));
const seenText = new Set(pool.map((e) => sha1(e.text)));
/** @type {Map<string, { commit: string, license: string, licenceText: string, taken: number, date: string }>} */
const sourceInfo = new Map();

for (const { repo, cap } of SOURCES) {
  const gitDir = path.join(mirror, repo.replace('/', '+'), 'repo');
  if (!existsSync(gitDir)) {
    console.error(`skip ${repo}: no snapshot at ${gitDir}`);
    continue;
  }
  const commit = git(gitDir, ['rev-parse', 'HEAD']).trim();
  const date = git(gitDir, ['log', '-1', '--format=%cs', 'HEAD']).trim();
  const tree = git(gitDir, ['ls-tree', '-r', '-l', 'HEAD'])
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [meta, file] = line.split('\t');
      const [, type, sha, size] = meta.split(/\s+/);
      return { type, sha, size: Number(size), file };
    })
    .filter((e) => e.type === 'blob');
  const rootLicence = tree.find((e) => /^(LICEN[CS]E|COPYING)(\.md|\.txt)?$/i.test(e.file));
  const rootText = rootLicence ? (readBlobs(gitDir, [rootLicence.sha]).get(rootLicence.sha)?.toString('utf8') ?? '') : '';
  const rootKind = permissiveLicence(rootText);
  let files = tree.filter((e) => /(^|\/)SKILL\.md$/.test(e.file) && e.size <= MAX_BYTES && !LOCALE_DIR.test(e.file) && !NOT_A_SKILL_DIR.test(e.file));
  files.sort((a, b) => (sha1(a.file) < sha1(b.file) ? -1 : 1));
  if (cap !== undefined) files = files.slice(0, cap);
  const folderLicences = new Map(tree.filter((e) => /(^|\/)LICEN[CS]E(\.md|\.txt)?$/i.test(e.file)).map((e) => [path.posix.dirname(e.file), e.sha]));
  const blobs = readBlobs(gitDir, [...files.map((f) => f.sha), ...folderLicences.values()]);
  let taken = 0;
  let licenceText = rootText;
  let licence = rootKind;
  for (const f of files) {
    const id = `${repo}/${f.file}`;
    if (seenIds.has(id)) {
      taken++;
      continue;
    }
    const text = blobs.get(f.sha)?.toString('utf8') ?? '';
    if (!text.startsWith('---')) continue;
    const folderSha = folderLicences.get(path.posix.dirname(f.file));
    const folderText = folderSha ? (blobs.get(folderSha)?.toString('utf8') ?? '') : '';
    const kind = folderSha ? permissiveLicence(folderText) : rootKind;
    if (!kind) continue;
    const own = frontMatterLicence(text);
    if (own !== undefined && skillLicenceForbids(own, folderSha !== undefined)) continue;
    const hash = sha1(text);
    if (seenText.has(hash)) continue;
    seenText.add(hash);
    seenIds.add(id);
    if (!rootKind) {
      licence = kind;
      licenceText = folderText;
    }
    pool.push({ id, repo, commit, path: f.file, license: kind, text });
    taken++;
  }
  if (taken > 0) sourceInfo.set(repo, { commit, license: licence, licenceText, taken, date });
  console.error(`${repo}: ${taken} taken of ${files.length} (${rootKind || 'per-skill licence'})`);
}

mkdirSync(path.join(dataDir, 'licenses'), { recursive: true });
writeFileSync(poolFile, gzipSync(pool.map((e) => JSON.stringify(e)).join('\n') + '\n', { level: 9 }));
for (const [repo, info] of sourceInfo) {
  writeFileSync(path.join(dataDir, 'licenses', `${repo.replace('/', '__')}.txt`), info.licenceText);
}
const counts = new Map();
for (const e of pool) counts.set(e.repo, (counts.get(e.repo) ?? 0) + 1);
const rows = [...new Set(pool.map((e) => e.repo))].map((repo) => {
  const first = pool.find((e) => e.repo === repo);
  const info = sourceInfo.get(repo);
  return `| https://github.com/${repo} | ${first?.commit} | ${first?.license} | ${counts.get(repo)} | ${info?.date ?? ''} | \`licenses/${repo.replace('/', '__')}.txt\` |`;
});
// The prose above the table is kept as it is; only the table and the total are rewritten.
const sourcesFile = path.join(dataDir, 'SOURCES.md');
const sources = existsSync(sourcesFile) ? readFileSync(sourcesFile, 'utf8').split('\n| repository |')[0] : '# Sources\n';
writeFileSync(
  sourcesFile,
  `${sources.trimEnd()}\n\n| repository | commit | licence | SKILL.md files taken | commit date | licence text |\n|---|---|---|---|---|---|\n${rows.join('\n')}\n\nTotal: ${pool.length} files from ${rows.length} repositories.\n`,
);
writeSkillsCatalog();
console.error(`pool: ${pool.length} skills`);
