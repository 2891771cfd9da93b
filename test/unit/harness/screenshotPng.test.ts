import assert from 'node:assert/strict';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { crc32, deflateSync } from 'node:zlib';
import { tempFolder } from '../../tempFolder';

interface ScreenshotPng {
  writeScreenshot(from: string, to: string): { before: number; after: number };
  readRgb(file: string): { width: number; height: number; rgb: Buffer } | undefined;
}

const load = async (): Promise<ScreenshotPng> =>
  (await import(pathToFileURL(path.join(__dirname, '..', '..', '..', 'scripts', 'screenshotPng.mjs')).href)) as ScreenshotPng;

function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}

/** An RGBA PNG as a browser writes one (filter 0 on every row, fast deflate). */
function rgbaPng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw.set([...pixel(x, y), 255], y * (width * 4 + 1) + 1 + x * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const signature = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A workbench-like picture: a light background, dark "text" strokes with many grey edges, and one small red badge. */
function workbenchLike(x: number, y: number): [number, number, number] {
  if (x >= 200 && x < 204 && y >= 10 && y < 14) return [204, 32, 32];
  const stroke = (x * 7 + y * 13) % 97;
  if (stroke < 40) {
    const grey = 240 - ((x * 31 + y * 17) % 1024) / 5;
    return [Math.round(grey), Math.round(grey), Math.round(Math.min(255, grey + (y % 3)))];
  }
  return [243, 243, 243];
}

describe('README screenshots are shipped as 256-colour PNGs (scripts/screenshotPng.mjs)', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempFolder('toolshed-png-');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a picture of more than 256 colours gets smaller, keeps a rare colour exactly and every pixel close to its own', async () => {
    const { writeScreenshot, readRgb } = await load();
    const from = path.join(dir, 'shot.png');
    const to = path.join(dir, 'out.png');
    writeFileSync(from, rgbaPng(320, 200, workbenchLike));
    const original = readRgb(from);
    assert.ok(original);
    const colours = new Set<number>();
    for (let i = 0; i < original.rgb.length; i += 3) colours.add((original.rgb[i] << 16) | (original.rgb[i + 1] << 8) | original.rgb[i + 2]);
    assert.ok(colours.size > 256, `the test picture has ${colours.size} colours`);

    const { before, after } = writeScreenshot(from, to);
    assert.ok(after < before, `${after} bytes, not fewer than ${before}`);
    assert.equal(statSync(to).size, after);
    const written = readRgb(to);
    assert.ok(written);
    assert.equal(written.width, 320);
    assert.equal(written.height, 200);
    let worst = 0;
    for (let i = 0; i < original.rgb.length; i++) worst = Math.max(worst, Math.abs(original.rgb[i] - written.rgb[i]));
    assert.ok(worst <= 12, `a channel moved by ${worst}`);
    const badge = (10 * 320 + 201) * 3;
    assert.deepEqual([...written.rgb.subarray(badge, badge + 3)], [204, 32, 32]);
  });

  it('a picture of 256 colours or fewer is written with exactly its pixels, and writing it again changes nothing', async () => {
    const { writeScreenshot, readRgb } = await load();
    const from = path.join(dir, 'few.png');
    const once = path.join(dir, 'once.png');
    const twice = path.join(dir, 'twice.png');
    writeFileSync(
      from,
      rgbaPng(64, 64, (x, y) => [(x >> 2) * 16, (y >> 2) * 16, 128]),
    );
    writeScreenshot(from, once);
    assert.deepEqual(readRgb(once)?.rgb, readRgb(from)?.rgb);
    const again = writeScreenshot(once, twice);
    assert.equal(again.after, again.before);
    assert.deepEqual(readRgb(twice)?.rgb, readRgb(from)?.rgb);
  });
});
