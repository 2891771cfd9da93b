/**
 * Which skills an agent runtime listed to the model in one request: those *described* (name and
 * description) and those shown by name only, parsed from the text the runtime really sent (the
 * formats are in docs/harnesses.md, "What each runtime sends the model"). The reach bench and the
 * runtime tests read the same parse.
 */
import type { RuntimeName } from './runtimeHarness';
import type { ModelTurn } from './scriptedModelServer';

export interface SkillListing {
  /** Names listed with their description, in the runtime's order. */
  described: string[];
  /** Names listed without a description. */
  namedOnly: string[];
  /** Skills the runtime says it left out ("… and N more"), when it says so. */
  saidMore: number;
  /** Characters of the listing block (its tokens ≈ chars / 4). */
  chars: number;
}

const EMPTY: SkillListing = { described: [], namedOnly: [], saidMore: 0, chars: 0 };

/** The text between `start` and `end` (both included), or undefined. */
function block(text: string, start: string, end: string): string | undefined {
  const a = text.indexOf(start);
  if (a < 0) return undefined;
  const b = text.indexOf(end, a + start.length);
  return b < 0 ? text.slice(a) : text.slice(a, b + end.length);
}

function copilotListing(text: string): SkillListing {
  const listing = block(text, '<available_skills>', '</available_skills>');
  if (!listing) return EMPTY;
  const described = [...listing.matchAll(/<name>([^<]*)<\/name>\s*<description>/g)].map((m) => (m[1] ?? '').trim());
  const namedOnly: string[] = [];
  let saidMore = 0;
  const byName = /Additional skills available \(invoke by name\):([^\n<]*)/.exec(listing);
  for (const item of (byName?.[1] ?? '').split(', ')) {
    // The list ends "last-name... and 48 more".
    const more = /^(.*?)\s*(?:…|\.\.\.)\s*and ([\d,]+) more\.?$/.exec(item.trim());
    const name = (more ? (more[1] ?? '') : item).trim();
    if (more) saidMore += Number((more[2] ?? '0').replace(/,/g, ''));
    if (name) namedOnly.push(name);
  }
  return { described, namedOnly, saidMore, chars: listing.length };
}

function lineListing(listing: string, line: RegExp): SkillListing {
  const described: string[] = [];
  const namedOnly: string[] = [];
  let saidMore = 0;
  for (const text of listing.split('\n')) {
    const more = /(?:…|\.\.\.)\s*and ([\d,]+) more/.exec(text);
    if (more) saidMore += Number((more[1] ?? '0').replace(/,/g, ''));
    const m = line.exec(text);
    if (!m) continue;
    if (m[2]?.trim()) described.push(m[1] ?? '');
    else namedOnly.push(m[1] ?? '');
  }
  return { described, namedOnly, saidMore, chars: listing.length };
}

function claudeListing(text: string): SkillListing {
  const start = text.indexOf('The following skills are available for use with the Skill tool:');
  if (start < 0) return EMPTY;
  // The list is the run of "- " lines after the heading (and its blank line).
  const lines = text.slice(start).split('\n');
  let end = 1;
  while (end < lines.length && lines[end]?.trim() === '') end++;
  while (end < lines.length && lines[end]?.startsWith('- ')) end++;
  return lineListing(lines.slice(0, end).join('\n'), /^- (\S+?)(?:: (.*))?$/);
}

function codexListing(text: string): SkillListing {
  const listing = block(text, '<skills_instructions>', '</skills_instructions>');
  if (!listing) return EMPTY;
  // "- name: description (file: r0/name/SKILL.md)"; past its budget "- name: (file: …)".
  return lineListing(listing, /^- ([^\s:]+):? ?(.*?) ?\(file: [^)]*\)\s*$/);
}

/** The skills `runtime` showed the model in `turn`, parsed from what it sent. */
export function skillsShownInRequest(runtime: RuntimeName, turn: ModelTurn): SkillListing {
  if (runtime === 'copilot') return copilotListing(turn.allText);
  if (runtime === 'claude') return claudeListing(turn.allText);
  return codexListing(turn.allText);
}
