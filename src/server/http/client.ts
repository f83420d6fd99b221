import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DEV_NONCE_PLACEHOLDER, withDevNonces } from './security-headers';

// The React client's pages: index.html with the store's settings written in, for every client
// route. Built (dist/, hashed assets cached for a year, HTML never) or, for `npm run dev`, straight
// from the sources through Vite in middleware mode: one port, hot module replacement. The built
// page has no inline script; Vite's dev page has some, and they carry the response's CSP nonce.

/** Settings the client reads at start-up from a JSON script tag in index.html (no extra request). */
export interface StoreConfig {
  storeName: string;
  storeEmail: string;
}

export type ClientSource = { kind: 'built'; dir: string } | { kind: 'dev'; root: string };

const STORE_CONFIG_PLACEHOLDER = '<!--store-config-->';
const API_PREFIXES = ['/trpc', '/api/', '/storage/', '/healthz', '/readyz'];

function renderIndexHtml(template: string, storeConfig: StoreConfig): string {
  // JSON inside a script tag: escape "<" so no value can close the tag.
  const json = JSON.stringify(storeConfig).replace(/</g, '\\u003c');
  return template
    .replace(STORE_CONFIG_PLACEHOLDER, `<script id="store-config" type="application/json">${json}</script>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${storeConfig.storeName.replace(/[<&]/g, '')}</title>`);
}

/** Registers the client's routes; without a client (API-only tests) unknown paths answer 404. */
export async function registerClient(app: FastifyInstance, source: ClientSource | undefined, storeConfig: StoreConfig): Promise<void> {
  const page = source?.kind === 'dev' ? await devPages(app, source.root, storeConfig) : builtPages(app, source?.dir, storeConfig);
  const sendPage = async (url: string, reply: FastifyReply) =>
    reply
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(await page!(url, reply.cspNonce));
  if (page) {
    // Explicit routes win over the static wildcard, so the raw template is never served.
    app.get('/', (req, reply) => sendPage(req.url, reply));
    app.get('/index.html', (req, reply) => sendPage(req.url, reply));
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !API_PREFIXES.some((p) => url.startsWith(p));
    if (page && isPage && !path.extname(url)) return sendPage(req.url, reply);
    return reply.code(404).send({ error: 'Not found' });
  });
}

function builtPages(app: FastifyInstance, dir: string | undefined, storeConfig: StoreConfig) {
  const indexFile = dir ? path.join(dir, 'index.html') : undefined;
  if (!dir || !indexFile || !fs.existsSync(indexFile)) return undefined;
  const html = renderIndexHtml(fs.readFileSync(indexFile, 'utf8'), storeConfig);
  void app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    index: false,
    wildcard: true,
    cacheControl: false,
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return () => Promise.resolve(html);
}

/** Vite's dev server inside this app (its modules and HMR socket on the app's own port). */
async function devPages(app: FastifyInstance, root: string, storeConfig: StoreConfig) {
  // Development tools, loaded only here: a production install has neither.
  const [{ createServer }, { default: middie }] = await Promise.all([import('vite'), import('@fastify/middie')]);
  const vite = await createServer({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    appType: 'custom',
    server: { middlewareMode: true, hmr: { server: app.server } },
    // Vite's own inline scripts (React Refresh) and injected styles, under the same strict CSP as production.
    html: { cspNonce: DEV_NONCE_PLACEHOLDER },
  });
  app.addHook('onClose', () => vite.close());
  await app.register(middie);
  app.use(vite.middlewares);
  // Read on every request: an edit to index.html shows on the next load.
  return async (url: string, nonce: { script: string; style: string }) =>
    withDevNonces(
      renderIndexHtml(await vite.transformIndexHtml(url, fs.readFileSync(path.join(root, 'index.html'), 'utf8')), storeConfig),
      nonce,
    );
}
