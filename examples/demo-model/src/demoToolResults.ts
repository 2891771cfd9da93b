/**
 * Canned, deterministic answers of the demo tools. Every answer says it is demo data, so
 * nobody mistakes the offline demo for a real service.
 */
type Args = Record<string, unknown>;

const str = (value: unknown, fallback: string): string => (typeof value === 'string' && value.trim() ? value.trim() : fallback);

const ANSWERS: Record<string, (args: Args) => string> = {
  weather_forecast: (a) => `Forecast for ${str(a.city, 'Oslo')}: 4 °C and light rain today, clearing to 7 °C and sunny tomorrow`,
  weather_alerts: (a) => `No active severe-weather alerts for ${str(a.region, 'the region')}`,
  air_quality_index: (a) => `Air quality in ${str(a.city, 'the city')}: 21 (good), main pollutant PM2.5`,
  github_create_issue: (a) => `Created issue #128 "${str(a.title, 'Untitled')}" in ${str(a.repository, 'the repository')}`,
  github_search_issues: (a) => `3 issues match "${str(a.query, '')}": #97 Login test flaky on CI, #88 Session cookie expires early, #61 Add SSO`,
  jira_create_ticket: (a) => `Created ${str(a.project, 'PROJ')}-412 "${str(a.summary, 'Untitled')}"`,
  slack_post_message: (a) => `Posted to #${str(a.channel, 'general').replace(/^#/, '')}`,
  calendar_find_free_slot: () => 'First free slot for everyone: tomorrow 10:30–11:00',
  currency_convert: (a) => {
    const amount = typeof a.amount === 'number' ? a.amount : 1;
    return `${amount} ${str(a.from, 'EUR')} = ${(amount * 1.47).toFixed(2)} ${str(a.to, 'CAD')} (rate 1.47)`;
  },
  k8s_list_pods: (a) => `Pods in ${str(a.namespace, 'default')}: api-7d9f (Running, 0 restarts), worker-5c2a (CrashLoopBackOff, 14 restarts)`,
  ci_list_flaky_tests: () => 'Flaky in the last 7 days: login.spec.ts "remembers the session" (failed 4 of 31 runs)',
  oncall_who_is_on_call: (a) => `On call for ${str(a.team, 'the team')}: Kim (primary), Ola (secondary)`,
  company_info_lookup: (a) => `${str(a.company, 'The company')}: CEO Jane Doe, founded 2009, 1,200 employees, headquarters Oslo`,
};

export function demoToolAnswer(name: string, args: Args): string {
  const answer = ANSWERS[name];
  const text = answer ? answer(args) : `${name} ran with ${JSON.stringify(args)}: OK`;
  return `${text} (demo data)`;
}
