/**
 * What @toolshed says when the model a request names cannot answer: which models
 * exist and how to pick one. Pure, so the wording is tested without a workbench.
 */
export interface ModelLabel {
  name: string;
  vendor: string;
}

const labelOf = (model: ModelLabel) => `${model.name} (${model.vendor})`;

/** The note above an answer given by a substitute model. */
export function substituteModelNote(requested: ModelLabel | undefined, used: ModelLabel): string {
  const what = requested ? `The selected model ${labelOf(requested)} is not available` : 'No model was selected for this request';
  return `_${what}, so Toolshed answered with ${labelOf(used)}. Pick another model in the chat's model picker._\n\n`;
}

/** The whole answer when no model is available at all. */
export function noModelAnswer(requested: ModelLabel | undefined): string {
  return [
    requested
      ? `The selected model ${labelOf(requested)} is not available, and no other language model is installed or signed in.`
      : 'No language model is available.',
    "Sign in to GitHub Copilot or install an extension that provides a chat model, then pick it in the chat's model picker.",
    'Meanwhile `/tools`, `/skills`, `/skill <name>` and `/search <words>` work without a model.',
  ].join('\n\n');
}

export interface ModelTraits extends ModelLabel {
  id: string;
  family: string;
}

/** Words vendors use for their small, cheap models (gpt-4o-mini, claude-3-5-haiku, gemini-flash, …). */
const SMALL_MODEL_WORDS = new Set(['mini', 'nano', 'haiku', 'flash', 'lite', 'small', 'tiny']);
const isSmall = (model: ModelTraits) =>
  `${model.family} ${model.id} ${model.name}`
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => SMALL_MODEL_WORDS.has(word));

/**
 * A smaller model of the request model's vendor to choose the active skills with (a short,
 * closed-list answer a small model gives as well, at a fraction of the cost), or undefined when
 * the request's model is small itself or its vendor offers no small one. Among several, the
 * one listed first.
 */
export function smallerSibling<T extends ModelTraits>(requested: ModelTraits, available: readonly T[]): T | undefined {
  if (isSmall(requested)) return undefined;
  return available.find((model) => model.vendor === requested.vendor && model.id !== requested.id && isSmall(model));
}
