// @ts-check
// The seeded generator of the plain-ESM benches and data scripts (mulberry32, in [0, 1)), so a
// synthetic corpus is the same in every run. The bundled TypeScript benches use its twin, `rng`
// in bench/benchMath.ts: a CommonJS TypeScript file cannot import this module.

/**
 * @param {number} seed
 * @returns {() => number}
 */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
