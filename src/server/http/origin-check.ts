import type { FastifyInstance, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses every state-changing request that a browser sent from another site. tRPC accepts
 * form posts, which browsers send cross-origin without a preflight, so this guards every route.
 */
function isSameOriginRequest(req: FastifyRequest, publicUrl: string): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (origin === publicUrl) return true;
    try {
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }
  // No Origin: a browser still says where the request came from in Sec-Fetch-Site.
  return !sentByAnotherSite(req);
}

/**
 * Whether a browser marked the request as made by another site's page (Sec-Fetch-Site): an image,
 * a form or a script there. Our own pages send `same-origin`; `none` is the visitor's own doing
 * (an address typed, a bookmark).
 */
export function sentByAnotherSite(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

export function registerOriginCheck(app: FastifyInstance, publicUrl: string): void {
  app.addHook('onRequest', async (req, reply) => {
    if (SAFE_METHODS.has(req.method) || isSameOriginRequest(req, publicUrl)) return;
    return reply.code(403).send({ error: 'Cross-origin request refused' });
  });
}
