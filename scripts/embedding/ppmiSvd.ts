// Word vectors from co-occurrence counts: positive pointwise mutual information (context
// distribution smoothed) factorised by a randomised truncated eigen-decomposition (the PPMI
// matrix of a symmetric window is symmetric). Deterministic: a seeded generator, fixed order.

export interface TrainOptions {
  dims: number;
  /** Tokens either side counted as context. */
  window: number;
  /** Context distribution smoothing exponent (0.75 is the usual choice). */
  alpha: number;
  /** Singular-value weighting: vectors = U · |λ|^power. */
  power: number;
  /** Subspace iterations of the randomised decomposition. */
  iterations: number;
  seed: number;
}

/** Symmetric co-occurrence counts over documents of word ids (1/distance weighted). */
export function cooccurrence(documents: readonly Int32Array[], vocabSize: number, window: number): Map<number, number>[] {
  const rows: Map<number, number>[] = Array.from({ length: vocabSize }, () => new Map());
  for (const doc of documents) {
    for (let i = 0; i < doc.length; i++) {
      const a = doc[i];
      if (a < 0) continue;
      for (let j = i + 1; j <= i + window && j < doc.length; j++) {
        const b = doc[j];
        if (b < 0 || b === a) continue;
        const w = 1 / (j - i);
        rows[a].set(b, (rows[a].get(b) ?? 0) + w);
        rows[b].set(a, (rows[b].get(a) ?? 0) + w);
      }
    }
  }
  return rows;
}

interface Csr {
  n: number;
  start: Int32Array;
  col: Int32Array;
  value: Float64Array;
}

export function ppmi(rows: readonly Map<number, number>[], alpha: number): Csr {
  const n = rows.length;
  const rowSum = new Float64Array(n);
  rows.forEach((row, i) => {
    for (const v of row.values()) rowSum[i] += v;
  });
  let smoothedTotal = 0;
  const ctx = new Float64Array(n);
  for (let i = 0; i < n; i++) smoothedTotal += ctx[i] = Math.pow(rowSum[i], alpha);
  const start = new Int32Array(n + 1);
  const cols: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    const entries = [...rows[i]].sort((x, y) => x[0] - y[0]);
    for (const [j, count] of entries) {
      const pmi = Math.log((count * smoothedTotal) / (rowSum[i] * ctx[j]));
      if (pmi > 0) {
        cols.push(j);
        values.push(pmi);
      }
    }
    start[i + 1] = cols.length;
  }
  return { n, start, col: Int32Array.from(cols), value: Float64Array.from(values) };
}

/** Y = M·X for a CSR matrix M (n × n) and a dense X (n × k, row-major). */
function multiply(m: Csr, x: Float64Array, k: number): Float64Array {
  const y = new Float64Array(m.n * k);
  for (let i = 0; i < m.n; i++) {
    const yi = i * k;
    for (let p = m.start[i]; p < m.start[i + 1]; p++) {
      const v = m.value[p];
      const xj = m.col[p] * k;
      for (let c = 0; c < k; c++) y[yi + c] += v * x[xj + c];
    }
  }
  return y;
}

/** Orthonormalises the columns of X (n × k, row-major) in place (modified Gram–Schmidt, twice). */
function orthonormalize(x: Float64Array, n: number, k: number): void {
  for (let pass = 0; pass < 2; pass++) {
    for (let c = 0; c < k; c++) {
      for (let prev = 0; prev < c; prev++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += x[i * k + c] * x[i * k + prev];
        for (let i = 0; i < n; i++) x[i * k + c] -= dot * x[i * k + prev];
      }
      let norm = 0;
      for (let i = 0; i < n; i++) norm += x[i * k + c] ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < n; i++) x[i * k + c] /= norm;
    }
  }
}

/** Eigen-decomposition of a small symmetric matrix (cyclic Jacobi): values and column vectors. */
function jacobi(a: Float64Array, k: number): { values: Float64Array; vectors: Float64Array } {
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) v[i * k + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < k; p++) for (let q = p + 1; q < k; q++) off += a[p * k + q] ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q];
        if (Math.abs(apq) < 1e-15) continue;
        const theta = (a[q * k + q] - a[p * k + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p];
          const arq = a[r * k + q];
          a[r * k + p] = c * arp - s * arq;
          a[r * k + q] = s * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r];
          const aqr = a[q * k + r];
          a[p * k + r] = c * apr - s * aqr;
          a[q * k + r] = s * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p];
          const vrq = v[r * k + q];
          v[r * k + p] = c * vrp - s * vrq;
          v[r * k + q] = s * vrp + c * vrq;
        }
      }
    }
  }
  const values = new Float64Array(k);
  for (let i = 0; i < k; i++) values[i] = a[i * k + i];
  return { values, vectors: v };
}

/** A seeded generator (mulberry32) so the same corpus always gives the same vectors. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Rows: one `dims`-long vector per word (n × dims, row-major), from the largest eigenvalues. */
export function embed(m: Csr, options: TrainOptions): Float64Array {
  const k = options.dims + 16;
  const next = random(options.seed);
  let x: Float64Array = new Float64Array(m.n * k);
  for (let i = 0; i < x.length; i++) x[i] = next() * 2 - 1;
  orthonormalize(x, m.n, k);
  for (let it = 0; it < options.iterations; it++) {
    x = multiply(m, x, k);
    orthonormalize(x, m.n, k);
  }
  // B = Xᵀ M X (k × k), then M ≈ X V Λ Vᵀ Xᵀ.
  const mx = multiply(m, x, k);
  const b = new Float64Array(k * k);
  for (let i = 0; i < m.n; i++) {
    for (let r = 0; r < k; r++) {
      const xr = x[i * k + r];
      if (xr === 0) continue;
      for (let c = 0; c < k; c++) b[r * k + c] += xr * mx[i * k + c];
    }
  }
  for (let r = 0; r < k; r++) for (let c = r + 1; c < k; c++) b[r * k + c] = b[c * k + r] = (b[r * k + c] + b[c * k + r]) / 2;
  const { values, vectors } = jacobi(b, k);
  const order = [...values.keys()].sort((p, q) => values[q] - values[p]).slice(0, options.dims);
  const out = new Float64Array(m.n * options.dims);
  for (let i = 0; i < m.n; i++) {
    for (let d = 0; d < options.dims; d++) {
      const e = order[d];
      let sum = 0;
      for (let r = 0; r < k; r++) sum += x[i * k + r] * vectors[r * k + e];
      out[i * options.dims + d] = sum * Math.pow(Math.max(values[e], 0), options.power);
    }
  }
  return out;
}
