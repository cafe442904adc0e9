// A TCP proxy between bots and the server that can cut every connection through it, to test
// that a bot survives a lost connection.

import { createConnection, createServer, type Server, type Socket } from "node:net";

export class CuttingProxy {
  private readonly sockets = new Set<Socket>();
  /** While set, what the server sends is dropped: the bots' requests arrive, answers do not. */
  private deaf = false;
  cuts = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  /** Listens on 127.0.0.1 port 0 and forwards every connection to `targetPort`. */
  static async start(targetPort: number): Promise<CuttingProxy> {
    let proxy: CuttingProxy | undefined;
    const server = createServer((client) => proxy!.forward(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") {
      throw new Error("the proxy has no port");
    }
    proxy = new CuttingProxy(server, address.port);
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  private forward(client: Socket, targetPort: number): void {
    const upstream = createConnection({ host: "127.0.0.1", port: targetPort });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
      socket.on("error", () => {});
    }
    client.on("data", (chunk) => upstream.write(chunk));
    upstream.on("data", (chunk) => {
      if (!this.deaf) {
        client.write(chunk);
      }
    });
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }

  /**
   * Stops passing the server's answers on at once, and after `afterMs` drops every connection
   * through the proxy; new connections are served as before.
   */
  cut(afterMs: number): Promise<void> {
    this.deaf = true;
    return new Promise((resolve) =>
      setTimeout(() => {
        for (const socket of this.sockets) {
          socket.destroy();
        }
        this.cuts += 1;
        this.deaf = false;
        resolve();
      }, afterMs),
    );
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }
}
