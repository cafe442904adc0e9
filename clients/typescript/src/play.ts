// The play loop: one seat of one match over the duplex `Play` stream, until the match ends,
// riding out lost connections. It asks `chooseAction` (strategy.ts) for every action.

import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { createWritableIterable } from "@connectrpc/connect/protocol";

import { Backoff, DEFAULT_RECONNECT, sleep, type ReconnectPolicy } from "./backoff.js";
import { bearer, ConnectionLost, type Api } from "./client.js";
import type { LegalAction } from "./gen/pitchmate/v1/action_pb.js";
import { MatchResultSchema, type MatchResult } from "./gen/pitchmate/v1/common_pb.js";
import {
  ActionDetail,
  PlayRequestSchema,
  type ActionOutcome,
  type PlayRequest,
  type YourTurn,
} from "./gen/pitchmate/v1/match_service_pb.js";
import { chooseAction } from "./strategy.js";

/** One seat of a match and the secret that acts for it: its seat token or the bot's API key. */
export interface Seat {
  matchId: string;
  seat: string;
  token: string;
}

export interface PlayOptions {
  reconnect?: ReconnectPolicy;
  /**
   * A stream silent this long is taken for a dead connection and reopened. The server sends a
   * heartbeat after 15 s of quiet by default, so 60 s allows for three lost ones.
   */
  silenceLimitMs?: number;
  /** Where progress and reconnections are reported; standard error by default. */
  log?: (line: string) => void;
  /** Told of every action sent, resends included (before its answer has come). */
  onSend?: (action: SentAction) => void;
}

/** An action sent on the stream and not answered yet. */
export interface SentAction {
  /** The version it was chosen at, sent as `expected_version`. */
  version: bigint;
  /** Derived from the seat and the version, so the same choice always has the same id. */
  clientActionId: string;
  index: number;
  notation: string;
  /** Sent again on a new stream because the first one's answer was lost. */
  resend: boolean;
}

/** How a match went for the seat. */
export interface PlayReport {
  result: MatchResult;
  /** The ids of the seat's actions the server accepted, each once. */
  accepted: Set<string>;
  /** Answers to resent actions that had already been applied (nothing was applied again). */
  duplicates: number;
  /** Streams opened after the first. */
  reconnects: number;
}

/**
 * Plays `seat` with `chooseAction` until the match ends; returns how it ended.
 *
 * The server prompts the seat on the stream whenever it is to act; the loop fetches the
 * seat's view with the legal actions, asks `chooseAction`, and sends the choice. When the
 * connection breaks it waits (growing, jittered delays), opens the stream again after the last
 * event it saw, and sends the action still unanswered again under the same `client_action_id`:
 * the server applies it at most once and answers a repeat as a duplicate.
 */
export async function playMatch(api: Api, seat: Seat, options: PlayOptions = {}): Promise<PlayReport> {
  const loop = new PlayLoop(api, seat, options);
  const backoff = new Backoff(options.reconnect ?? DEFAULT_RECONNECT, loop.log);
  for (;;) {
    try {
      const result = await loop.follow(() => backoff.succeeded());
      return { result, accepted: loop.accepted, duplicates: loop.duplicates, reconnects: loop.streams - 1 };
    } catch (error) {
      await backoff.wait(error, `match ${seat.matchId}`);
    }
  }
}

class PlayLoop {
  readonly log: (line: string) => void;
  readonly accepted = new Set<string>();
  duplicates = 0;
  streams = 0;
  /** The newest event seen: a stream opened again starts after it. */
  private lastSeq = 0n;
  /** Sent and not answered; sent again on the next stream if this one breaks first. */
  private unanswered: SentAction | undefined;
  /** A prompt that came while an action was unanswered, to act on if that one misses it. */
  private deferred: YourTurn | undefined;

  constructor(
    private readonly api: Api,
    private readonly seat: Seat,
    private readonly options: PlayOptions,
  ) {
    this.log = options.log ?? ((line) => console.error(line));
  }

  /** One stream's worth of play: returns the result, or throws when the stream fails. */
  async follow(connected: () => void): Promise<MatchResult> {
    const silenceLimitMs = this.options.silenceLimitMs ?? 60_000;
    const abort = new AbortController();
    let silent = false;
    let silence = setTimeout(() => ((silent = true), abort.abort()), silenceLimitMs);
    const requests = createWritableIterable<PlayRequest>();
    const send = (request: PlayRequest): void => {
      // Resolves once the transport has taken it; a failure shows on the response stream.
      requests.write(request).catch(() => {});
    };
    this.streams += 1;
    this.deferred = undefined;
    try {
      const responses = this.api.matches.play(requests, bearer(this.seat.token, abort.signal));
      send(
        create(PlayRequestSchema, {
          kind: {
            case: "open",
            value: { matchId: this.seat.matchId, afterSeq: this.lastSeq, promptDetail: ActionDetail.NOTATION },
          },
        }),
      );
      if (this.unanswered !== undefined) {
        this.unanswered = { ...this.unanswered, resend: true };
        this.sendAction(send, this.unanswered);
      }
      let first = true;
      let ended: MatchResult | undefined;
      for await (const response of responses) {
        if (first) {
          connected();
          first = false;
        }
        clearTimeout(silence);
        silence = setTimeout(() => ((silent = true), abort.abort()), silenceLimitMs);
        const item = response.item;
        switch (item.case) {
          case "event":
            this.lastSeq = item.value.seq;
            if (item.value.kind.case === "matchEnded") {
              ended = item.value.kind.value.result ?? create(MatchResultSchema);
            }
            break;
          case "yourTurn":
            await this.prompted(item.value, send);
            break;
          case "acted":
            await this.answered(item.value, send);
            break;
          default:
            break; // heartbeats only keep the stream alive
        }
        // The answer to an action that ended the match comes after the match's end.
        if (ended !== undefined && this.unanswered === undefined) {
          return ended;
        }
      }
      if (ended !== undefined) {
        return ended;
      }
      // The server ends streams when it shuts down; the match goes on after its restart.
      throw new ConnectionLost(`the stream of match ${this.seat.matchId} ended before the match did`);
    } catch (error) {
      if (silent) {
        throw new ConnectionLost(`the stream of match ${this.seat.matchId} was silent for ${silenceLimitMs} ms`);
      }
      throw error;
    } finally {
      clearTimeout(silence);
      requests.close();
      abort.abort();
    }
  }

  /** The seat is to act at `prompt.version`. */
  private async prompted(prompt: YourTurn, send: (request: PlayRequest) => void): Promise<void> {
    if (this.unanswered !== undefined) {
      // Its answer decides whether this prompt is still to be acted on.
      if (prompt.version !== this.unanswered.version) {
        this.deferred = prompt;
      }
      return;
    }
    await this.act(send);
  }

  /** Asks the strategy for an action at the current version and sends it. */
  private async act(send: (request: PlayRequest) => void): Promise<void> {
    // The prompt lists the actions; the view comes with them from GetLegalActions, at the
    // version it answers for (newer than the prompt's if the match moved on meanwhile).
    const legal = await this.api.matches.getLegalActions(
      { matchId: this.seat.matchId },
      bearer(this.seat.token),
    );
    if (legal.actions.length === 0 || legal.view === undefined) {
      return; // no longer the seat's turn: the stream brings what happened
    }
    const chosen = checked(chooseAction(legal.view, legal.actions), legal.actions);
    const action: SentAction = {
      version: legal.version,
      clientActionId: `${this.seat.seat}@${legal.version}`,
      index: chosen.index,
      notation: chosen.notation,
      resend: false,
    };
    this.unanswered = action;
    this.sendAction(send, action);
  }

  private sendAction(send: (request: PlayRequest) => void, action: SentAction): void {
    send(
      create(PlayRequestSchema, {
        kind: {
          case: "act",
          value: {
            expectedVersion: action.version,
            clientActionId: action.clientActionId,
            choice: { case: "index", value: action.index },
          },
        },
      }),
    );
    this.options.onSend?.(action);
  }

  /** The answer to the unanswered action. */
  private async answered(outcome: ActionOutcome, send: (request: PlayRequest) => void): Promise<void> {
    const action = this.unanswered;
    if (action === undefined || outcome.clientActionId !== action.clientActionId) {
      return;
    }
    const result = outcome.result;
    let next: bigint; // the lowest version a deferred prompt may act at
    if (result.case === "accepted") {
      this.accepted.add(action.clientActionId);
      if (result.value.duplicate) {
        this.duplicates += 1;
      }
      next = result.value.version;
    } else if (result.case === "refused") {
      const refused = result.value;
      switch (refused.reason) {
        case "RATE_LIMITED": {
          const delay = refused.retryDelay;
          await sleep(delay === undefined ? 100 : Number(delay.seconds) * 1000 + delay.nanos / 1e6);
          this.sendAction(send, action);
          return;
        }
        // The match moved on (the other seat acted in a simultaneous phase, a clock ran out,
        // the match ended): the stream brings what happened and the next prompt.
        case "STALE_VERSION":
        case "NOT_YOUR_TURN":
        case "MATCH_NOT_ACTIVE":
          next = action.version + 1n;
          break;
        default:
          if (refused.code === Code.Unavailable) {
            // The match is being restarted: send it again on a new stream.
            throw new ConnectionLost(`action ${action.clientActionId} refused for now: ${refused.message}`);
          }
          throw new Error(
            `match ${this.seat.matchId}: action ${action.notation} (${action.clientActionId}) refused: ` +
              `${refused.reason}: ${refused.message}`,
          );
      }
    } else {
      return;
    }
    this.unanswered = undefined;
    const deferred = this.deferred;
    this.deferred = undefined;
    if (deferred !== undefined && deferred.version >= next) {
      await this.act(send);
    }
  }
}

/** The strategy's choice, which must be one of the legal actions it was given. */
function checked(chosen: LegalAction | undefined, legalActions: LegalAction[]): LegalAction {
  if (chosen === undefined || !legalActions.includes(chosen)) {
    throw new Error("chooseAction must return one of the legal actions it was given, unchanged");
  }
  return chosen;
}
