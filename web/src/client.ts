// The service over gRPC-Web, from the page's own origin, and its statuses in the page's words:
// the google.rpc.ErrorInfo every error carries (a stable reason and its metadata) read into
// the page's labels, the status message only when no detail came.

import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { BadRequestSchema, ErrorInfoSchema } from "./gen/google/rpc/error_details_pb";
import { SolverService } from "./gen/npuzzle_pb";
import { duration } from "./progress";

/** The solver, on the server that served the page. */
export const solver = createClient(SolverService, createGrpcWebTransport({ baseUrl: location.origin }));

/** The metadata key the server sets when it refused a call for being full. */
const BUSY = "npuzzle-busy";
/** The domain of the server's ErrorInfo. */
const DOMAIN = "npuzzle.v1";

/** The page's names of the server's enum values, as the form's labels say them. */
const NAMES: Record<string, string> = {
  ALGORITHM_ASTAR: "A*",
  ALGORITHM_IDASTAR: "IDA*",
  ALGORITHM_UNSPECIFIED: "the fastest algorithm",
  HEURISTIC_HAMMING: "Hamming",
  HEURISTIC_MANHATTAN: "Manhattan",
  HEURISTIC_LINEAR_CONFLICT: "linear conflict",
  HEURISTIC_PATTERN_DATABASE: "pattern databases",
  HEURISTIC_UNSPECIFIED: "the best heuristic",
  METHOD_DISTANCE_TABLE: "the 3×3 distance table",
  METHOD_ASTAR: "A*",
  METHOD_IDASTAR: "IDA*",
  METHOD_WEIGHTED_IDASTAR: "weighted IDA*",
  METHOD_MINIMUM: "IDA* from a fast path",
  METHOD_FAST: "Fast",
  METHOD_ANYTIME: "Anytime",
};

/** The form's fields, for INVALID_OPTIONS. */
const FIELDS: Record<string, string> = {
  "options.weight": "Weight",
  "options.optimality": "Optimality",
  "options.algorithm": "Algorithm",
  "options.heuristic": "Heuristic",
  "options.time_limit_ms": "Time limit",
};

/** What to choose instead, by the server's `suggested_optimality`. */
const SUGGESTIONS: Record<string, string> = {
  OPTIMALITY_ANYTIME: "choose “Anytime” with a time limit to get the best answer found by then",
  OPTIMALITY_FAST: "choose “Fast” to get a solution at once",
  OPTIMALITY_BOUNDED: "choose “Bounded” to get an answer within a factor of the minimum",
};
const ANYTIME = SUGGESTIONS.OPTIMALITY_ANYTIME;

/** A count of the metadata, with separators ("12,100,000"), or the raw text. */
function count(value: string | undefined): string {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) ? number.toLocaleString() : (value ?? "?");
}

/** Bytes as "512 MB". */
function bytes(value: string | undefined): string {
  const number = Number(value);
  if (!Number.isFinite(number)) return value ?? "?";
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let [size, unit] = [number, 0];
  while (size >= 1024 && unit < units.length - 1) [size, unit] = [size / 1024, unit + 1];
  return `${size >= 10 || unit === 0 ? Math.round(size) : size.toFixed(1)} ${units[unit]}`;
}

/** Milliseconds of the metadata as a person reads them. */
function time(value: string | undefined): string {
  const ms = Number(value);
  if (!Number.isFinite(ms)) return value ?? "?";
  return ms < 90_000 && ms % 1000 === 0 ? `${ms / 1000} s` : duration(ms);
}

/** What went wrong, for a person: the server's reason in the page's words. */
export function describeError(error: unknown): string {
  const status = ConnectError.from(error);
  const info = status.findDetails(ErrorInfoSchema).find((detail) => detail.domain === DOMAIN || detail.reason);
  if (info) {
    const violations = status.findDetails(BadRequestSchema).flatMap((detail) => detail.fieldViolations);
    const words = describeReason(info.reason, info.metadata, violations, status.rawMessage);
    if (words) return words;
  }
  return describeStatus(status);
}

/** The page's words for an ErrorInfo reason, or undefined for a reason it does not know. */
function describeReason(
  reason: string,
  meta: Record<string, string>,
  violations: { field: string; description: string }[],
  message: string,
): string | undefined {
  const suggestion = (SUGGESTIONS[meta.suggested_optimality ?? ""] ?? ANYTIME).replace(/^c/, "C");
  const size = meta.dimension ? ` ${meta.dimension}×${meta.dimension}` : "";
  const problem = violations.map((violation) => violation.description).join("; ") || message;
  switch (reason) {
    case "INVALID_PUZZLE": {
      const where = meta.line && meta.column ? `line ${meta.line}, column ${meta.column}: ` : "";
      // The description may already name the place; say it once.
      const what = where && problem.includes(where) ? problem.slice(problem.indexOf(where) + where.length) : problem;
      return `Not a valid board: ${where}${what.replace(/^(text|board(\.\w+)?): /, "")}`;
    }
    case "INVALID_OPTIONS": {
      const field = FIELDS[meta.field ?? ""] ?? meta.field ?? "an option";
      return `Not a valid choice of ${field}: ${problem.replace(/^options\.\w+: /, "")}`;
    }
    case "UNSUPPORTED":
      return (
        `The server cannot run ${NAMES[meta.algorithm ?? ""] ?? meta.algorithm ?? "this algorithm"} with ` +
        `${NAMES[meta.heuristic ?? ""] ?? meta.heuristic ?? "this heuristic"} on a${size} board; ` +
        `choose another algorithm or heuristic under Advanced.`
      );
    case "NODE_BUDGET_SPENT":
      return (
        `The search expanded its budget of ${count(meta.limit)} nodes` +
        `${meta.method ? ` (${NAMES[meta.method] ?? meta.method})` : ""} without an answer. ${suggestion}.`
      );
    case "MEMORY_BUDGET_SPENT":
      return `The search used up the server's memory budget of ${bytes(meta.limit_bytes)} without an answer. ${suggestion}.`;
    case "TIME_LIMIT_REACHED":
      return `Time limit of ${time(meta.limit_ms)} reached; ${suggestion.replace(/^C/, "c")}.`;
    case "PROOF_OUT_OF_REACH": {
      const facts = [
        meta.forecast_ms ? `forecast: about ${duration(Number(meta.forecast_ms))}` : "",
        meta.time_left_ms ? `time left: ${time(meta.time_left_ms)}` : "",
        meta.bound ? `proven: at least ${count(meta.bound)} moves` : "",
      ].filter(Boolean);
      return `A proof is out of reach for this${size} board${facts.length ? ` (${facts.join("; ")})` : ""}; ${suggestion.replace(/^C/, "c")}.`;
    }
    case "SERVER_BUSY": {
      const running = Number(meta.running);
      const others = Number.isFinite(running) ? ` (${running.toLocaleString()} search${running === 1 ? "" : "es"} running)` : "";
      return `The server is busy with other searches${others}; try again in a moment.`;
    }
    case "DEADLINE_EXCEEDED":
      return `Out of time: the deadline passed after ${time(meta.elapsed_ms)}, ${count(meta.expanded)} nodes expanded.`;
    case "CANCELLED":
      return "Cancelled: the server stopped the search.";
    case "TABLES_LOADING":
      return `The server is still loading its pattern databases${size ? ` for${size} boards` : ""}; try again in a minute, or choose another heuristic under Advanced.`;
    case "SHUTTING_DOWN":
      return "The server is shutting down; try again in a moment.";
    case "INTERNAL":
      return `The server failed on this board (a bug, please report it): ${message}`;
    default:
      return undefined;
  }
}

/** What went wrong when no detail says why: the status in words, then the server's message. */
function describeStatus(status: ConnectError): string {
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
