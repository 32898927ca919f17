import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  /** The body parsed as JSON, or its text when it is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
}

/**
 * Sends one request byte for byte over a fresh socket (`Connection: close`) and reads the answer to
 * the end: for bodies no well-behaved client would send, which fetch and http.request refuse or
 * repair. `body` goes out whole with the head, with its length declared; given as pieces, the head
 * goes alone and each piece in a write of its own once the one before has been handed to the socket.
 */
export function rawRequest(url: URL, method: string, path: string, headers: Record<string, string>, body: Buffer | Buffer[] = Buffer.alloc(0)): Promise<RawResponse> {
  const pieces = Array.isArray(body) ? body : [body];
  const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const head = Buffer.from([`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close', `Content-Length: ${length}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n'), 'latin1');
  const writes = Array.isArray(body) ? [head, ...body] : [Buffer.concat([head, body])];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const writeFrom = (index: number) => {
      if (index < writes.length) socket.write(writes[index]!, () => writeFrom(index + 1));
    };
    // Not half-closed after the body: Node takes a client that ends its side as one that hung up.
    const socket = net.connect(Number(url.port), url.hostname, () => writeFrom(0));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseResponse(bytes: Buffer): RawResponse {
  const end = bytes.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete response: ${JSON.stringify(bytes.toString('latin1'))}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let content = bytes.subarray(end + 4);
  if (headers['transfer-encoding'] === 'chunked') content = unchunk(content);
  const text = content.toString('utf8');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the text as it came
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

function unchunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Sends a request's head announcing `announced` bytes of body, then `body` (fewer), then hangs up. */
export function rawHangUp(url: URL, method: string, path: string, headers: Record<string, string>, announced: number, body: Buffer): Promise<void> {
  const head = [`${method} ${path} HTTP/1.1`, `Host: ${url.host}`, `Content-Length: ${announced}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]), () => {
        socket.destroy();
        resolve();
      });
    });
    socket.once('error', reject);
  });
}
