import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { negotiate } from '@fastify/accept-negotiator';
import fresh from 'fresh';
import { fillGzip, gzipWithSlots, type SlottedGzip } from './gzip-slots';

// Storefront pages rendered once and kept with the catalog cache, then sent to every visitor
// (docs/adr/0026-storefront-pages-kept-with-the-catalog.md): what they are kept under, and how a
// kept page goes out with its own CSP nonce, an ETag, and 304 for a browser that has it already.

/**
 * Query parameters that only say where a visitor came from (campaign tags, ad and email click
 * ids): a page is the same with or without them, so they neither make a new entry nor reach the
 * render. Any other parameter may change the page (a sort, a colour, a search) and is part of
 * its key, with no list of which ones a page reads.
 */
const TRACKING_PARAM = /^(?:utm_.+|fbclid|gclid|gbraid|wbraid|dclid|msclkid|twclid|ttclid|li_fat_id|igshid|yclid|mc_cid|mc_eid|_ga|_gl)$/i;

export interface PageAddress {
  /** What the page is kept under: its path and its other parameters, in a fixed order. */
  key: string;
  /** The address rendered: the one asked for without its tracking parameters. */
  renderUrl: string;
  /** The tracking parameters asked with (as sent), for a redirect to carry on. */
  tracking: string;
}

/** The name of a raw `name=value` query part, decoded as a form would be. */
function paramName(part: string): string {
  const raw = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** Splits a page's address into what keys it and what only tracks the visit. Parameters keep their encoding as sent. */
export function pageAddress(url: string): PageAddress {
  const question = url.indexOf('?');
  const path = question === -1 ? url : url.slice(0, question);
  const parts =
    question === -1
      ? []
      : url
          .slice(question + 1)
          .split('&')
          .filter(Boolean);
  const tracking = parts.filter((part) => TRACKING_PARAM.test(paramName(part)));
  const kept = parts.filter((part) => !tracking.includes(part));
  // Sorted by name only (a stable sort), so repeated parameters keep their order, which may matter.
  const byName = kept.map((part) => [paramName(part), part] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    key: `${path}?${byName.map(([, part]) => part).join('&')}`,
    renderUrl: kept.length > 0 ? `${path}?${kept.join('&')}` : path,
    tracking: tracking.join('&'),
  };
}

/**
 * Where a page's CSP nonce goes while it is kept; each answer gets a fresh nonce in its place.
 * Random for each process, so no text of the catalog can hold it.
 */
export const NONCE_SLOT = randomBytes(16).toString('hex');

/** A rendered page as kept: its HTML cut where the nonce goes, and compressed around those cuts. */
export interface KeptPage {
  status: number;
  parts: string[];
  gzip: SlottedGzip;
  etag: string;
}

/** A validator for text that goes out the same to everyone. */
export function weakEtag(text: string): string {
  // Weak: two answers of one kept page carry different nonces, so they are the same page but not the same bytes.
  return `W/"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
}

export function keepPage(html: string, status: number): KeptPage {
  const parts = html.split(NONCE_SLOT);
  return { status, parts, gzip: gzipWithSlots(parts), etag: weakEtag(parts.join('')) };
}

/** Sends 304 with the ETag when the browser's copy is this one (If-None-Match); false otherwise. */
export function sendIfNotModified(req: FastifyRequest, reply: FastifyReply, etag: string): boolean {
  reply.header('ETag', etag);
  if (!fresh(req.headers, { etag })) return false;
  // The browser's copy goes with the policy (and nonce) it came with; one here would replace it.
  reply.removeHeader('content-security-policy');
  void reply.code(304).send();
  return true;
}

/**
 * A kept page as one answer: 304 when the browser has it, else with this response's nonce written
 * in, gzip-compressed already for a browser that takes it (every browser does).
 */
export function sendKeptPage(req: FastifyRequest, reply: FastifyReply, page: KeptPage): FastifyReply {
  // Never kept by a shared cache: every answer carries a nonce of its own.
  reply.header('Cache-Control', 'private, no-cache').header('Vary', 'Accept-Encoding');
  if (page.status === 200 && sendIfNotModified(req, reply, page.etag)) return reply;
  reply.code(page.status).type('text/html; charset=utf-8');
  const nonce = reply.cspNonce.script;
  if (negotiate(req.headers['accept-encoding'] ?? '', ['gzip']) !== 'gzip') return reply.send(page.parts.join(nonce));
  return reply.header('Content-Encoding', 'gzip').send(fillGzip(page.gzip, nonce));
}
