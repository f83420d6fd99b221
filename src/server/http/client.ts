import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogCache } from '../catalog-cache';
import { keepPage, NONCE_SLOT, pageAddress, sendKeptPage, type KeptPage } from './page-cache';
import { RendersBusyError, type RenderQueue } from './render-queue';
import { EARLY_TAPS_SCRIPT } from '../../shared/early-taps';
import { DEV_NONCE_PLACEHOLDER, withDevNonces, type CspNonce } from './security-headers';

// The React client's pages: index.html with the store's settings written in, for every client
// route. Storefront pages are rendered on the server (docs/adr/0010-server-rendering.md): their
// markup, head elements and query cache are written into the page, which the client hydrates.
// Built ones are rendered once for every visitor and kept with the catalog cache, each answer with
// a nonce of its own (docs/adr/0026-storefront-pages-kept-with-the-catalog.md).
// Built (dist/, hashed assets cached for a year, HTML never) or, for `npm run dev`, straight from
// the sources through Vite in middleware mode: one port, hot module replacement. The built page
// has no inline script but the router's, which carries the answer's nonce; Vite's dev page has
// more, and they carry it too.

/** Settings the client reads at start-up from a JSON script tag in index.html (no extra request). */
export interface StoreConfig {
  storeName: string;
  storeEmail: string;
}

export type ClientSource = { kind: 'built'; dir: string } | { kind: 'dev'; root: string };

/** What src/client/entry-server.tsx renders for a page. */
interface RenderedPage {
  status: number;
  head: string;
  html: string;
  state: string;
}
type RenderResult = RenderedPage | { redirect: string; status: number };
/** What the server-rendering module (src/client/entry-server.tsx) gives the server. */
interface Renderer {
  renderPage(
    url: string,
    settings: { origin: string; nonce: string; storeConfig: StoreConfig },
    trpcClient: unknown,
  ): Promise<RenderResult>;
  hasPage(pathname: string): boolean;
}

export interface ServerRendering {
  /** The public origin, for canonical and Open Graph URLs. */
  origin: string;
  /**
   * A tRPC client that calls the router in-process as nobody signed in, whatever cookie the request
   * carries: a rendered page is kept and sent to every visitor.
   */
  trpcClientFor: (req: FastifyRequest) => unknown;
  /** Where rendered pages are kept, emptied with the catalog data they were made of. */
  catalog: CatalogCache;
  /** The turns renders take, and the refusal of one that would wait too long. */
  renders: RenderQueue;
}

/** Where the server-rendering module is built, inside the client's folder (a dot folder, never served). */
export const SSR_ENTRY = path.join('.ssr', 'entry-server.js');
const STORE_CONFIG_PLACEHOLDER = '<!--store-config-->';
const API_PREFIXES = ['/trpc', '/api/', '/storage/', '/healthz', '/readyz'];
// Account, checkout, sign-in and admin pages are personal or behind sign-in, and stay rendered in
// the browser. Everything else is the storefront, or a page that does not exist (answered 404).
// In any letter case, as the router matches paths.
const BROWSER_RENDERED =
  /^\/(?:admin|dashboard|settings|checkout|orders|subscription|login|reset-password|confirm-email)(?:\/|$)|^\/subscriptions\/./i;

function renderIndexHtml(template: string, storeConfig: StoreConfig): string {
  // JSON inside a script tag: escape "<" so no value can close the tag.
  const json = JSON.stringify(storeConfig).replace(/</g, '\\u003c');
  // The script that holds taps until the page is hydrated (docs/adr/0028-taps-before-hydration.md),
  // first in the head so it runs before anything can be tapped; its nonce is each answer's (withDevNonces).
  const earlyTaps = `<script nonce="${DEV_NONCE_PLACEHOLDER}">${EARLY_TAPS_SCRIPT}</script>`;
  return template
    .replace(STORE_CONFIG_PLACEHOLDER, () => `${earlyTaps}<script id="store-config" type="application/json">${json}</script>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${storeConfig.storeName.replace(/[<&]/g, '')}</title>`);
}

/** A "." or ".." path segment, spelled out or percent-encoded: browsers resolve these before asking. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

/**
 * Where a URL with dot segments points once they are resolved, as browsers resolve them. Leading
 * slashes collapse to one, so the answer cannot name another host ("//host/..").
 */
function withDotSegmentsResolved(url: string): string {
  const resolved = new URL(`http://store.invalid${url}`);
  return `/${resolved.pathname.replace(/^\/+/, '')}${resolved.search}`;
}

/** The page with a server-rendered route written in: its head elements replace the defaults. */
function withRenderedPage(page: string, rendered: RenderedPage): string {
  return (
    page
      .replace(/<title>[^<]*<\/title>/, '')
      .replace(/<meta\s+name="description"[^>]*>/, '')
      // Browsing works without JavaScript here, so the note saying it does not goes.
      .replace(/<noscript>[\s\S]*?<\/noscript>/, '')
      // Replacer functions: rendered text may hold "$&" and the like, which a replacement string would expand.
      .replace('</head>', () => `${rendered.head}</head>`)
      .replace(
        '<div id="root"></div>',
        () => `<div id="root">${rendered.html}</div><script id="server-state" type="application/json">${rendered.state}</script>`,
      )
  );
}

interface PageSource {
  template: (url: string, nonce: CspNonce) => Promise<string>;
  renderer: () => Promise<Renderer | undefined>;
  /** Whether rendered pages are kept: built ones are; under `npm run dev` the sources may change at any time. */
  keeps: boolean;
}

/** What one render of a page came to. */
type PageOutcome = { kind: 'page'; page: KeptPage } | { kind: 'redirect'; location: string; status: number };

/** A redirect's target with the tracking parameters the visitor came with, which the render never saw. */
const withTracking = (location: string, tracking: string) =>
  tracking ? `${location}${location.includes('?') ? '&' : '?'}${tracking}` : location;

/** Registers the client's routes; without a client (API-only tests) unknown paths answer 404. */
export async function registerClient(
  app: FastifyInstance,
  source: ClientSource | undefined,
  storeConfig: StoreConfig,
  rendering: ServerRendering,
): Promise<void> {
  const pages = source?.kind === 'dev' ? await devPages(app, source.root, storeConfig) : builtPages(app, source?.dir, storeConfig);

  const render = async (req: FastifyRequest, url: string, nonce: CspNonce, renderer: Renderer): Promise<PageOutcome> => {
    const template = await pages!.template(url, nonce);
    const rendered = await renderer
      .renderPage(url, { origin: rendering.origin, nonce: nonce.script, storeConfig }, rendering.trpcClientFor(req))
      .catch((error: unknown) => {
        // A page the server could not render still goes out, for the browser to render (or show its error page).
        req.log.error({ err: error }, 'server rendering failed; the page is left to the browser');
        return undefined;
      });
    if (!rendered) return { kind: 'page', page: keepPage(template, 500) };
    if ('redirect' in rendered) return { kind: 'redirect', location: rendered.redirect, status: rendered.status };
    return { kind: 'page', page: keepPage(withRenderedPage(template, rendered), rendered.status) };
  };

  /**
   * A built page from the kept ones, or rendered in its turn (docs/adr/0026-storefront-pages-kept-with-the-catalog.md):
   * rendered for nobody in particular, with a slot for each answer's nonce, from its address
   * without tracking parameters; concurrent askers share one render. Only a whole 200 is kept.
   */
  const keptOrRendered = async (req: FastifyRequest, reply: FastifyReply, renderer: Renderer) => {
    const address = pageAddress(req.url);
    const { value, kept } = rendering.catalog.readPage(
      address.key,
      () => rendering.renders.run(() => render(req, address.renderUrl, { script: NONCE_SLOT, style: NONCE_SLOT }, renderer)),
      (outcome) => outcome.kind === 'page' && outcome.page.status === 200,
    );
    reply.header('X-Page-Cache', kept ? 'hit' : 'miss');
    try {
      const outcome = await value;
      return outcome.kind === 'redirect'
        ? reply.redirect(withTracking(outcome.location, address.tracking), outcome.status)
        : sendKeptPage(req, reply, outcome.page);
    } catch (error) {
      if (!(error instanceof RendersBusyError)) throw error;
      // Too many renders ahead: the page without its render, which the browser renders itself from
      // the API (kept answers, cheap), and a status that tells crawlers when to come back.
      return reply
        .code(503)
        .header('Retry-After', String(error.retryAfterSeconds))
        .header('Cache-Control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(await pages!.template(req.url, reply.cspNonce));
    }
  };

  const sendPage = async (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0] ?? '';
    // The router would resolve them itself and show that page here, at a second address.
    if (DOT_SEGMENT.test(pathname)) return reply.redirect(withDotSegmentsResolved(req.url), 301);
    const renderer = await pages!.renderer();
    if (renderer && !BROWSER_RENDERED.test(pathname)) {
      if (pages!.keeps) return keptOrRendered(req, reply, renderer);
      // Under `npm run dev` every page is rendered anew, so an edit shows on the next load.
      const outcome = await render(req, req.url, reply.cspNonce, renderer);
      return outcome.kind === 'redirect' ? reply.redirect(outcome.location, outcome.status) : sendKeptPage(req, reply, outcome.page);
    }
    // Rendered in the browser, but an address the store has no page at is still a 404.
    const status = renderer && !renderer.hasPage(pathname) ? 404 : 200;
    return reply
      .code(status)
      .header('Cache-Control', 'private, no-cache')
      .type('text/html; charset=utf-8')
      .send(await pages!.template(req.url, reply.cspNonce));
  };
  const pageOrNotFound = (req: FastifyRequest, reply: FastifyReply) => {
    const url = req.url.split('?')[0] ?? '';
    const isPage = (req.method === 'GET' || req.method === 'HEAD') && !API_PREFIXES.some((p) => url.startsWith(p));
    if (pages && isPage && !path.extname(url)) return sendPage(req, reply);
    return reply.code(404).send({ error: 'Not found' });
  };
  if (pages) {
    // Never the raw template: the static files leave index.html out, and these render it.
    app.get('/', sendPage);
    app.get('/index.html', sendPage);
    // Every other address no other route has, as a route (not only the not-found handler), so its
    // answer goes through the route hooks, the compressor's included.
    app.get('/*', pageOrNotFound);
  }
  app.setNotFoundHandler(pageOrNotFound);
}

function builtPages(app: FastifyInstance, dir: string | undefined, storeConfig: StoreConfig): PageSource | undefined {
  const indexFile = dir ? path.join(dir, 'index.html') : undefined;
  if (!dir || !indexFile || !fs.existsSync(indexFile)) return undefined;
  const html = renderIndexHtml(fs.readFileSync(indexFile, 'utf8'), storeConfig);
  void app.register(fastifyStatic, {
    root: dir,
    prefix: '/',
    index: false,
    // A route for each file of the build, found once at start-up (a build never changes under a
    // running app): a page's address then goes straight to the page, instead of being looked for
    // on disk first, with its .br and .gz copies, which took most of a kept page's time. The
    // copies are sent in place of their file and need no route; index.html is never sent as is.
    wildcard: false,
    globIgnore: ['index.html', '**/*.br', '**/*.gz'],
    cacheControl: false,
    // The .br and .gz copies made at build time (vite.config.ts), with Vary: Accept-Encoding.
    preCompressed: true,
    // The server-rendering module lives in the client's folder but is not for browsers.
    allowedPath: (pathName) => !pathName.startsWith('/.'),
    setHeaders(res, filePath) {
      const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  const entry = path.join(dir, SSR_ENTRY);
  // A client built without its server-rendering module still works, rendered in the browser.
  // Loaded by the first page asked for, not at start-up: the store answers sooner after a restart.
  let renderer: Promise<Renderer | undefined> | undefined;
  const loadRenderer = () => (fs.existsSync(entry) ? (import(pathToFileURL(entry).href) as Promise<Renderer>) : undefined);
  return {
    template: (_url, nonce) => Promise.resolve(withDevNonces(html, nonce)),
    renderer: () => (renderer ??= Promise.resolve(loadRenderer())),
    keeps: true,
  };
}

/** Vite's dev server inside this app (its modules and HMR socket on the app's own port). */
async function devPages(app: FastifyInstance, root: string, storeConfig: StoreConfig): Promise<PageSource> {
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
  return {
    // Read on every request: an edit to index.html shows on the next load.
    template: async (url, nonce) =>
      withDevNonces(
        renderIndexHtml(await vite.transformIndexHtml(url, fs.readFileSync(path.join(root, 'index.html'), 'utf8')), storeConfig),
        nonce,
      ),
    // Loaded through Vite on every request, so an edit shows on the next load too.
    renderer: async () => (await vite.ssrLoadModule('/src/client/entry-server.tsx')) as Renderer,
    keeps: false,
  };
}
