// The service over gRPC-Web, from the page's own origin, and its statuses in words.

import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { SolverService } from "./gen/npuzzle_pb";

/** The solver, on the server that served the page. */
export const solver = createClient(SolverService, createGrpcWebTransport({ baseUrl: location.origin }));

/** The metadata key the server sets when it refused a call for being full. */
const BUSY = "npuzzle-busy";

/** What went wrong, for a person: the status in words, then the server's own message. */
export function describeError(error: unknown): string {
  const status = ConnectError.from(error);
  const message = status.rawMessage;
  switch (status.code) {
    case Code.InvalidArgument:
      return `Not a valid puzzle or option: ${message}`;
    case Code.ResourceExhausted:
      return status.metadata.has(BUSY)
        ? `The server is busy with other searches; try again in a moment. (${message})`
        : `A limit of the server was reached: ${message}`;
    case Code.DeadlineExceeded:
      return `Out of time: ${message}`;
    case Code.Unavailable:
      return `The server is unavailable (shutting down, or not reachable): ${message}`;
    case Code.Unauthenticated:
      return `Not allowed without a valid token: ${message}`;
    case Code.Canceled:
      return "Cancelled.";
    default:
      return `${Code[status.code]}: ${message}`;
  }
}

/** Whether `error` is the page's own cancel. */
export function isCancel(error: unknown): boolean {
  return ConnectError.from(error).code === Code.Canceled;
}
