// @ts-check
// `npm run screenshots`: copies the screenshots the host page checks saved in
// test-results/screenshots/ into docs/images/, where the README shows them, as 256-colour PNGs
// (scripts/screenshotPng.mjs: the VSIX ships them). Run after `npm test`.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeScreenshot } from './screenshotPng.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const from = path.join(root, 'test-results', 'screenshots');
const to = path.join(root, 'docs', 'images');
mkdirSync(to, { recursive: true });
let missing = 0;
for (const name of [
  'demo-start.png',
  'chat-participant.png',
  'sidebar.png',
  'skill-diagnostic.png',
  'workbench.png',
  'restricted-mode.png',
  'learning-chat.png',
  'learning-proposed.png',
  'skill-script-confirmation.png',
  'ledger.png',
]) {
  const source = path.join(from, name);
  if (!existsSync(source)) {
    console.error(`missing ${path.relative(root, source)} (run npm test first)`);
    missing++;
    continue;
  }
  const { before, after } = writeScreenshot(source, path.join(to, name));
  console.log(`docs/images/${name} (${Math.round(before / 1024)} KB → ${Math.round(after / 1024)} KB)`);
}
process.exitCode = missing ? 1 : 0;
