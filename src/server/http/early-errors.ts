import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Answers to requests refused before any hook runs, so that they look like every other answer:
// the security headers (the onRequest hook that sets them never ran), a plain message that neither
// echoes the request nor names the framework, and for a refused connection `Connection: close`.

/** The messages, by status: nothing of what the client sent. */
const MESSAGES: Record<number, string> = {
  400: 'Bad request',
  408: 'Request timed out',
  414: 'Address too long',
  431: 'Request headers too large',
  500: 'An unexpected error occurred',
};

/**
 * Fastify's `frameworkErrors`: an address that cannot be decoded (`/%`, `/product/%FF`), a path
 * parameter over its length, a failed route constraint. Answered through the reply, so the answer
 * goes through the app's own onSend hooks and logs.
 */
export function frameworkErrorHandler(headers: [string, string][]) {
  return (error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    const status = error.statusCode !== undefined && error.statusCode in MESSAGES ? error.statusCode : 400;
    for (const [name, value] of headers) reply.header(name, value);
    void reply.code(status).send({ error: MESSAGES[status] });
  };
}

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused what came in on a connection (headers
 * or address over 16 KB: 431; a request that took too long: 408; anything else: 400). The
 * connection cannot carry another request, so the answer says `Connection: close` before it is
 * ended; without it a client that keeps the connection alive sends its next request into a closed
 * socket. A reset by the client needs no answer. Logged at debug: it is the client's doing.
 */
export function clientErrorHandler(headers: [string, string][]) {
  return function (this: FastifyInstance, error: ConnectionError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    this.log.debug({ err: error }, 'refused a malformed request');
    if (socket.writable) {
      const body = JSON.stringify({ error: MESSAGES[status] });
      const head = [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        ...headers.map(([name, value]) => `${name}: ${value}`),
        'content-type: application/json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
    }
    // As Node's own handler does: the request cannot be read any further.
    socket.destroy();
  };
}
