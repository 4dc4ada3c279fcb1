/**
 * How a request appears in the log: Fastify's own fields, with the path but without the query
 * string. Query strings carry free text (a lock or unlock `reason` may well name the patient,
 * and SPEC.md §3 keeps patient data out of erx) and, from clients that follow RFC 6750 §2.3,
 * bearer tokens as `access_token`: erx never accepts those, but must not write them down either.
 */
import type { IncomingHttpHeaders } from 'node:http';

// A type alias, not an interface: pino's serializer type wants an index signature.
export type LoggedRequest = {
  method: string | undefined;
  url: string | undefined;
  host: string | undefined;
  remoteAddress: string | undefined;
  remotePort: number | undefined;
};

/** What the serializer reads: present on Fastify's request and on Node's alike. */
interface RequestLike {
  method?: string;
  url?: string;
  headers?: IncomingHttpHeaders;
  socket?: { remoteAddress?: string; remotePort?: number };
}

/** The pino `req` serializer of erx. */
export function logRequest(request: RequestLike): LoggedRequest {
  const url = request.url;
  const query = url?.indexOf('?') ?? -1;
  return {
    method: request.method,
    url: query === -1 ? url : url?.slice(0, query),
    host: request.headers?.host,
    remoteAddress: request.socket?.remoteAddress,
    remotePort: request.socket?.remotePort,
  };
}
