import { TextAnalyzer } from './textAnalysis';

/**
 * The words people use for software actions and things, next to the words tool descriptions use
 * for them. WordNet (relatedTerms.ts) knows English, not tool catalogs: it relates "post" to
 * "mail" and "stake", "folder" to "booklet", and none of its relations gained on BFCL or on
 * requests written without seeing a catalog. Users write "make a folder", "post in #general",
 * "remember that…", "the last 10 commits"; descriptions say "create a directory", "post a message
 * to a channel", "store observations in the knowledge graph", "commit logs". This table is that
 * bridge, written by hand for this project from the usual vocabulary of developer tools (version
 * control, chat, issue trackers, wikis, databases, shells, the web, documentation), never from one
 * catalog's tool names: each line is `user word: words a tool description would use`. Keys are
 * words as written (the plural "commits" asks for a log, "commit" for a commit); the words they
 * bring are analysed like any text.
 */
const TABLE = `
make: create new
build: create
new: create
add: create insert new
setup: create
folder: directory
subfolder: directory
dir: directory
post: send message
tell: send message
announce: post message
ping: message send
dm: direct message
say: message
reply: replies thread
replies: thread
thread: replies
show: list get
see: list get
display: list get
view: get read
find: search
lookup: search
remember: memory store entity observation
memorize: memory store observation
recall: memory
note: observation
prefer: preference observation
preference: observation
fact: observation entity
mind: memory remember
commits: log
changelog: log
google: web search
news: web search
latest: current
online: web search
internet: web search
papers: search
research: search
reviews: web search
website: url page web
site: url page web
page: url
scrape: url extract content
http: url web page
https: url web page
www: url web page
link: url
docs: documentation
documentation: docs
reference: documentation docs
library: documentation
framework: library documentation
package: library
api: documentation
table: sql query database
row: sql insert
rows: sql query
column: sql table
columns: sql table
record: sql query
records: sql query
db: database sql query
database: sql query
select: sql query
schema: sql table
role: sql
index: sql
run: execute command process
terminal: command process
shell: command process
cli: command process
script: command process
npm: command process
install: command
lint: command process
stash: command process
wiki: confluence page space
ticket: issue
tickets: issues
bug: issue
bugs: issues
pr: pull request
prs: pull requests
logo: image generate
picture: image
photo: image
draw: generate image
illustration: image
error: issue
errors: issues
crash: error issue
exception: error issue
stacktrace: error issue
restart: rollout delete
clear: delete remove
space: size
disk: size
shape: schema structure
structure: schema
stack: stacktrace error
mrr: subscription recurring revenue
revenue: invoice subscription
repo: repository
visit: navigate url page
go: navigate
login: navigate fill form
form: fill
cache: redis key
`;

/** The extra terms (analysed) a user's word brings. */
export class ToolVocabulary {
  private table: Map<string, string[]> | undefined;

  constructor(private readonly source: string = TABLE) {}

  /** The analysed terms a user's word (lower case, as written: `commits`, not `commit`) brings. */
  lookup(word: string): readonly string[] {
    return this.entries().get(word) ?? [];
  }

  private entries(): Map<string, string[]> {
    if (!this.table) {
      const analyzer = new TextAnalyzer(0);
      const table = new Map<string, string[]>();
      for (const line of this.source.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue;
        const key = line.slice(0, colon).trim().toLowerCase();
        if (key.length === 0) continue;
        const related = analyzer.analyze(line.slice(colon + 1), { keepStopWords: true });
        const known = table.get(key) ?? [];
        for (const t of related) if (!known.includes(t)) known.push(t);
        table.set(key, known);
      }
      this.table = table;
    }
    return this.table;
  }
}

const HOW_TO = /\bhow (?:do|can|should|would) (?:i|we|you)\b|\bhow to\b/i;
const SQL_STATEMENT =
  /\bselect\b[^;]{1,200}?\bfrom\s+\w|\binsert\s+into\s+\w|\bupdate\s+\w+\s+set\s+\w|\bdelete\s+from\s+\w|\bcreate\s+(?:table|index|view)\s+\w/i;
const ERROR_TEXT = /\b[A-Z]\w*(?:Error|Exception):\s|\bat\s+(?:[\w.$<>]+\s+)?\(?[\w./\\-]+\.\w+:\d+/;

/**
 * Cues in a request's form, not its words: a web address asks about a page, `#name` is a chat
 * channel, a pasted SQL statement is database work, a pasted error is about errors, a how-to
 * question asks for documentation. Words, analysed by the caller like the table's.
 */
export function formCues(query: string): string[] {
  const cues: string[] = [];
  if (/\bhttps?:\/\/|\bwww\.|(?<![@\w.-])[a-z0-9-]+\.(?:com|io|org|net|so|dev|app|co)\b(?!@)\/?/i.test(query)) cues.push('url', 'page', 'fetch', 'web');
  if (/(?:^|\s)#[a-z][\w-]*/i.test(query)) cues.push('channel');
  // A path (./logs, ~/projects, a/b/c.txt) is about files and directories; a .db or .sqlite file is a SQLite database.
  if (/(?:^|\s)(?:\.{1,2}|~)\/|(?:^|\s)[\w-]+\/[\w./-]+/.test(query)) cues.push('file', 'directory');
  if (/\.(?:db|sqlite3?)\b/i.test(query)) cues.push('sqlite', 'database');
  // A SQL statement pasted or quoted (SELECT … FROM, INSERT INTO, UPDATE … SET, DELETE FROM, CREATE TABLE) is database work.
  if (SQL_STATEMENT.test(query)) cues.push('sql', 'query', 'database');
  // An error as a runtime prints it (TypeError: …, a stack frame `at File.tsx:42`) is about errors and where they are tracked.
  if (ERROR_TEXT.test(query)) cues.push('error', 'issue', 'stacktrace');
  // "How do I … / how to …" asks how something is done: a library's or service's documentation.
  if (HOW_TO.test(query)) cues.push('documentation', 'library');
  return cues;
}

/** The table above, parsed on first lookup. */
export const TOOL_VOCABULARY = new ToolVocabulary();
