import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

// The protective headers of every response (docs/ARCHITECTURE.md § Security), as helmet makes them:
//
// - Content-Security-Policy: scripts and styles only from this origin or carrying the response's
//   nonce (`reply.cspNonce`: the one inline script of every page, which holds taps until it is
//   hydrated, and Vite's dev scripts get it through withDevNonces), no inline event handlers, no plugins, no <base>, forms post here only, and no
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

/** This response's CSP nonces: made when first asked for (by an HTML page), which adds them to its policy. */
export interface CspNonce {
  script: string;
  style: string;
}

declare module 'fastify' {
  interface FastifyReply {
    readonly cspNonce: CspNonce;
  }
}

/** The headers helmet's middleware sets with these options, collected once. */
function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  const response = {
    setHeader: (name: string, value: string) => headers.push([name.toLowerCase(), value]),
    removeHeader: () => undefined,
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/** The policy as helmet writes it: sources after their directive, directives apart by ';'. */
function serializePolicy(directives: Record<string, string[]>, nonce?: CspNonce): string {
  return Object.entries(directives)
    .map(([name, sources]) => {
      const extra = !nonce
        ? []
        : name === 'script-src'
          ? [`'nonce-${nonce.script}'`]
          : name === 'style-src'
            ? [`'nonce-${nonce.style}'`]
            : [];
      return [name, ...sources, ...extra].join(' ');
    })
    .join(';');
}

type SecurityHeaderConfig = Pick<Config, 'publicUrl' | 'isProduction' | 's3'>;

/**
 * The headers every answer carries, the policy without nonces included, as [name, value] pairs.
 * They are the same for every response but for a page's nonces, so they are worked out once:
 * building them anew per request (as @fastify/helmet does) with two random nonces for every
 * answer, JSON included, was a tenth of the cost of a cached API answer. Answers made before any
 * hook runs (http/early-errors.ts) send them too.
 */
export function securityHeaders(config: SecurityHeaderConfig): [string, string][] {
  const fixed = helmetHeaders({
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
  return [...fixed, ['content-security-policy', serializePolicy(cspDirectives(config))]];
}

/**
 * Registers securityHeaders for every route; call before any hook or route that may answer
 * early. Only a page that asks for `reply.cspNonce` gets nonces, in a policy of its own.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: SecurityHeaderConfig, headers = securityHeaders(config)): void {
  const directives = cspDirectives(config);
  const nonces = new WeakMap<FastifyReply, CspNonce>();

  app.decorateReply('cspNonce', {
    getter(this: FastifyReply): CspNonce {
      let nonce = nonces.get(this);
      if (!nonce) {
        const bytes = randomBytes(32).toString('hex');
        nonce = { script: bytes.slice(0, 32), style: bytes.slice(32) };
        nonces.set(this, nonce);
        this.header('content-security-policy', serializePolicy(directives, nonce));
      }
      return nonce;
    },
  });
  app.addHook('onRequest', (_req, reply, done) => {
    for (const [name, value] of headers) reply.header(name, value);
    done();
  });
}

/**
 * Marks the nonce-less script and style tags Vite's dev server writes into index.html (Vite puts
 * `html.cspNonce` on each) and the page's own inline script: the page renderer swaps it for the
 * response's nonces.
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
