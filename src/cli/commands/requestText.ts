import { skillSearchInputSchema } from '../../core/skills/skillToolSchemas';
import { toolSearchInputSchema } from '../../core/tools/toolSearchSchema';

/**
 * What a bench sends as the request, and how it says so. A bench measures the path users take:
 * `skill_search` and pre-flight take the whole request (up to the skill query limit), while
 * `tool_search` takes at most its own limit, so a bench cuts only where the tool it calls would,
 * and its output names the cut and how many requests it shortened (`request_text`, `requests_cut`).
 */
export interface RequestText {
  /** The request as the searched tool takes it. */
  readonly text: (request: string) => string;
  /** The output fields that say what was sent. */
  readonly describe: (requests: readonly string[]) => { request_text: string; requests_cut: number };
}

function cutAt(limit: number, label: string): RequestText {
  return {
    text: (request) => (request.length > limit ? request.slice(0, limit) : request),
    describe: (requests) => ({ request_text: label, requests_cut: requests.filter((r) => r.length > limit).length }),
  };
}

const SKILL_QUERY_LIMIT = skillSearchInputSchema.shape.query.maxLength ?? 20_000;
const TOOL_QUERY_LIMIT = toolSearchInputSchema.shape.query.maxLength ?? 500;

/** `skill_search` and skill pre-flight: the whole request, cut only past the query limit. */
export const skillRequestText = cutAt(SKILL_QUERY_LIMIT, `whole request (skill_search takes up to ${SKILL_QUERY_LIMIT} characters; longer ones cut there)`);

/** `tool_search`: the model's query, which the tool takes up to its limit. */
export const toolSearchRequestText = cutAt(TOOL_QUERY_LIMIT, `first ${TOOL_QUERY_LIMIT} characters (tool_search's query limit)`);
