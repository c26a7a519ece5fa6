/**
 * Captured HTTP exchanges, read from the project's own JSON format (the one of
 * fixtures/oracle/wp-core-traffic.json) or from HAR 1.2 (what browsers and proxies export).
 */
export type HeaderList = Array<[string, string]>;

export interface CapturedRequest {
  method: string;
  url: string;
  headers: HeaderList;
  body: string | null;
}

export interface CapturedResponse {
  status: number;
  headers: HeaderList;
  body: string | null;
}

export interface Exchange {
  name: string;
  note?: string;
  /** Why the exchange cannot be compared (a proxy recording cut a body over its cap); it is not sent. */
  notComparable?: string;
  /** A proxy recording's route key (as the proxy read it, within the exchange's site). */
  route?: string;
  /** A recording made in front of a network: the blog the exchange was for. */
  blogId?: number;
  request: CapturedRequest;
  response: CapturedResponse;
}

/** Reads either format; throws with a clear message when the text is neither. */
export function parseCapture(text: string): Exchange[] {
  const data = JSON.parse(completedRecording(text));
  if (Array.isArray(data)) return data.map(fromOwnFormat);
  if (data && typeof data === 'object' && data.log && Array.isArray(data.log.entries)) return data.log.entries.map(fromHarEntry);
  throw new Error('Not a capture: expected a JSON array of exchanges or a HAR file ({"log":{"entries":[...]}})');
}

/**
 * A proxy recording's file still being written lacks its closing `]}}`: it is read as if closed
 * (an entry cut mid-write still fails, clearly).
 */
function completedRecording(text: string): string {
  if (!text.startsWith('{"log":{"version":"1.2","creator":{"name":"Understudy proxy"')) return text;
  const trimmed = text.trimEnd();
  return trimmed.endsWith(']}}') ? text : `${trimmed}\n]}}`;
}

function fromOwnFormat(item: any, index: number): Exchange {
  if (!item?.request?.method || !item?.request?.url || typeof item?.response?.status !== 'number') {
    throw new Error(`Exchange ${index + 1} lacks request.method, request.url or response.status`);
  }
  return {
    name: String(item.name ?? `${item.request.method} ${item.request.url}`),
    note: item.note,
    request: { method: item.request.method, url: item.request.url, headers: item.request.headers ?? [], body: item.request.body ?? null },
    response: { status: item.response.status, headers: item.response.headers ?? [], body: item.response.body ?? null },
  };
}

function fromHarEntry(entry: any, index: number): Exchange {
  const req = entry.request ?? {};
  const res = entry.response ?? {};
  const content = res.content ?? {};
  const body = typeof content.text === 'string'
    ? content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text
    : null;
  const { notComparable, route, blogId } = entry._understudy ?? {};
  return {
    name: String(entry.comment || `${req.method} ${req.url}` || `entry ${index + 1}`),
    ...(typeof notComparable === 'string' ? { notComparable } : {}),
    ...(typeof route === 'string' ? { route } : {}),
    ...(Number.isInteger(blogId) ? { blogId: Number(blogId) } : {}),
    request: {
      method: String(req.method ?? 'GET'),
      url: String(req.url ?? ''),
      headers: (req.headers ?? []).map((h: any) => [String(h.name), String(h.value)] as [string, string]),
      body: harRequestBody(req.postData),
    },
    response: {
      status: Number(res.status ?? 0),
      headers: (res.headers ?? []).map((h: any) => [String(h.name), String(h.value)] as [string, string]),
      body,
    },
  };
}

/** HAR keeps a request body as `text`, or (some exporters, for forms) only as `params`. */
function harRequestBody(postData: any): string | null {
  if (typeof postData?.text === 'string') return postData.text;
  if (!Array.isArray(postData?.params)) return null;
  return postData.params.map((p: any) => `${encodeURIComponent(String(p.name))}=${encodeURIComponent(String(p.value ?? ''))}`).join('&');
}
