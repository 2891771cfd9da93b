/**
 * How the loop's steps ("Searching tools for …", "Activated `x`", "Running `x`") are written
 * into the answer. VS Code counts every transient progress message in "Completed N steps" but
 * shows none of them once the answer is done, so the steps are written as a quoted block of
 * lines instead: everything counted is visible, and model text after them starts a paragraph.
 * Pure: the VS Code adapter only forwards the chunks to the response stream.
 */
export interface StepWriter {
  /** Markdown for one step line. */
  step(message: string): string;
  /** Markdown for streamed model text (a paragraph break first when it follows steps). */
  text(text: string): string;
  /** The step messages written so far, in order. */
  readonly steps: readonly string[];
}

export function createStepWriter(): StepWriter {
  const steps: string[] = [];
  let inSteps = false;
  let atParagraphStart = true;
  return {
    steps,
    step(message) {
      steps.push(message);
      const prefix = inSteps || atParagraphStart ? '' : '\n\n';
      inSteps = true;
      // Two trailing spaces: a line break inside the one quote block.
      return `${prefix}> ${message.replace(/\s*\n\s*/g, ' ')}  \n`;
    },
    text(text) {
      if (!text) return '';
      const prefix = inSteps ? '\n' : '';
      inSteps = false;
      atParagraphStart = /\n\s*\n\s*$/.test(text);
      return `${prefix}${text}`;
    },
  };
}
