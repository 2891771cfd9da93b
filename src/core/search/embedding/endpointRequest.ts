import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * One JSON POST to an embedding endpoint, with the limits that keep text and memory where they
 * belong: redirects are never followed (a 3xx is an error — the text would otherwise be sent
 * again to a host nobody checked), every address the socket connects to passes `connectTo`
 * (a name is judged by what it resolves to, at the moment of connecting), the answer is read as
 * a stream and given up past `maxBytes`, and the whole exchange, trickling answers included,
 * ends at `timeoutMs`.
 */

export class EndpointError extends Error {}

export interface PostLimits {
  timeoutMs: number;
  /** Largest answer body read (bytes); a longer one is an error before it is all in memory. */
  maxBytes: number;
  /** Whether the client may connect to this IP address; absent = any. */
  connectTo?: (address: string) => boolean;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails for an address `connectTo` refuses (Node calls it for names, not IP literals). */
function checkedLookup(connectTo: (address: string) => boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '');
      const refused = addresses.find((entry) => !connectTo(entry.address));
      if (refused || addresses.length === 0) {
        const reason = `${hostname} resolves to ${refused?.address ?? 'nothing'}, which is not this machine`;
        return callback(Object.assign(new Error(reason), { code: 'ENOTLOOPBACK' }), options.all ? [] : '');
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export function postJson(url: URL, payload: unknown, limits: PostLimits): Promise<unknown> {
  const body = Buffer.from(JSON.stringify(payload));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, value?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        request.destroy();
        reject(error);
      } else resolve(value);
    };
    const request = send(
      url,
      {
        method: 'POST',
        // A fresh connection each time: a pooled socket could have been opened under another rule.
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
        ...(limits.connectTo ? { lookup: checkedLookup(limits.connectTo) } : {}),
      },
      (response) => readAnswer(response, limits.maxBytes, finish),
    );
    const timer = setTimeout(() => finish(new EndpointError(`embedding endpoint gave no answer within ${limits.timeoutMs} ms`)), limits.timeoutMs);
    request.on('socket', (socket) => {
      // An IP literal skips the lookup: the connected address is checked here as well.
      socket.once('connect', () => {
        const address = socket.remoteAddress ?? '';
        if (limits.connectTo && !limits.connectTo(address))
          finish(new EndpointError(`embedding endpoint ${url.host} is at ${address}, which is not this machine`));
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        new EndpointError(error.code === 'ENOTLOOPBACK' ? `embedding endpoint refused: ${error.message}` : `embedding endpoint unreachable: ${error.message}`),
      ),
    );
    request.end(body);
  });
}

function readAnswer(response: IncomingMessage, maxBytes: number, finish: (error: Error | undefined, value?: unknown) => void): void {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    response.resume();
    finish(
      new EndpointError(`embedding endpoint answered HTTP ${status} (a redirect${response.headers.location ? ' elsewhere' : ''}); redirects are not followed`),
    );
    return;
  }
  if (status < 200 || status >= 300) {
    response.resume();
    finish(new EndpointError(`embedding endpoint answered HTTP ${status}`));
    return;
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    finish(new EndpointError(`embedding endpoint's answer is ${declared} bytes, over the ${maxBytes} this batch can need`));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      finish(new EndpointError(`embedding endpoint's answer passed ${maxBytes} bytes, more than this batch can need`));
      return;
    }
    chunks.push(chunk);
  });
  response.on('error', (error) => finish(new EndpointError(`embedding endpoint's answer broke off: ${error.message}`)));
  response.on('close', () => {
    if (!response.complete) finish(new EndpointError("embedding endpoint's answer broke off before its end"));
  });
  response.on('end', () => {
    try {
      finish(undefined, JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
    } catch {
      finish(new EndpointError('embedding endpoint answered something that is not JSON'));
    }
  });
}
