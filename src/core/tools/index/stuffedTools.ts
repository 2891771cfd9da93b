import type { FieldStats } from '../../search/bm25f';
import { broadVocabulary, STUFFED_FACTOR } from '../../search/broadVocabulary';
import type { ToolField } from './toolDocument';

/**
 * Tools whose text looks stuffed (search/broadVocabulary.ts): a name, description and tags whose
 * vocabulary is far broader than the catalog's usual. Tool descriptions are third-party text, and
 * a description listing hundreds of common words shares a word or two with almost any request.
 * Such a tool stays searchable (`tool_search` still finds it) but is never activated by the gate
 * on its own, and the user is shown why.
 */

const DESCRIBING: Readonly<Record<ToolField, number>> = { name: 1, tags: 1, description: 1, paramNames: 0, paramDescriptions: 0 };

/** Why the tool looks stuffed (for the user), or undefined when it does not. */
export function stuffedReason(stats: FieldStats<ToolField>, toolName: string): string | undefined {
  const breadth = broadVocabulary(stats, toolName, DESCRIBING);
  return breadth && `its description uses ${breadth.terms} different words, over ${STUFFED_FACTOR}× the catalog's usual (${breadth.usual})`;
}
