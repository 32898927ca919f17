import net from 'node:net';

/**
 * A TCP relay on a loopback port in front of a real server (PostgreSQL, shared with other suites, which
 * must never really stop): stopping the relay is, to whoever connects through it, the server going
 * down (every open connection cut, new ones refused), and starting it again is the server coming back
 * on the same address.
 */
export interface TcpProxy {
  readonly port: number;
  /** Connections relayed since the start. */
  readonly relayed: number;
  /** Cuts every open connection and stops listening: connecting is then refused. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let relayed = 0;
  let server: net.Server | undefined;
  let port = 0;

  const relay = (client: net.Socket) => {
    relayed += 1;
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // A cut connection shows on the other side as its end; the error itself is expected here.
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer(relay);
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as net.AddressInfo).port;
        server = listening;
        resolve();
      });
    });

  await listen();
  return {
    get port() {
      return port;
    },
    get relayed() {
      return relayed;
    },
    async stop() {
      const listening = server;
      server = undefined;
      const closed = new Promise<void>((resolve) => (listening ? listening.close(() => resolve()) : resolve()));
      // resetAndDestroy sends RST, as a server process that dies does; destroy alone would send FIN.
      for (const socket of open) socket.resetAndDestroy();
      await closed;
    },
    start: listen,
  };
}
