import net from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL, Redis) whose open connections can be held: kept
 * open, passing nothing either way, as with a dead host, a NAT that forgot them or a server that
 * stalls. New connections pass.
 */
export interface HoldingProxy {
  /** The target's address with the proxy's port. */
  url: string;
  hold(): void;
  /** What was held back passes on (a stall that ends). */
  release(): void;
  close(): Promise<void>;
}

export async function startHoldingProxy(target: URL, defaultPort: number): Promise<HoldingProxy> {
  const links = new Set<{ inbound: net.Socket; outbound: net.Socket }>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(target.port || defaultPort), target.hostname);
    const link = { inbound, outbound };
    links.add(link);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    const end = () => {
      links.delete(link);
      inbound.destroy();
      outbound.destroy();
    };
    for (const socket of [inbound, outbound]) socket.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(target);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as net.AddressInfo).port);
  return {
    url: proxied.toString(),
    hold: () =>
      links.forEach(({ inbound, outbound }) => {
        inbound.unpipe(outbound).pause();
        outbound.unpipe(inbound).pause();
      }),
    release: () =>
      links.forEach(({ inbound, outbound }) => {
        inbound.pipe(outbound);
        outbound.pipe(inbound);
      }),
    close: () => {
      links.forEach(({ inbound }) => inbound.destroy());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
