import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { MAX_IMPORTED_IMAGE_BYTES } from '../../shared/schemas/admin-products-import';

// Images a product import names by URL, fetched by the server (docs/adr/0034): http(s) only, never
// from a private, loopback or link-local address (the store's own network, a cloud's metadata
// service), judged on the address DNS gives and then connected to (so a name cannot resolve to a
// public address for the check and a private one for the connection), again after every redirect;
// at most MAX_IMPORTED_IMAGE_BYTES, cut off while reading.

/** Whether the store may connect to an address; tests loosen it to reach their own local server. */
export type AddressPolicy = (address: string) => boolean;

const NOT_PUBLIC = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The production policy: public unicast addresses only (an IPv4 address written as IPv6 judged as IPv4). */
export const publicAddressesOnly: AddressPolicy = (address) => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return !NOT_PUBLIC.check(mapped, 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/** Why an image could not be fetched, in words for the import's summary. */
export class ImageFetchError extends Error {}

const MAX_REDIRECTS = 5;
const TIMEOUT_MS = 15_000;

/** Resolves like the system does, and refuses the connection when the address is not allowed. */
function checkedLookup(url: string, allowed: AddressPolicy): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.find((entry) => !allowed(entry.address));
      if (refused || addresses.length === 0) return callback(new ImageFetchError(privateMessage(url)), '', 4);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const privateMessage = (url: string) => `"${url}" leads to a private or local address; images are fetched from public addresses only`;

/** One request, no redirects followed: the status, the Location and the body (cut off past the limit). */
function requestOnce(url: URL, shownUrl: string, allowed: AddressPolicy) {
  return new Promise<{ status: number; location: string | undefined; body: Buffer }>((resolve, reject) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (net.isIP(host) !== 0 && !allowed(host)) return reject(new ImageFetchError(privateMessage(shownUrl)));
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { lookup: checkedLookup(shownUrl, allowed), timeout: TIMEOUT_MS, agent: false }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        response.resume();
        return resolve({ status, location: response.headers.location, body: Buffer.alloc(0) });
      }
      if (Number(response.headers['content-length'] ?? 0) > MAX_IMPORTED_IMAGE_BYTES) {
        response.destroy();
        return reject(new ImageFetchError(tooLargeMessage(shownUrl)));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_IMPORTED_IMAGE_BYTES) {
          response.destroy();
          reject(new ImageFetchError(tooLargeMessage(shownUrl)));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status, location: undefined, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new ImageFetchError(`"${shownUrl}" did not answer in time`)));
    request.on('error', (error) =>
      reject(error instanceof ImageFetchError ? error : new ImageFetchError(`"${shownUrl}" could not be fetched (${error.message})`)),
    );
  });
}

const tooLargeMessage = (url: string) => `the image at "${url}" is larger than ${MAX_IMPORTED_IMAGE_BYTES / 1024 / 1024} MB`;

/** The bytes at an http(s) URL, following up to MAX_REDIRECTS redirects, each checked as the first. */
export async function fetchImageBytes(address: string, allowed: AddressPolicy = publicAddressesOnly): Promise<Buffer> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new ImageFetchError(`"${address}" is not an http(s) address`);
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ImageFetchError(`"${url.href}" is not an http(s) address`);
    const answer = await requestOnce(url, url.href, allowed);
    if (answer.location === undefined) {
      if (answer.status !== 200) throw new ImageFetchError(`"${url.href}" answered ${answer.status}`);
      return answer.body;
    }
    url = new URL(answer.location, url);
  }
  throw new ImageFetchError(`"${address}" redirects more than ${MAX_REDIRECTS} times`);
}
