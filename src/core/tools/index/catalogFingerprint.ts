import type { ToolRecord } from '../toolRecord';

/**
 * Catalog fingerprint: the XOR of every record hash (each a sha256 over the record, its name
 * included). Names are unique, so it identifies the set of indexed records
 * regardless of order, and is maintained in O(1) per changed row.
 */
export class XorFingerprint {
  private readonly acc = new Uint8Array(32);

  toggle(hexHash: string): void {
    const bytes = Buffer.from(hexHash, 'hex');
    for (let i = 0; i < 32 && i < bytes.length; i++) this.acc[i] ^= bytes[i];
  }

  digest(): string {
    return Buffer.from(this.acc).toString('hex');
  }
}

/** The fingerprint of a record list, computed from scratch (tests, diagnostics). */
export function catalogFingerprint(records: readonly Pick<ToolRecord, 'recordHash'>[]): string {
  const fp = new XorFingerprint();
  for (const r of records) fp.toggle(r.recordHash);
  return fp.digest();
}
