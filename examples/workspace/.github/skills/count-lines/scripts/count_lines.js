/**
 * Count the lines of the given files (paths relative to the workspace folder).
 * Usage: node count_lines.js [--save] <file>...
 */
const fs = require('node:fs');

const save = process.argv.includes('--save');
const files = process.argv.slice(2).filter((arg) => arg !== '--save');
if (files.length === 0) {
  console.error('Give at least one file.');
  process.exit(2);
}
const lines = [];
let failed = false;
for (const file of files) {
  try {
    const text = fs.readFileSync(file, 'utf8');
    const count = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    lines.push(`${file}: ${count} lines`);
  } catch (error) {
    failed = true;
    console.error(`${file}: ${error.code ?? error.message}`);
  }
}
console.log(lines.join('\n'));
if (save) fs.writeFileSync('line-counts.txt', `${lines.join('\n')}\n`);
process.exit(failed ? 1 : 0);
