// @ts-check
// Writes adversarial-tools.jsonl beside this file: tools a hostile or sloppy MCP server could
// publish, to measure whether breadth or length of a description buys relevance. Each line is a
// tool in the catalog's format plus `adversary` (its kind). Deterministic: the same file every run.
//   node bench/data/mcp-catalog/makeAdversarial.mjs
// The word lists are written here by hand (common English, everyday assistant vocabulary) or
// derived from this catalog's own descriptions; nothing is fetched.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mulberry32 } from '../../seededRandom.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);

/** About 500 of the most common English words, written from general knowledge (function words, everyday verbs, nouns, adjectives). */
const COMMON_ENGLISH = `the be to of and a in that have I it for not on with he as you do at this but his by from they we say her she or an will my one all would there their what so up out if about who get which go me when make can like time no just him know take people into year your good some could them see other than then now look only come its over think also back after use two how our work first well way even new want because any these give day most us is was are were been has had did said made went got took came knew saw thought told found gave left felt put brought began kept held stood heard let meant set met ran paid sat spoke lay led read grew lost fell sent built understood drew broke spent cut rose drove bought wore chose
man woman child world life hand part place case week company system program question government number night point home water room mother area money story fact month lot right study book eye job word business issue side kind head house service friend father power hour game line end member law car city community name president team minute idea kid body information school face others level office door health person art war history party result change morning reason research girl guy moment air teacher force education foot boy age policy everything process music market sense nation plan college interest death experience effect class control care field development role effort rate heart drug show leader light voice wife police mind price report decision son view relationship town road arm difference value building action model season society tax director position player record paper space ground form event official matter center couple site project activity star table need court oil situation cost industry figure street image phone data picture practice piece land product doctor wall patient worker news test movie north love support technology step baby computer type attention film tree source organization hair window evidence population truth song
long great little own old big high different small large next early young important few public bad same able last late hard major better economic strong possible whole free military true federal international full special easy clear recent certain personal open red difficult available likely short single medical current wrong private past foreign fine common poor natural significant similar hot dead central happy serious ready simple left physical general environmental financial blue democratic dark various entire close legal religious cold final main green nice huge popular traditional cultural
find tell ask seem feel try leave call keep provide hold turn follow begin bring start run write move live believe happen include continue learn add lose pay meet stand change lead speak allow create offer remember love consider appear buy wait serve die send expect build stay fall reach kill remain suggest raise pass sell require decide return explain hope develop carry drive break receive agree thank pick wear describe produce discuss walk win open list check show help play put`
  .split(/\s+/)
  .filter(Boolean);

/** Everyday chat-assistant vocabulary: what people ask an assistant for, in their words. */
const ASSISTANT_VOCABULARY = `help please can you could would show me find get give list tell check look up search open create make new add update change edit delete remove fix set send post reply share save copy move rename run start stop close next last previous first today tomorrow yesterday now later week weekend month time date schedule meeting calendar reminder alarm note notes task tasks todo list project team work file files folder document page pages message messages chat email mail inbox contact friend family home book flight hotel trip travel ticket order buy price cost pay payment money account bank balance invoice receipt weather news score music song play video photo picture image map directions near nearby restaurant food dinner lunch recipe shopping store question answer explain summary summarize translate write draft review read what when where who why how which status report data table chart number count total latest recent new old best top good quick simple easy all any some more my our your this that it them there here up down about for with from into on in at by of to and or the a an`
  .split(/\s+/)
  .filter(Boolean);


/** @typedef {{ name: string, description: string, inputSchema: object, server: string, tool: string }} CatalogTool */
/** @type {CatalogTool[]} */
const catalog = readFileSync(path.join(here, 'tools.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

/**
 * The catalog's most frequent description words (lower-cased letters only), most frequent first.
 * @param {number} limit
 */
function catalogFrequentWords(limit) {
  const counts = new Map();
  for (const tool of catalog) {
    for (const word of tool.description.toLowerCase().match(/[a-z]+/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([word]) => word);
}

const byName = new Map(catalog.map((tool) => [tool.name, tool]));
/** @param {string[]} names */
const descriptionsOf = (names) =>
  names.map((name) => {
    const tool = byName.get(name);
    if (!tool) throw new Error(`no tool ${name} in the catalog`);
    return tool.description;
  });

const querySchema = { type: 'object', properties: { query: { type: 'string', description: 'What to do.' } }, required: ['query'] };

/** @param {string} kind @param {string} server @param {string} tool @param {string} description @param {string} note */
const adversary = (kind, server, tool, description, note) => ({
  name: `mcp_${server}_${tool}`,
  description,
  inputSchema: querySchema,
  server,
  tool,
  adversary: kind,
  note,
});

const rand = mulberry32(33);
const vocabulary = catalogFrequentWords(3000);
/**
 * Long filler text from the catalog's own vocabulary, in sentences, about `bytes` long.
 * @param {number} bytes
 */
function longText(bytes) {
  const sentences = [];
  let size = 0;
  while (size < bytes) {
    const length = 8 + Math.floor(rand() * 12);
    const words = Array.from({ length }, () => vocabulary[Math.floor(rand() ** 2 * vocabulary.length)]);
    const sentence = `${words.join(' ')}.`;
    sentences.push(sentence.charAt(0).toUpperCase() + sentence.slice(1));
    size += sentence.length + 1;
  }
  return sentences.join(' ');
}

const COPIED = [
  'mcp_filesystem_read_text_file',
  'mcp_github_issue_write',
  'mcp_slack_slack_post_message',
  'mcp_git_git_commit',
  'mcp_playwright_browser_navigate',
  'mcp_atlassian_jira_create_issue',
  'mcp_brave-search_brave_web_search',
  'mcp_time_get_current_time',
];

const adversaries = [
  adversary('common-english', 'helpful-utils', 'assistant', COMMON_ENGLISH.join(' '), `${COMMON_ENGLISH.length} common English words, written by hand`),
  adversary(
    'catalog-frequent',
    'everything-tools',
    'do_anything',
    catalogFrequentWords(500).join(' '),
    "the 500 most frequent words of this catalog's descriptions",
  ),
  adversary(
    'assistant-vocabulary',
    'smart-assistant',
    'help',
    `A helpful assistant tool. ${ASSISTANT_VOCABULARY.join(' ')}`,
    `${ASSISTANT_VOCABULARY.length} everyday assistant words`,
  ),
  adversary(
    'copycat',
    'mega-tools',
    'universal_action',
    descriptionsOf(COPIED).join(' '),
    `the descriptions of ${COPIED.length} real tools concatenated: ${COPIED.join(', ')}`,
  ),
  adversary(
    'copycat-short',
    'mega-tools',
    'do_it',
    descriptionsOf(COPIED)
      .map((description) => /^[^.!?]*[.!?]?/.exec(description)?.[0] ?? description)
      .join(' '),
    `the first sentence of each of the same ${COPIED.length} descriptions, concatenated`,
  ),
  adversary(
    'short-stuffed',
    'quick-helper',
    'helper',
    'Helps you find, get, list, show, search, create, make, update, edit, delete, read, write, save, send, run, check and open anything: files, folders, pages, issues, messages, projects, tasks, tables, data, time and more.',
    'one sentence of the commonest request verbs and nouns (short: length normalisation does not dilute it)',
  ),
  adversary('long-10k', 'docs-dump', 'reference', longText(10_000), '10 KB of sentences drawn from the catalog vocabulary'),
  adversary('long-50k', 'docs-dump', 'manual', longText(50_000), '50 KB of sentences drawn from the catalog vocabulary'),
  {
    ...adversary(
      'name-stuffing',
      'toolbox',
      'search_find_get_list_read_create_update_delete_file_page_issue_message_run_time',
      'Utility.',
      'a name made of the commonest verbs and nouns of tool names',
    ),
  },
];

writeFileSync(path.join(here, 'adversarial-tools.jsonl'), `${adversaries.map((a) => JSON.stringify(a)).join('\n')}\n`);
console.log(adversaries.map((a) => `${a.adversary}: ${a.name} (${a.description.length} chars)`).join('\n'));
