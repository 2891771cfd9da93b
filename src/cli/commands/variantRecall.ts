/**
 * BFCL pools every definition of a function from all its test cases; where two definitions
 * share a name, the later ones are renamed `name__v2`, `name__v3`, … (the data set's README).
 * Those variants are paraphrases of one function (get_current_weather has 62), and a query's
 * gold is the variant that came with its test case, so no ranker can tell them apart from the
 * query alone. This splits recall by whether the gold has variants, and also counts a hit on
 * any variant of the gold ("family"), so a report can separate ranking from that label noise.
 */

const VARIANT_SUFFIX = /__v\d+$/;

export function variantFamily(name: string): string {
  return name.replace(VARIANT_SUFFIX, '');
}

interface VariantTally {
  queries: number;
  exact5: number;
  exact10: number;
  family5: number;
  family10: number;
}

export interface VariantRecall {
  queries: number;
  recall_at_5: number;
  recall_at_10: number;
  family_recall_at_5: number;
  family_recall_at_10: number;
}

export class VariantRecallCounter {
  private readonly familySize = new Map<string, number>();
  private readonly single: VariantTally = { queries: 0, exact5: 0, exact10: 0, family5: 0, family10: 0 };
  private readonly variants: VariantTally = { queries: 0, exact5: 0, exact10: 0, family5: 0, family10: 0 };

  constructor(toolNames: Iterable<string>) {
    for (const name of toolNames) {
      const family = variantFamily(name);
      this.familySize.set(family, (this.familySize.get(family) ?? 0) + 1);
    }
  }

  /** True when the catalog has any `__vN` variants (otherwise there is nothing to split). */
  get hasVariants(): boolean {
    for (const size of this.familySize.values()) if (size > 1) return true;
    return false;
  }

  add(gold: readonly string[], ranked: readonly string[]): void {
    const families = new Set(gold.map(variantFamily));
    const withVariants = [...families].some((f) => (this.familySize.get(f) ?? 0) > 1);
    const tally = withVariants ? this.variants : this.single;
    const exact = ranked.findIndex((n) => gold.includes(n));
    const family = ranked.findIndex((n) => families.has(variantFamily(n)));
    tally.queries++;
    if (exact >= 0 && exact < 5) tally.exact5++;
    if (exact >= 0 && exact < 10) tally.exact10++;
    if (family >= 0 && family < 5) tally.family5++;
    if (family >= 0 && family < 10) tally.family10++;
  }

  report(): { gold_single_definition: VariantRecall; gold_with_variants: VariantRecall } {
    return { gold_single_definition: summarise(this.single), gold_with_variants: summarise(this.variants) };
  }
}

function summarise(t: VariantTally): VariantRecall {
  const share = (count: number) => Number((count / Math.max(t.queries, 1)).toFixed(3));
  return {
    queries: t.queries,
    recall_at_5: share(t.exact5),
    recall_at_10: share(t.exact10),
    family_recall_at_5: share(t.family5),
    family_recall_at_10: share(t.family10),
  };
}
