import type * as vscode from 'vscode';
import type { z } from 'zod';
import { describeToolInputError } from '../../core/schema/zodSchemas';
import type { ToolshedServices } from '../services';
import { textResult } from './toolResults';

/**
 * Shared body of the two learning report tools: nothing is recorded while learning is off; the
 * input is validated, `record` keeps it (through learning's writes, which tell the views) and says
 * what it did, and bad input becomes a message the model can act on.
 */
export function learningReportTool<S extends z.ZodType>(
  services: Pick<ToolshedServices, 'learning'>,
  name: string,
  schema: S,
  invocationMessage: string,
  record: (input: z.output<S>) => Promise<string>,
): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: () => ({ invocationMessage }),
    async invoke(options) {
      if (!services.learning.enabled) return textResult(learningOffMessage());
      try {
        return textResult(await record(schema.parse(options.input)));
      } catch (error) {
        return textResult(describeToolInputError(name, error));
      }
    },
  };
}

function learningOffMessage(): string {
  return 'Learning is off in this workspace (setting toolshed.learning.mode, and it is always off in an untrusted workspace). Nothing was recorded; continue without it.';
}
