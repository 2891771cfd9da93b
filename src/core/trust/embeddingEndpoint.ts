/**
 * Where tool and skill text may be sent to be embedded. A loopback address (this machine) is
 * always fine; any other host gets the text of every tool and skill, so it needs the user's
 * explicit `allowRemoteEndpoint` (a user setting: a workspace cannot set it) and is refused in
 * Restricted Mode whatever the settings say, like every other thing a workspace could aim at.
 */

/**
 * `loopbackOnly`: the endpoint was accepted because it is this machine, so the client must
 * connect only to a loopback address — a name such as `embed.localhost` is trusted by the
 * address it resolves to at connection time, never by its spelling.
 */
export type EndpointVerdict = { ok: true; url: URL; loopbackOnly: boolean } | { ok: false; reason: string };

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(host) || /^127(\.\d{1,3}){3}$/.test(host) || host.endsWith('.localhost');
}

export function checkEmbeddingEndpoint(raw: string, options: { allowRemote: boolean; workspaceTrusted: boolean }): EndpointVerdict {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: `"${raw}" is not a URL (e.g. http://127.0.0.1:11434/api/embed)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `only http and https endpoints are supported (got ${url.protocol})` };
  if (url.username || url.password) return { ok: false, reason: 'the endpoint URL must not carry credentials' };
  const remoteAllowed = options.allowRemote && options.workspaceTrusted;
  if (isLoopbackHost(url.hostname)) return { ok: true, url, loopbackOnly: !remoteAllowed };
  if (!options.workspaceTrusted)
    return { ok: false, reason: `${url.host} is not this machine, and this workspace is not trusted (Restricted Mode): only a loopback endpoint is used` };
  if (!options.allowRemote)
    return { ok: false, reason: `${url.host} is not this machine; set toolshed.embeddings.allowRemoteEndpoint to send tool and skill text there` };
  return { ok: true, url, loopbackOnly: false };
}

/** True for an IP address of this machine's loopback interface (127.0.0.0/8, ::1, IPv4-mapped 127.x). */
export function isLoopbackAddress(address: string): boolean {
  const ip = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (ip === '::1' || ip === '0:0:0:0:0:0:0:1') return true;
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  return /^127(\.\d{1,3}){3}$/.test(v4);
}
