/**
 * The demo's tool catalog: 100+ ordinary tools, the kind a few MCP servers and extensions add
 * to VS Code. Toolshed defers all of them; the demo shows it finding the one a request needs.
 * Each line: name, description for the model, parameters as `name:type` (`!` = required,
 * `a|b|c` = enum). Results are canned and say so ("demo data").
 */
export interface DemoTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, { type: string; enum?: string[]; description?: string }>; required: string[] };
  /** Which MCP-like server the tool pretends to come from (used in its display name). */
  server: string;
}

type Row = [name: string, description: string, params: string];

const SERVERS: Record<string, Row[]> = {
  weather: [
    ['weather_forecast', 'Get the weather forecast for a city: temperature and conditions for the next days.', 'city:string!, days:integer'],
    ['weather_alerts', 'List active severe-weather alerts (storms, floods, heat) for a region.', 'region:string!'],
    ['air_quality_index', 'Current air quality index and main pollutant for a city.', 'city:string!'],
    ['sunrise_sunset_times', 'Sunrise and sunset times for a place and date.', 'city:string!, date:string'],
  ],
  github: [
    [
      'github_create_issue',
      'Create a new issue in a GitHub repository with a title, body and labels.',
      'repository:string!, title:string!, body:string, labels:string',
    ],
    ['github_search_issues', 'Search issues and pull requests in GitHub repositories by keywords.', 'query:string!, state:open|closed|all'],
    ['github_list_pull_requests', 'List open pull requests of a repository with their authors and review state.', 'repository:string!'],
    ['github_merge_pull_request', 'Merge a pull request by number once checks pass.', 'repository:string!, number:integer!'],
    ['github_add_issue_comment', 'Add a comment to an existing GitHub issue or pull request.', 'repository:string!, number:integer!, body:string!'],
    ['github_get_file_contents', 'Read a file from a GitHub repository at a branch or commit.', 'repository:string!, path:string!, ref:string'],
    ['github_create_branch', 'Create a new branch in a repository from another branch.', 'repository:string!, branch:string!, from:string'],
  ],
  jira: [
    ['jira_create_ticket', 'Create a Jira ticket (bug, task or story) in a project.', 'project:string!, summary:string!, type:bug|task|story'],
    ['jira_transition_ticket', 'Move a Jira ticket to another status such as In Progress or Done.', 'key:string!, status:string!'],
    ['jira_search_tickets', 'Search Jira tickets with a JQL-like text query.', 'query:string!'],
    ['jira_log_work', 'Log time spent on a Jira ticket.', 'key:string!, hours:number!'],
  ],
  slack: [
    ['slack_post_message', 'Post a message to a Slack channel.', 'channel:string!, text:string!'],
    ['slack_search_messages', 'Search Slack messages across channels by keywords.', 'query:string!'],
    ['slack_list_channels', 'List Slack channels the user can read.', ''],
    ['slack_set_status', "Set the user's Slack status text and emoji.", 'text:string!, emoji:string'],
  ],
  calendar: [
    ['calendar_list_events', 'List calendar events for a day or a date range.', 'date:string!'],
    ['calendar_create_event', 'Create a calendar event with a title, start time and duration.', 'title:string!, start:string!, minutes:integer'],
    ['calendar_find_free_slot', 'Find a free meeting slot for several attendees.', 'attendees:string!, minutes:integer!'],
    ['calendar_cancel_event', 'Cancel a calendar event and notify attendees.', 'eventId:string!'],
  ],
  mail: [
    ['email_send', 'Send an e-mail to one or more recipients.', 'to:string!, subject:string!, body:string!'],
    ['email_search_inbox', 'Search the inbox for e-mails by sender, subject or words.', 'query:string!'],
    ['email_create_draft', 'Create an e-mail draft without sending it.', 'to:string!, subject:string!, body:string'],
  ],
  database: [
    ['postgres_run_query', "Run a read-only SQL query against the team's Postgres database.", 'sql:string!'],
    ['postgres_list_tables', 'List the tables and row counts of a Postgres schema.', 'schema:string'],
    ['postgres_describe_table', 'Show the columns, types and indexes of a table.', 'table:string!'],
    ['redis_get_key', 'Read the value of a Redis key.', 'key:string!'],
    ['redis_flush_cache', 'Flush a Redis cache namespace. Destructive.', 'namespace:string!'],
  ],
  kubernetes: [
    ['k8s_list_pods', 'List pods in a Kubernetes namespace with their status and restarts.', 'namespace:string!'],
    ['k8s_get_pod_logs', 'Fetch recent logs of a Kubernetes pod.', 'pod:string!, lines:integer'],
    ['k8s_restart_deployment', 'Restart a Kubernetes deployment with a rolling update.', 'deployment:string!, namespace:string!'],
    ['k8s_scale_deployment', 'Scale a deployment to a number of replicas.', 'deployment:string!, replicas:integer!'],
    ['k8s_describe_service', 'Describe a Kubernetes service: ports, selectors, endpoints.', 'service:string!'],
  ],
  ci: [
    ['ci_trigger_build', 'Trigger a CI pipeline build for a branch.', 'branch:string!'],
    ['ci_get_build_status', 'Get the status and failing steps of a CI build.', 'buildId:string!'],
    ['ci_get_build_logs', 'Fetch the log of a failed CI job.', 'buildId:string!, job:string'],
    ['ci_list_flaky_tests', 'List tests that failed intermittently in the last CI runs.', 'days:integer'],
    ['ci_retry_failed_jobs', 'Retry the failed jobs of a CI build.', 'buildId:string!'],
  ],
  cloud: [
    ['s3_list_buckets', 'List cloud storage buckets and their sizes.', ''],
    ['s3_upload_file', 'Upload a local file to a cloud storage bucket.', 'bucket:string!, path:string!'],
    ['cloud_cost_report', 'Monthly cloud cost broken down by service.', 'month:string'],
    ['dns_lookup_record', 'Look up DNS records (A, CNAME, MX) for a domain.', 'domain:string!, type:A|CNAME|MX|TXT'],
    ['cdn_purge_cache', 'Purge CDN cache for a URL path.', 'path:string!'],
  ],
  monitoring: [
    ['metrics_query', 'Query a time series metric (latency, error rate, CPU) for a service.', 'service:string!, metric:string!'],
    ['alerts_list_firing', 'List monitoring alerts that are firing now.', ''],
    ['incident_create', 'Open an incident with a severity and a summary, and page the on-call.', 'summary:string!, severity:sev1|sev2|sev3'],
    ['oncall_who_is_on_call', "Who is on call now for a team's rotation.", 'team:string!'],
    ['error_tracker_top_errors', 'Top new errors from the error tracker for a release.', 'release:string'],
  ],
  docs: [
    ['wiki_search_pages', 'Search the team wiki for pages by keywords.', 'query:string!'],
    ['wiki_create_page', 'Create a wiki page with a title and markdown content.', 'title:string!, content:string!'],
    ['notion_append_to_page', 'Append a paragraph to an existing notes page.', 'page:string!, text:string!'],
    ['confluence_export_pdf', 'Export a documentation page as PDF.', 'page:string!'],
  ],
  finance: [
    [
      'currency_convert',
      'Convert an amount between currencies using current exchange rates (e.g. euros to Canadian dollars).',
      'amount:number!, from:string!, to:string!',
    ],
    ['stock_quote', 'Latest stock price and daily change for a ticker symbol.', 'symbol:string!'],
    ['crypto_price', 'Current price of a cryptocurrency in a fiat currency.', 'coin:string!, currency:string'],
    ['invoice_create', 'Create a customer invoice with line items.', 'customer:string!, amount:number!'],
    ['expense_submit', 'Submit an expense claim with amount and category.', 'amount:number!, category:travel|meals|equipment|other'],
  ],
  travel: [
    ['flights_search', 'Search flights between two cities on a date.', 'from:string!, to:string!, date:string!'],
    ['hotels_search', 'Search hotels in a city for dates and guests.', 'city:string!, checkin:string!, nights:integer'],
    ['maps_directions', 'Driving, walking or transit directions between two places.', 'from:string!, to:string!, mode:driving|walking|transit'],
    ['maps_geocode_address', 'Latitude and longitude of a street address.', 'address:string!'],
    ['timezone_convert', 'Convert a time from one time zone to another.', 'time:string!, from:string!, to:string!'],
  ],
  people: [
    ['hr_vacation_balance', 'Remaining vacation days of an employee.', 'employee:string!'],
    ['hr_request_time_off', 'Request time off for a date range.', 'start:string!, end:string!'],
    ['directory_find_person', 'Find a colleague in the company directory: team, manager, contact.', 'name:string!'],
    ['company_info_lookup', 'Company profile: who is in charge (CEO, founders), size, industry, headquarters.', 'company:string!'],
    ['jobs_search_openings', 'Search job openings and internships by role and location.', 'role:string!, location:string'],
  ],
  content: [
    ['translate_text', 'Translate text into another language.', 'text:string!, targetLanguage:string!'],
    ['summarize_document', 'Summarize a long document into key points.', 'text:string!'],
    ['spellcheck_text', 'Check spelling and grammar of a text and suggest fixes (copy editing).', 'text:string!'],
    ['image_generate', 'Generate an image from a text prompt.', 'prompt:string!'],
    ['qr_code_create', 'Create a QR code for a URL.', 'url:string!'],
  ],
  files: [
    ['drive_search_files', 'Search shared drive files by name or content.', 'query:string!'],
    ['drive_share_file', 'Share a drive file with a person, as viewer or editor.', 'file:string!, email:string!, role:viewer|editor'],
    ['pdf_extract_text', 'Extract the text of a PDF file.', 'path:string!'],
    ['spreadsheet_read_range', 'Read a cell range from a spreadsheet.', 'sheet:string!, range:string!'],
    ['spreadsheet_append_row', 'Append a row of values to a spreadsheet.', 'sheet:string!, values:string!'],
  ],
  crm: [
    ['crm_find_contact', 'Find a customer contact by name or company in the CRM.', 'query:string!'],
    ['crm_log_call', 'Log a sales call with notes against a contact.', 'contact:string!, notes:string!'],
    ['crm_pipeline_summary', 'Summary of open deals by stage and value.', ''],
    ['support_create_ticket', 'Open a customer support ticket.', 'customer:string!, subject:string!, priority:low|normal|high'],
  ],
  security: [
    ['secrets_rotate_key', 'Rotate an API key in the secrets manager.', 'name:string!'],
    ['vuln_scan_dependencies', "Scan a project's dependencies for known vulnerabilities.", 'project:string!'],
    ['audit_log_search', 'Search the audit log for actions by a user.', 'user:string!'],
    ['sso_reset_mfa', "Reset a user's multi-factor authentication device.", 'user:string!'],
  ],
  packages: [
    ['npm_package_info', 'Latest version, license and weekly downloads of an npm package.', 'name:string!'],
    ['pypi_package_info', 'Latest version and summary of a Python package.', 'name:string!'],
    ['license_check', 'Check whether a dependency license is allowed by policy.', 'license:string!'],
    ['changelog_generate', 'Generate a changelog from commits between two tags.', 'from:string!, to:string!'],
  ],
  analytics: [
    ['analytics_daily_active_users', 'Daily active users of a product for a date range.', 'product:string!, days:integer'],
    ['analytics_funnel_conversion', 'Conversion rate through the steps of a funnel.', 'funnel:string!'],
    ['ab_test_results', 'Results and significance of an A/B experiment.', 'experiment:string!'],
    ['survey_responses_summary', 'Summary of customer survey responses.', 'survey:string!'],
  ],
  home: [
    ['recipe_search', 'Find recipes by ingredients or dish name.', 'query:string!'],
    ['news_headlines', 'Top news headlines for a topic or country.', 'topic:string!'],
    ['unit_convert', 'Convert a value between units (km to miles, °C to °F, kg to lb).', 'value:number!, from:string!, to:string!'],
    ['todo_add_item', "Add an item to the user's to-do list.", 'text:string!, due:string'],
    ['todo_list_items', 'List open to-do items.', ''],
    ['notes_search', 'Search personal notes by keywords.', 'query:string!'],
  ],
  devtools: [
    ['regex_test', 'Test a regular expression against sample text and show matches.', 'pattern:string!, text:string!'],
    ['json_validate', 'Validate a JSON document against a JSON Schema.', 'document:string!, schema:string!'],
    ['http_request', 'Send an HTTP request to an internal API and show the response.', 'method:GET|POST|PUT|DELETE, url:string!'],
    ['uuid_generate', 'Generate one or more random UUIDs.', 'count:integer'],
    ['cron_explain', 'Explain a cron expression in plain words and list the next runs.', 'expression:string!'],
    ['base64_encode', 'Encode text as base64, or decode base64 back to text.', 'text:string!, decode:boolean'],
  ],
};

function parseParams(spec: string): DemoTool['inputSchema'] {
  const properties: DemoTool['inputSchema']['properties'] = {};
  const required: string[] = [];
  for (const raw of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, typeSpec] = raw.split(':');
    const isRequired = typeSpec.endsWith('!');
    const type = typeSpec.replace(/!$/, '');
    properties[name] = type.includes('|') ? { type: 'string', enum: type.split('|') } : { type };
    if (isRequired) required.push(name);
  }
  return { type: 'object', properties, required };
}

export const DEMO_TOOLS: readonly DemoTool[] = Object.entries(SERVERS).flatMap(([server, rows]) =>
  rows.map(([name, description, params]) => ({ name, description, inputSchema: parseParams(params), server })),
);
