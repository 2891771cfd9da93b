import { z } from 'zod';

/** Input contracts of the two learning LM tools (snake_case: models read them). */

export const skillReportOutcomeInputSchema = z
  .object({
    names: z.array(z.string().trim().min(1).max(128)).min(1).max(20).describe('Names of the skills you followed (from skill_get or the injected skills).'),
    outcome: z.enum(['helpful', 'harmful']).describe('helpful: following them led to a good result. harmful: they were wrong, outdated or misleading.'),
    note: z.string().max(500).optional().describe('Optional: one sentence on why.'),
  })
  .strict();

export const skillReportFailureInputSchema = z
  .object({
    tool: z.string().trim().min(1).max(128).describe('The tool that failed.'),
    error: z.string().trim().min(1).max(2000).describe('The error it returned (secrets and personal data are removed before anything is kept).'),
    note: z.string().max(500).optional().describe('Optional: what to do instead next time.'),
  })
  .strict();
