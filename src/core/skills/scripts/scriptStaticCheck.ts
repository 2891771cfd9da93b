/**
 * A load-time look at a script's text for three risky behaviours: reading secrets files,
 * opening network connections, writing outside the workspace. Plain patterns, so it is a
 * hint for the person confirming a run, not a guarantee: a script can hide all three.
 */

type ScriptRiskKind = 'secrets' | 'network' | 'writes-outside';

export interface ScriptRisk {
  kind: ScriptRiskKind;
  /** 1-based line of the first match. */
  line: number;
  /** What was matched, shortened. */
  evidence: string;
  message: string;
}

const RULES: ReadonlyArray<{ kind: ScriptRiskKind; pattern: RegExp; message: string }> = [
  {
    kind: 'secrets',
    pattern:
      /(\.ssh\/|id_rsa|id_ed25519|\.aws\/credentials|\.netrc|\.npmrc|\.pypirc|\.docker\/config\.json|\.kube\/config|\.git-credentials|\/etc\/shadow|\.gnupg|(^|[\s'"/])\.env\b|keychain|credentials\.json|secrets?\.(ya?ml|json|toml))/i,
    message: 'reads what looks like a secrets file',
  },
  {
    kind: 'network',
    pattern:
      /(\bimport\s+socket\b|\bsocket\.socket\(|\brequests\.(get|post|put|delete|patch|head|request)\(|\burllib\.request\b|\burlopen\(|\bhttp\.client\b|\bhttpx\.|\baiohttp\b|require\(\s*['"](node:)?(net|http|https|tls|dgram)['"]\s*\)|from\s+['"](node:)?(net|http|https|tls|dgram)['"]|\bfetch\(|\bnew\s+WebSocket\(|\bXMLHttpRequest\b|\b(curl|wget|nc|ncat|telnet|ssh|scp|rsync)\s|\/dev\/tcp\/)/,
    message: 'opens network connections',
  },
  {
    kind: 'writes-outside',
    pattern:
      /(open\(\s*(f?['"](\/|~|\.\.\/)|os\.path\.expanduser)[^)]*,\s*['"][wax]|(writeFile|appendFile|createWriteStream)(Sync)?\(\s*['"`](\/|~|\.\.\/)|>>?\s*(\/(?!dev\/null)|~|\$HOME|\.\.\/)|\b(rm|mv|cp|tee|chmod|chown)\s+(-\w+\s+)*(\/|~|\$HOME|\.\.\/))/,
    message: 'may write outside the workspace',
  },
];

const MAX_SCANNED_CHARS = 256 * 1024;

/** Every rule that matches, with the line of its first match (at most one finding per kind). */
export function checkScriptText(text: string): ScriptRisk[] {
  const scanned = text.slice(0, MAX_SCANNED_CHARS);
  const risks: ScriptRisk[] = [];
  for (const rule of RULES) {
    const match = rule.pattern.exec(scanned);
    if (!match) continue;
    const line = scanned.slice(0, match.index).split('\n').length;
    risks.push({ kind: rule.kind, line, evidence: match[0].trim().slice(0, 60), message: rule.message });
  }
  return risks;
}
