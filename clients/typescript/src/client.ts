// The connection to a Pitchmate server: one gRPC transport over HTTP/2, the service clients
// built on it, and how to read the server's errors.

import { Code, ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";

import { ErrorInfoSchema, RetryInfoSchema, type ErrorInfo } from "./gen/google/rpc/error_details_pb.js";
import { BotService } from "./gen/pitchmate/v1/bot_service_pb.js";
import { ChallengeService } from "./gen/pitchmate/v1/challenge_service_pb.js";
import { InboxService } from "./gen/pitchmate/v1/inbox_service_pb.js";
import { MatchService } from "./gen/pitchmate/v1/match_service_pb.js";
import { QueueService } from "./gen/pitchmate/v1/queue_service_pb.js";
import { VariantService } from "./gen/pitchmate/v1/variant_service_pb.js";

export const DEFAULT_SERVER = "http://127.0.0.1:50051";

/** Clients of the services a bot uses, sharing one HTTP/2 connection. */
export interface Api {
  matches: Client<typeof MatchService>;
  variants: Client<typeof VariantService>;
  bots: Client<typeof BotService>;
  inbox: Client<typeof InboxService>;
  queue: Client<typeof QueueService>;
  challenges: Client<typeof ChallengeService>;
}

/**
 * Clients for the server at `url` (`http://host:port`). The server speaks plain gRPC over
 * cleartext HTTP/2. The connection is opened on the first call and opened again, by the
 * transport, for the first call after it was lost.
 */
export function connect(url: string): Api {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`the server address ${JSON.stringify(url)} is not a URL like ${DEFAULT_SERVER}`);
  }
  if (parsed.protocol !== "http:") {
    throw new Error(
      `the server address ${JSON.stringify(url)} must start with http:// (the server speaks ` +
        "cleartext HTTP/2; put a TLS terminator in front of it for TLS)",
    );
  }
  const transport = createGrpcTransport({
    baseUrl: url,
    // The server pings idle clients and expects answers; pinging it too notices a vanished
    // server (a dropped NAT entry, a pulled cable) on connections that carry a quiet stream.
    pingIntervalMs: 20_000,
    pingTimeoutMs: 10_000,
  });
  return {
    matches: createClient(MatchService, transport),
    variants: createClient(VariantService, transport),
    bots: createClient(BotService, transport),
    inbox: createClient(InboxService, transport),
    queue: createClient(QueueService, transport),
    challenges: createClient(ChallengeService, transport),
  };
}

/** The call options that present a seat token or an API key. */
export function bearer(token: string, signal?: AbortSignal): { headers: Headers; signal?: AbortSignal } {
  const headers = new Headers({ authorization: `Bearer ${token}` });
  return signal === undefined ? { headers } : { headers, signal };
}

/**
 * What the server said about an error it decided on: the stable `reason` to branch on
 * (`MATCH_NOT_FOUND`, ...) and the facts beside it in `metadata`.
 */
export function errorInfo(error: unknown): ErrorInfo | undefined {
  if (!(error instanceof ConnectError)) {
    return undefined;
  }
  return error.findDetails(ErrorInfoSchema)[0];
}

/** How long the server asked the caller to wait before trying again, in milliseconds. */
export function retryDelayMs(error: unknown): number | undefined {
  if (!(error instanceof ConnectError)) {
    return undefined;
  }
  const delay = error.findDetails(RetryInfoSchema)[0]?.retryDelay;
  return delay === undefined ? undefined : Number(delay.seconds) * 1000 + delay.nanos / 1e6;
}

/**
 * A failure that calling again may mend: the connection broke, the server is unreachable or
 * restarting, or a stream went quiet or ended early. The server attaches an `ErrorInfo` to
 * every error it decides on, so a status without one, of a code transports produce, did not
 * come from its judgement of the request.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionLost) {
    return true;
  }
  if (!(error instanceof ConnectError)) {
    return false;
  }
  switch (error.code) {
    case Code.Unavailable:
      return true;
    case Code.Unknown:
    case Code.Internal:
    case Code.Canceled:
    case Code.Aborted:
      return error.findDetails(ErrorInfoSchema).length === 0;
    default:
      return false;
  }
}

/** A stream ended or went silent before it should have: reconnect and resume. */
export class ConnectionLost extends Error {}

/** An error as one line a person can act on: what went wrong and the server's reason. */
export function describeError(error: unknown): string {
  if (error instanceof ConnectError) {
    const reason = errorInfo(error)?.reason;
    return `${Code[error.code]}${reason === undefined ? "" : ` ${reason}`}: ${error.rawMessage}`;
  }
  return error instanceof Error ? error.message : String(error);
}
