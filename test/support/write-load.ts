/**
 * Clients writing and reading entries of one collection over HTTP as fast as the server answers, each
 * answer kept: what a server under load looks like to its callers while something happens to it.
 */
export interface Answer {
  what: 'write' | 'read';
  /** The HTTP status, or 0 when no answer came at all (the server went away). */
  status: number;
  retryAfter: string | null;
  code: string | undefined;
  /** A network failure's message, when there was no answer. */
  failure?: string;
}

export interface AckedWrite {
  id: string;
  title: string;
}

export interface WriteLoad {
  readonly answers: readonly Answer[];
  /** Writes answered 2xx: each must be there afterwards. */
  readonly acked: readonly AckedWrite[];
  /** Stops the clients and waits for their last requests. */
  stop(): Promise<void>;
}

export function startWriteLoad(options: { baseUrl: string; token: string; collection: string; clients: number }): WriteLoad {
  const answers: Answer[] = [];
  const acked: AckedWrite[] = [];
  let running = true;
  let written = 0;
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };
  const collectionUrl = `${options.baseUrl}/_cms/api/content/${options.collection}`;

  const send = async (what: Answer['what'], url: string, init: RequestInit): Promise<unknown> => {
    try {
      const response = await fetch(url, { ...init, headers });
      const body = (await response.json().catch(() => undefined)) as { data?: unknown; error?: { code?: string } } | undefined;
      answers.push({ what, status: response.status, retryAfter: response.headers.get('retry-after'), code: body?.error?.code });
      return response.ok ? body?.data : undefined;
    } catch (error) {
      answers.push({ what, status: 0, retryAfter: null, code: undefined, failure: (error as Error).message });
      return undefined;
    }
  };

  const client = async (index: number) => {
    while (running) {
      const title = `load ${index}-${(written += 1)}`;
      const created = (await send('write', collectionUrl, { method: 'POST', body: JSON.stringify({ data: { title } }) })) as { item?: { id: string } } | undefined;
      if (created?.item) acked.push({ id: created.item.id, title });
      const last = acked.at(-1);
      if (last) await send('read', `${collectionUrl}/${last.id}`, { method: 'GET' });
      // Failed answers come back at once: let the event loop breathe between them.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const clients = Array.from({ length: options.clients }, (_, index) => client(index));

  return {
    answers,
    acked,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}
