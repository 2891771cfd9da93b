import { strict as assert } from 'node:assert';
import { makeService, pack, tempDir, writeTree } from './helpers';
import type { SkillRequestContext } from '../../../src/core/skills/skillService';
import { skillsConfigSchema } from '../../../src/core/config/settingsSchema';

/**
 * Skills at the scale people keep them, asked the way people ask: a whole pasted task with
 * data, names and chatter in it. The right skill must come first however many incidental rare
 * words the paste holds, near-copies of one skill must not fill the list, and pre-flight's
 * relevance must let the right skill through for a long task without letting an unrelated long
 * paste inject anything.
 */

const ctx: SkillRequestContext = { includeWorkspacePacks: true };

const TOPICS: Array<[string, string]> = [
  ['git-commit-messages', 'Write conventional commit messages that explain why a change was made'],
  ['docker-multistage', 'Build small Docker images with multi-stage builds and non-root users'],
  ['react-testing', 'Test React components with Testing Library: queries, user events, async waits'],
  ['sql-query-tuning', 'Speed up slow SQL queries with indexes, EXPLAIN plans and rewritten joins'],
  ['terraform-modules', 'Structure Terraform modules with variables, outputs and remote state'],
  ['kubernetes-debugging', 'Debug crashing Kubernetes pods: events, logs, probes and resource limits'],
  ['python-packaging', 'Package a Python library with pyproject.toml and publish it to PyPI'],
  ['api-pagination', 'Paginate REST API results with cursors and page tokens'],
  ['incident-postmortem', 'Write a blameless incident postmortem with timeline and action items'],
  ['excel-formulas', 'Build spreadsheet formulas, pivot tables and conditional formatting in Excel'],
  ['slide-decks', 'Create presentation slide decks with speaker notes and consistent layouts'],
  ['security-review', 'Review code for injection, authentication and secret-handling flaws'],
  ['regex-writing', 'Write and explain regular expressions with test cases'],
  ['css-layout', 'Lay out pages with CSS grid and flexbox, responsive breakpoints included'],
  ['log-analysis', 'Find error patterns in application logs and summarise them by frequency'],
  ['email-drafting', 'Draft clear professional emails with a subject line and a call to action'],
  ['data-cleaning', 'Clean tabular data: missing values, duplicates, types and outliers with pandas'],
  ['ci-pipelines', 'Set up continuous integration pipelines with caching and test matrices'],
  ['changelog-writing', 'Keep a changelog: group changes by type and link pull requests'],
  ['accessibility-audit', 'Audit web pages for accessibility: contrast, labels, keyboard navigation'],
];

const TARGET = `---
name: pdf-form-filler
description: Fill in fillable PDF forms (AcroForm fields) from a spreadsheet or CSV, one filled PDF per row.
---
# Filling PDF forms

1. List the form's fields and their types.
2. Map each CSV column to a field; dates and checkboxes need their own format.
3. Write one filled copy per row and flatten it when asked.
`;

function skillMd(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n${body}\n`;
}

/** 20 topics × 3 variants, each body mentioning some of the paste's incidental words. */
function writePool(root: string, extra: Record<string, string> = {}): void {
  const files: Record<string, string> = { 'pdf-form-filler/SKILL.md': TARGET, ...extra };
  const incidental = ['munich', 'yeah', 'kessler', 'payroll', 'onboarding', 'colleague', 'hires', 'lohnburo', 'acrobat', 'dumped'];
  TOPICS.forEach(([name, description], i) => {
    for (let v = 0; v < 3; v++) {
      const words = incidental.filter((_, k) => (k + i + v) % 3 === 0).join(', ');
      files[`${name}-${v}/SKILL.md`] = skillMd(
        `${name}-${v}`,
        `${description} (variant ${v}).`,
        `Steps for ${description.toLowerCase()}. Example team notes mention ${words}. Check the file, the data and the output.`,
      );
    }
  });
  writeTree(root, files);
}

const PASTED_TASK = `hey, quick one (well, not that quick). Our new payroll provider Lohnburo Kessler in munich sent us their onboarding form as a PDF with fillable fields, and I have 14 new hires starting on the 1st. I really don't want to type all of this into Acrobat by hand 14 times. I dumped the field names with some python thing a colleague had lying around, this is what came out:

\`\`\`
Name_Vorname            /Tx
Geburtsdatum            /Tx   (format TT.MM.JJJJ)
Steuer_ID               /Tx
Krankenkasse            /Ch   (dropdown)
Kinder                  /Btn  (checkbox)
\`\`\`

and the HR export is a CSV like this:

\`\`\`
first,last,birth,tax_id,insurer,children
Anna,Schmidt,1990-04-12,12345678901,TK,yes
Jonas,Weber,1985-11-02,98765432109,AOK,no
\`\`\`

yeah so ideally one filled PDF per person, dates need converting, and the checkbox has to be ticked when children is yes. can you sort that out? the forms go back to them by friday.`;

const UNRELATED_PASTE = `We are comparing two mortgage offers for a flat and I can't decide. Offer A: 2.9% fixed for 10 years, 1.2% fees, 350,000 principal, 30-year term. Offer B: 3.1% fixed for 15 years, no fees, same principal. We might sell in about 8 years, maybe earlier if we move for my partner's job.

\`\`\`
offer,rate,fixed_years,fees_pct
A,2.9,10,1.2
B,3.1,15,0
\`\`\`

Which one costs less over 8 years including fees, and what happens if rates are 5% when the fixed period of A ends? Just the numbers and a short recommendation please, no need for a spreadsheet.`;

describe('skills at scale: long pasted requests', () => {
  it('skill_search ranks the skill a long paste is about first, whatever incidental rare words it holds, and takes the whole paste', async () => {
    const root = tempDir();
    writePool(root);
    const { service } = await makeService();
    await service.loadPacks([pack('pool', root)]);
    assert.ok(PASTED_TASK.length > 500, 'the request is longer than the old 500-character cut');
    const out = await service.search({ query: PASTED_TASK, limit: 5 }, ctx);
    assert.equal(out.skills[0]?.name, 'pdf-form-filler', `top: ${out.skills.map((s) => s.name).join(', ')}`);
    assert.equal(out.skills.length, 5, 'a long request finds a full list, not the few skills sharing its rarest words');
  });

  it("pre-flight's relevance passes the right skill for a long task and nothing for a long unrelated paste", async () => {
    const root = tempDir();
    writePool(root);
    const { service } = await makeService();
    await service.loadPacks([pack('pool', root)]);
    const minRelevance = skillsConfigSchema.parse({}).minRelevance;
    const task = await service.selectionCandidates(PASTED_TASK, 5, ctx);
    assert.equal(task[0]?.name, 'pdf-form-filler', `candidates: ${JSON.stringify(task)}`);
    assert.ok(task[0].relevance >= minRelevance, `relevance ${task[0].relevance} under the gate ${minRelevance}`);
    const unrelated = await service.selectionCandidates(UNRELATED_PASTE, 5, ctx);
    assert.deepEqual(unrelated, [], `an unrelated long paste passed the gate: ${JSON.stringify(unrelated)}`);
  });

  it('near-copies of one skill (same description, other packs) take one place in the list and are named there', async () => {
    const root = tempDir();
    const copies = tempDir();
    writePool(root);
    writeTree(copies, {
      'pdf-form-filler-copy/SKILL.md': TARGET.replace('name: pdf-form-filler', 'name: pdf-form-filler-copy').replace(
        'Write one filled copy',
        'Write a filled copy',
      ),
      'pdf-forms-fork/SKILL.md': TARGET.replace('name: pdf-form-filler', 'name: pdf-forms-fork').replace('# Filling PDF forms', '# Forms'),
    });
    const { service } = await makeService();
    await service.loadPacks([pack('pool', root), pack('copies', copies)]);
    const out = await service.search({ query: 'fill fillable PDF forms from CSV data, one PDF per row, and check the output file', limit: 4 }, ctx);
    const names = out.skills.map((s) => s.name);
    assert.equal(names.length, 4, 'the list still holds `limit` different skills');
    const pdf = out.skills.filter((s) => s.name.startsWith('pdf-form'));
    assert.equal(pdf.length, 1, `one place for the copies: ${names.join(', ')}`);
    assert.deepEqual(
      [...(pdf[0]?.near_copies ?? [])].sort(),
      ['pdf-form-filler', 'pdf-form-filler-copy', 'pdf-forms-fork'].filter((n) => n !== pdf[0]?.name).sort(),
    );
  });

  it('numbers are data on a long request too: a pasted sensor CSV does not reach a WCAG 2.1 skill on its numbers', async () => {
    const root = tempDir();
    writePool(root, {
      'wcag-audit/SKILL.md': skillMd(
        'wcag-audit',
        'WCAG 2.1 audit: check pages against WCAG 2.1 AA success criteria 1.1.1, 1.3.1, 1.4.3, 2.1.1, 2.4.7 and 4.1.2.',
        'Criteria 1.4.3 (contrast 4.5:1), 2.4.7 (focus visible), 4.1.2 (name, role, value).',
      ),
    });
    const rows = Array.from(
      { length: 60 },
      (_, i) =>
        `2024-05-${String(1 + (i % 28)).padStart(2, '0')} 1${i % 10}:${String(i % 60).padStart(2, '0')},${1 + (i % 4)},${(20 + (i % 7) / 10).toFixed(1)},${(40 + (i % 13) / 10).toFixed(1)},1.${i % 5}`,
    );
    const paste = `Here is the export from the greenhouse sensors for May.\n\ntimestamp,sensor,temperature,humidity,lux\n${rows.join('\n')}\n\nWhich sensor drifts the most?`;
    const { service } = await makeService();
    await service.loadPacks([pack('pool', root)]);
    const candidates = await service.selectionCandidates(paste, 5, ctx);
    assert.ok(!candidates.some((c) => c.name === 'wcag-audit'), `the sensor CSV passed the gate for the WCAG skill: ${JSON.stringify(candidates)}`);
    // The same skill still passes the gate for a request about it.
    const audit = await service.selectionCandidates('Run a WCAG 2.1 AA audit of our booking page', 5, ctx);
    assert.equal(audit[0]?.name, 'wcag-audit', JSON.stringify(audit));
  });
});
