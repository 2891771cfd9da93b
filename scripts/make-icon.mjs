// `node scripts/make-icon.mjs`: media/toolshed.png (the Marketplace / Extensions view icon,
// 128×128) from media/toolshed.svg (the activity-bar icon, which stays an outline in
// `currentColor`). The outline is drawn in white on a rounded square; Debian's rsvg-convert
// (`apt-get install librsvg2-bin`) renders it. Run at development time; the PNG is committed.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = path.join(ROOT, 'media', 'toolshed.svg');
const TARGET = path.join(ROOT, 'media', 'toolshed.png');
export const ICON_SIZE = 128;
const BACKGROUND = '#2f6f4f';

/**
 * The 128×128 icon as SVG: the activity-bar glyph, scaled and centred on a rounded square.
 * @param {string} glyphSvg
 */
export function iconSvg(glyphSvg) {
  const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(glyphSvg)?.[1];
  if (!inner) throw new Error(`${SOURCE} is not an <svg> document`);
  const body = inner.replace(/<!--[\s\S]*?-->/g, '').trim();
  // The glyph's 24×24 box, scaled to 88 px and centred (20 px margin).
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${ICON_SIZE}" height="${ICON_SIZE}" viewBox="0 0 ${ICON_SIZE} ${ICON_SIZE}">
  <rect width="${ICON_SIZE}" height="${ICON_SIZE}" rx="24" fill="${BACKGROUND}"/>
  <g transform="translate(20 20) scale(${88 / 24})" fill="none" stroke="#ffffff" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round">
    ${body}
  </g>
</svg>
`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const svg = iconSvg(readFileSync(SOURCE, 'utf8'));
  const result = spawnSync('rsvg-convert', ['--width', String(ICON_SIZE), '--height', String(ICON_SIZE), '--format', 'png'], {
    input: svg,
    maxBuffer: 1 << 24,
  });
  if (result.error || result.status !== 0) {
    console.error(`rsvg-convert failed (${result.error?.message ?? result.stderr.toString()}). Install it: sudo apt-get install librsvg2-bin`);
    process.exit(1);
  }
  writeFileSync(TARGET, result.stdout);
  console.log(`${path.relative(ROOT, TARGET)}: ${result.stdout.length} bytes, ${ICON_SIZE}×${ICON_SIZE}`);
}
