// @ts-check
// The README's screenshots ship inside the VSIX, whose size is capped (scripts/package.mjs). A
// browser's screenshot of the workbench holds about 1,500 colours, nearly all of them the
// anti-aliased edges of text; stored with a 256-colour palette the same picture takes about half
// the bytes. The palette keeps every colour when there are 256 or fewer; otherwise it is chosen
// greedily by how many pixels a colour would serve better than the colours already chosen, so a
// small icon's rare colour is kept as well as the background's.
import { readFileSync, writeFileSync } from 'node:fs';
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const PALETTE_SIZE = 256;

/** @param {Buffer} png @returns {{ width: number, height: number, rgb: Buffer } | undefined} */
function decodeRgb(png) {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  /** @type {Buffer | undefined} */
  let header;
  /** @type {Buffer | undefined} */
  let plte;
  /** @type {Buffer[]} */
  const data = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    if (type === 'IHDR') header = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'PLTE') plte = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IDAT') data.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  if (!header) throw new Error('no IHDR chunk');
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const colourType = header[9];
  const channels = colourType === 2 ? 3 : colourType === 6 ? 4 : colourType === 3 && plte ? 1 : 0;
  // What a browser writes (8-bit RGB or RGBA, not interlaced) and what this writes; anything else is left as it is.
  if (header[8] !== 8 || header[12] !== 0 || channels === 0) return undefined;
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const row = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[row + x - channels] : 0;
      const b = y > 0 ? pixels[row - stride + x] : 0;
      const c = y > 0 && x >= channels ? pixels[row - stride + x - channels] : 0;
      pixels[row + x] = (raw[y * (stride + 1) + 1 + x] + predict(filter, a, b, c)) & 255;
    }
  }
  const rgb = Buffer.alloc(width * height * 3);
  if (channels === 1 && plte) {
    for (let i = 0; i < pixels.length; i++) plte.copy(rgb, i * 3, pixels[i] * 3, pixels[i] * 3 + 3);
    return { width, height, rgb };
  }
  for (let i = 0, o = 0; i < pixels.length; i += channels, o += 3) {
    // A screenshot is opaque; a transparent pixel would lose its alpha here.
    if (channels === 4 && pixels[i + 3] !== 255) return undefined;
    rgb[o] = pixels[i];
    rgb[o + 1] = pixels[i + 1];
    rgb[o + 2] = pixels[i + 2];
  }
  return { width, height, rgb };
}

/** @param {number} filter @param {number} a @param {number} b @param {number} c */
function predict(filter, a, b, c) {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`unknown row filter ${filter}`);
  }
}

/** @param {number} p @param {number} q */
function distance(p, q) {
  const dr = (p >> 16) - (q >> 16);
  const dg = ((p >> 8) & 255) - ((q >> 8) & 255);
  const db = (p & 255) - (q & 255);
  return dr * dr + dg * dg + db * db;
}

/** @param {Buffer} rgb @returns {number[]} */
function choosePalette(rgb) {
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (let i = 0; i < rgb.length; i += 3) {
    const colour = (rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2];
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const colours = [...counts.keys()];
  if (colours.length <= PALETTE_SIZE) return colours;
  const weight = colours.map((colour) => counts.get(colour) ?? 0);
  const nearest = colours.map(() => Infinity);
  /** @type {number[]} */
  const palette = [];
  while (palette.length < PALETTE_SIZE) {
    let best = -1;
    let bestGain = -1;
    for (let i = 0; i < colours.length; i++) {
      const gain = weight[i] * Math.min(nearest[i], 1 << 20);
      if (gain > bestGain) {
        bestGain = gain;
        best = i;
      }
    }
    if (bestGain <= 0) break;
    palette.push(colours[best]);
    for (let i = 0; i < colours.length; i++) nearest[i] = Math.min(nearest[i], distance(colours[i], colours[best]));
  }
  return palette;
}

/** @param {number} width @param {number} height @param {Buffer} rgb @param {number[]} palette */
function encodeIndexed(width, height, rgb, palette) {
  /** @type {Map<number, number>} */
  const indexOf = new Map();
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0, i = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    for (let x = 0; x < width; x++, i += 3) {
      const colour = (rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2];
      let index = indexOf.get(colour);
      if (index === undefined) {
        index = 0;
        for (let p = 1; p < palette.length; p++) if (distance(colour, palette[p]) < distance(colour, palette[index])) index = p;
        indexOf.set(colour, index);
      }
      raw[y * (width + 1) + 1 + x] = index;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 3, 0, 0, 0], 8);
  const plte = Buffer.alloc(palette.length * 3);
  palette.forEach((colour, p) => plte.set([colour >> 16, (colour >> 8) & 255, colour & 255], p * 3));
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9, memLevel: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** @param {string} type @param {Buffer} body */
function chunk(type, body) {
  const out = Buffer.alloc(12 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.write(type, 4, 'latin1');
  body.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + body.length)) >>> 0, 8 + body.length);
  return out;
}

/** The pixels of a PNG this module reads or writes, as RGB bytes (undefined for other kinds). */
export function readRgb(/** @type {string} */ file) {
  return decodeRgb(readFileSync(file));
}

/**
 * Writes `to` as a 256-colour PNG of the screenshot `from` when that is smaller (else a copy).
 * @param {string} from @param {string} to
 * @returns {{ before: number, after: number }}
 */
export function writeScreenshot(from, to) {
  const png = readFileSync(from);
  const image = decodeRgb(png);
  const indexed = image ? encodeIndexed(image.width, image.height, image.rgb, choosePalette(image.rgb)) : png;
  const out = indexed.length < png.length ? indexed : png;
  writeFileSync(to, out);
  return { before: png.length, after: out.length };
}
