import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { ApiError, errorBody, type ErrorType } from './errors.js';

/** Node's HTTP parser error codes → the contract's error type. */
function typeOf(code: string | undefined): ErrorType {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'RequestTimeoutError';
  if (code === 'HPE_HEADER_OVERFLOW') return 'RequestHeaderFieldsTooLargeError';
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 'PayloadTooLargeError';
  return 'ValidationError';
}

/**
 * Handler of `http.Server`'s `clientError` (requests Node refuses before Koa sees them: malformed HTTP, headers
 * over 16 KiB, the request timeout). Answers with the contract's JSON error body and an `X-Request-ID`, like every
 * other response (docs/reference/api-contract.md, "Error model"), then closes the connection. Sockets already written to are
 * destroyed.
 */
export function clientErrorHandler(logger: Logger): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    if (socket.destroyed) return;
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const type = typeOf(err.code);
    const apiError =
      type === 'ValidationError'
        ? new ApiError('ValidationError', {
            message: 'Malformed HTTP request',
            issues: [{ code: 'invalid_request', path: [], message: 'The request could not be parsed' }],
          })
        : new ApiError(type);
    const requestId = randomUUID();
    const body = JSON.stringify(errorBody(apiError));
    logger.info({ reqId: requestId, 'http.status_code': apiError.status, code: err.code }, 'request refused by the HTTP parser');
    socket.end(
      `HTTP/1.1 ${apiError.status} ${statusText(apiError.status)}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-ID: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}

function statusText(status: number): string {
  return { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' }[status] ?? 'Error';
}
