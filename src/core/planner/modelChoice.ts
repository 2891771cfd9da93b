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
    requested ? `The selected model ${labelOf(requested)} is not available, and no other language model is installed or signed in.` : 'No language model is available.',
    'Sign in to GitHub Copilot or install an extension that provides a chat model, then pick it in the chat\'s model picker.',
    'Meanwhile `/tools`, `/skills`, `/skill <name>` and `/search <words>` work without a model.',
  ].join('\n\n');
}
