import type { AnyTRPCRouter } from '@trpc/server';
import { incomingMessageToRequest } from '@trpc/server/adapters/node-http';
import { resolveResponse, type HTTPErrorHandler } from '@trpc/server/http';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogCache } from '../catalog-cache';

export interface TrpcRoutesOptions<TRouter extends AnyTRPCRouter> {
  router: TRouter;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Promise<TRouter['_def']['_config']['$types']['ctx']>;
  maxBatchSize: number;
  onError: HTTPErrorHandler<TRouter, FastifyRequest>;
  /** Where whole answers of catalog reads are kept (see `catalogRead` in trpc/init.ts). */
  catalog: CatalogCache;
  /** Sent as `Retry-After` with every 503 (too many sign-ins waiting, file storage out of reach), as load shedding does. */
  retryAfterSeconds: number;
}

/** An answer as it goes out, kept whole so that it can go out again. */
interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

/**
 * tRPC at `<prefix>/:path`, as @trpc/server's Fastify adapter serves it but for two things:
 *
 * - An answer that is not a stream goes out as one buffer with its length. The adapter hands
 *   Fastify the web `Response`, which pipes even a short JSON answer through a web stream in
 *   chunks. Streams (SSE subscriptions, JSONL batches) are still piped as they come.
 * - A GET of catalog reads only (one, or a batch of them) is answered from the catalog cache,
 *   keyed by its URL: every shopper asks the same few questions, and running tRPC again (a fetch
 *   Request, abort signals, context, validation, JSON) for the same bytes cost ten times what
 *   sending them does (bench/run.ts, ADR 0016). Only whole successes are kept, and they go when
 *   the catalog changes, like the data they were made of.
 */
export function trpcRoutes<TRouter extends AnyTRPCRouter>(options: TrpcRoutesOptions<TRouter>): FastifyPluginCallback {
  const procedures = options.router._def.procedures as Record<string, { _def: { meta?: { catalogRead?: boolean } } } | undefined>;
  const isCatalogRead = (path: string) => path.split(',').every((name) => procedures[name]?._def.meta?.catalogRead === true);

  const resolve = async (req: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply): Promise<Response> =>
    resolveResponse<TRouter>({
      router: options.router,
      req: incomingMessageToRequest(Object.assign(req.raw, { body: req.body }), reply.raw, { maxBodySize: null }),
      path: req.params.path,
      error: null,
      maxBatchSize: options.maxBatchSize,
      createContext: () => options.createContext({ req, res: reply }),
      onError: (error) => options.onError({ ...error, req }),
      responseMeta: ({ errors }) =>
        errors.some((error) => error.code === 'SERVICE_UNAVAILABLE')
          ? { headers: { 'retry-after': String(options.retryAfterSeconds) } }
          : {},
    });

  return (app, _options, done) => {
    // tRPC parses the bodies itself; this parser applies inside this plugin only, and reads at most
    // the body limit. No procedure takes form data (uploads have their own routes): a multipart
    // body is refused (415) before it is read, as tRPC would read one whole, of any size.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, parsed) => parsed(null, body));
    app.removeContentTypeParser('multipart/form-data');

    // tRPC answers GET and POST; any other method gets 405 here, not a complaint about its body's type.
    app.route({
      method: ['PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      url: '/:path',
      handler: (_req, reply) => reply.code(405).header('Allow', 'GET, POST').send({ error: 'Method not allowed' }),
    });
    app.route<{ Params: { path: string } }>({
      method: ['GET', 'POST'],
      url: '/:path',
      handler: async (req, reply) => {
        // Only the plain JSON answer is kept: a client asking for a streamed JSONL batch (by
        // `trpc-accept` or `Accept`) would otherwise have its form served to everyone after it.
        if (req.method === 'GET' && isCatalogRead(req.params.path) && !asksForStream(req)) {
          const answer = await options.catalog.read(
            answerKey(req.params.path, req.url),
            async () => wholeAnswer(await resolve(req, reply)),
            (kept) => kept.status === 200 && kept.headers.every(([name]) => name.toLowerCase() !== 'transfer-encoding'),
          );
          return sendAnswer(reply, answer);
        }
        const response = await resolve(req, reply);
        // Everything but the catalog may be one visitor's own (their account, orders, the back office).
        reply.header('Cache-Control', 'private, no-store');
        const streamed = response.headers.get('content-type')?.startsWith('text/event-stream') || response.headers.has('transfer-encoding');
        return streamed ? reply.send(response) : sendAnswer(reply, await wholeAnswer(response));
      },
    });
    done();
  };
}

/**
 * A catalog answer's key: its procedures and the two parameters tRPC reads, read as tRPC reads them
 * (URLSearchParams of the address, the first of a repeated one). Fastify's own query parser reads
 * some addresses otherwise (it leaves a value with a broken escape undecoded, where URLSearchParams
 * decodes the rest), so two addresses with different inputs could share its key, and one could be
 * given the other's answer. Other parameters change nothing in the answer, and as part of the key
 * they could push every kept answer out.
 */
function answerKey(path: string, url: string): string {
  const params = new URL(url, 'http://localhost').searchParams;
  return `answer:${path}:${JSON.stringify([params.get('batch'), params.get('input')])}`;
}

/** Whether the request asks tRPC for its streamed (JSONL) form, by either header tRPC reads. */
const asksForStream = (req: FastifyRequest) =>
  req.headers['trpc-accept'] !== undefined || (req.headers.accept ?? '').includes('application/jsonl');

async function wholeAnswer(response: Response): Promise<Answer> {
  return { status: response.status, headers: [...response.headers], body: Buffer.from(await response.arrayBuffer()) };
}

function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  reply.code(answer.status);
  for (const [name, value] of answer.headers) reply.header(name, value);
  return reply.send(answer.body);
}
