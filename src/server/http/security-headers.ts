import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

// The protective headers of every response (ARCHITECTURE § Security, issue 13), by @fastify/helmet:
//
// - Content-Security-Policy: scripts and styles only from this origin or carrying the response's
//   nonce (`reply.cspNonce`; the built index.html has no inline script, Vite's dev pages get the
//   nonce on theirs), no inline event handlers, no plugins, no <base>, forms post here only, and no
//   framing by anyone (frame-ancestors 'none', with X-Frame-Options: DENY for older browsers).
//   The client loads its own code, styles, fonts, the favicon and images from this origin and talks
//   to /trpc (queries, mutations, the live SSE stream) and /api here; nothing else, except images:
//   the spec lets an admin give any https image URL for a product, a category or a mockup template.
//   Stripe Checkout is a redirect, not Stripe.js, so no payment script or frame is allowed.
// - Referrer-Policy: strict-origin-when-cross-origin; X-Content-Type-Options: nosniff everywhere.
// - Strict-Transport-Security in production only (a developer's http://localhost must not be
//   pinned to https); one year, this host only: the store cannot know whether its sibling
//   subdomains serve https.
// - helmet's other defaults: Cross-Origin-Opener-Policy and Cross-Origin-Resource-Policy
//   same-origin, Origin-Agent-Cluster, X-DNS-Prefetch-Control off, X-Permitted-Cross-Domain-Policies none.

/** Content-Security-Policy directives; helmet adds the response's nonces to script-src and style-src. */
export function cspDirectives(config: Pick<Config, 'publicUrl' | 's3'>): Record<string, string[]> {
  // Public files may be sent to a CDN or bucket address (S3_PUBLIC_URL), which may be plain http (a local MinIO).
  const fileHost = config.s3?.publicUrl ? [new URL(config.s3.publicUrl).origin] : [];
  return {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'connect-src': ["'self'"],
    'font-src': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    'img-src': ["'self'", 'https:', ...fileHost],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    // Behind https, a stray http:// image URL is fetched over https instead of being blocked as mixed content.
    ...(config.publicUrl.startsWith('https:') ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Registers the headers for every route; call before any hook or route that may answer early. */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Pick<Config, 'publicUrl' | 'isProduction' | 's3'>,
): Promise<void> {
  await app.register(fastifyHelmet, {
    enableCSPNonces: true,
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
}

/**
 * Marks the nonce-less script and style tags Vite's dev server writes into index.html: Vite puts
 * `html.cspNonce` on each, and the page renderer swaps it for the response's nonces.
 */
export const DEV_NONCE_PLACEHOLDER = 'threadline-dev-csp-nonce';

/**
 * index.html from Vite's dev server with its nonce placeholder replaced: scripts get the script
 * nonce, the rest (styles, and Vite's csp-nonce meta tag for the styles it injects) the style nonce.
 */
export function withDevNonces(html: string, nonce: { script: string; style: string }): string {
  return html
    .replace(/<script\b[^>]*>/g, (tag) => tag.replaceAll(DEV_NONCE_PLACEHOLDER, nonce.script))
    .replaceAll(DEV_NONCE_PLACEHOLDER, nonce.style);
}
