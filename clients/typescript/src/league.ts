// A bot in a league: it follows its inbox, waits in the matchmaking queue if asked to, accepts
// the challenges it is sent, and plays every match assigned to it (several at once) until a
// given number of its matches have ended. When the connection breaks it follows its inbox
// again after the last item it read, so it misses nothing and reads nothing twice.

import { Backoff, DEFAULT_RECONNECT, type ReconnectPolicy } from "./backoff.js";
import { bearer, ConnectionLost, describeError, errorInfo, type Api } from "./client.js";
import { DeclineReason, type Challenge, type MatchTerms } from "./gen/pitchmate/v1/challenge_service_pb.js";
import type { InboxItem, InboxMatchAssigned, InboxMatchFinished } from "./gen/pitchmate/v1/inbox_service_pb.js";
import { playMatch, type PlayOptions } from "./play.js";

export interface LeagueOptions {
  /** Stop once this many of the bot's matches have ended. */
  matches: number;
  /** The terms of the pool to wait in (entered again after each match); none: no queue. */
  queue?: MatchTerms;
  reconnect?: ReconnectPolicy;
  /** How each match is played. */
  play?: PlayOptions;
  /** Where progress and reconnections are reported; standard error by default. */
  log?: (line: string) => void;
  /** Told of each match assigned, as the inbox says it. */
  onAssigned?: (assigned: InboxMatchAssigned) => void;
  /** Told of each of its matches that ended, as the inbox says it. */
  onFinished?: (finished: InboxMatchFinished) => void;
}

/** What a league run saw. */
export interface LeagueReport {
  /** Every inbox item's seq, in the order read. */
  seqs: bigint[];
  assigned: InboxMatchAssigned[];
  finished: InboxMatchFinished[];
  /** Matches whose play loop failed (the match still ends, by a clock or a no-show). */
  failed: { matchId: string; error: string }[];
}

/**
 * Runs the bot whose API key is `apiKey` until `options.matches` of its matches have ended,
 * then leaves the queue and plays out whatever it was assigned meanwhile. It starts with the
 * matches it has live now (a bot restarted mid-match carries on) and the inbox after its
 * newest item. Needs a key with scopes PLAY and, to queue or answer challenges, CHALLENGE.
 */
export async function runLeague(api: Api, apiKey: string, options: LeagueOptions): Promise<LeagueReport> {
  const league = new League(api, apiKey, options);
  await league.run();
  return league.report;
}

class League {
  readonly report: LeagueReport = { seqs: [], assigned: [], finished: [], failed: [] };
  private readonly log: (line: string) => void;
  private readonly backoff: Backoff;
  /** Matches with a play loop started, and the loops still running. */
  private readonly playing = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private lastSeq = 0n;
  /** Matches taken on (assigned, or live at the start): the queue is left once enough are. */
  private takenOn = 0;
  private stopping = false;

  constructor(
    private readonly api: Api,
    private readonly key: string,
    private readonly options: LeagueOptions,
  ) {
    this.log = options.log ?? ((line) => console.error(line));
    this.backoff = new Backoff(options.reconnect ?? DEFAULT_RECONNECT, this.log);
  }

  async run(): Promise<void> {
    await retrying(this.backoff, "inbox", () => this.startFromSnapshot());
    await retrying(this.backoff, "queue", () => this.enterQueue());
    for (;;) {
      try {
        if (await this.follow()) {
          break;
        }
      } catch (error) {
        if (errorInfo(error)?.reason === "INBOX_SEQ_EXPIRED") {
          await retrying(this.backoff, "inbox", () => this.startFromSnapshot());
          continue;
        }
        await this.backoff.wait(error, "inbox");
      }
    }
    await Promise.all(this.running);
  }

  /** Plays the matches the bot has live and follows the inbox from its newest item. */
  private async startFromSnapshot(): Promise<void> {
    const inbox = await this.api.inbox.getInbox({}, bearer(this.key));
    this.lastSeq = inbox.newestSeq;
    this.log(`following the inbox after item ${inbox.newestSeq}; ${inbox.liveMatches.length} live match(es)`);
    for (const live of inbox.liveMatches) {
      this.startPlay(live.matchId, live.seat);
    }
  }

  /** One connection's worth of the inbox; true once the bot is done. */
  private async follow(): Promise<boolean> {
    const abort = new AbortController();
    const silenceLimitMs = 60_000;
    let silence = setTimeout(() => abort.abort(), silenceLimitMs);
    try {
      const stream = this.api.inbox.watchInbox({ afterSeq: this.lastSeq }, bearer(this.key, abort.signal));
      for await (const message of stream) {
        this.backoff.succeeded();
        clearTimeout(silence);
        silence = setTimeout(() => abort.abort(), silenceLimitMs);
        if (message.kind.case === "item") {
          const item = message.kind.value;
          this.lastSeq = item.seq;
          this.report.seqs.push(item.seq);
          await this.handle(item.kind);
        }
        // Heartbeats are when a stopping bot looks again whether it is done.
        if (await this.done()) {
          return true;
        }
      }
      throw new ConnectionLost("the inbox stream ended");
    } catch (error) {
      if (abort.signal.aborted) {
        throw new ConnectionLost(`the inbox stream was silent for ${silenceLimitMs} ms`);
      }
      throw error;
    } finally {
      clearTimeout(silence);
      abort.abort();
    }
  }

  private async handle(item: InboxItem["kind"]): Promise<void> {
    switch (item.case) {
      case "challengeReceived":
        await this.answer(item.value);
        break;
      case "matchAssigned": {
        const assigned = item.value;
        this.report.assigned.push(assigned);
        this.options.onAssigned?.(assigned);
        this.startPlay(assigned.matchId, assigned.seat);
        await this.enterQueue();
        break;
      }
      case "matchFinished":
        this.report.finished.push(item.value);
        this.options.onFinished?.(item.value);
        await this.enterQueue();
        break;
      default:
        break; // resolved challenges, tournaments and cap changes need no answer here
    }
  }

  /** Whether the bot still takes on matches. */
  private wantsMore(): boolean {
    return !this.stopping && this.takenOn < this.options.matches;
  }

  /** Accepts a challenge while the bot wants matches; declines it for later otherwise. */
  private async answer(challenge: Challenge): Promise<void> {
    const challengeId = challenge.challengeId;
    try {
      if (this.wantsMore()) {
        await this.api.challenges.acceptChallenge({ challengeId }, bearer(this.key));
      } else {
        await this.api.challenges.declineChallenge({ challengeId, reason: DeclineReason.LATER }, bearer(this.key));
      }
    } catch (error) {
      // Withdrawn or expired meanwhile, or the bot is at its cap: nothing to do.
      const reason = errorInfo(error)?.reason;
      if (reason !== "CHALLENGE_CLOSED" && reason !== "BOT_OVER_CAP") {
        throw error;
      }
    }
  }

  /** Puts the bot in its pool unless it waits there already or has taken on enough. */
  private async enterQueue(): Promise<void> {
    const terms = this.options.queue;
    if (terms === undefined || !this.wantsMore()) {
      return;
    }
    try {
      await this.api.queue.enterQueue({ terms }, bearer(this.key));
    } catch (error) {
      if (errorInfo(error)?.reason !== "ALREADY_QUEUED") {
        throw error;
      }
    }
  }

  /** Once enough matches have ended: out of the queue, and every match taken on is over. */
  private async done(): Promise<boolean> {
    if (this.report.finished.length < this.options.matches) {
      return false;
    }
    if (!this.stopping) {
      this.stopping = true;
      await this.leaveQueue();
    }
    // Assigned matches not announced yet count as live, so none is left to a no-show.
    const quota = await this.api.challenges.getQuota({}, bearer(this.key));
    if (quota.live > 0) {
      return false;
    }
    const inbox = await this.api.inbox.getInbox({}, bearer(this.key));
    return inbox.newestSeq <= this.lastSeq;
  }

  private async leaveQueue(): Promise<void> {
    const tickets = await this.api.queue.listTickets({ waitingOnly: true }, bearer(this.key));
    for (const ticket of tickets.tickets) {
      try {
        await this.api.queue.leaveQueue({ ticketId: ticket.ticketId }, bearer(this.key));
      } catch (error) {
        // Paired meanwhile: its match is assigned and will be played.
        if (errorInfo(error)?.reason !== "TICKET_NOT_WAITING") {
          throw error;
        }
      }
    }
  }

  /** Takes the seat and plays the match in the background, once per match. */
  private startPlay(matchId: string, seat: string): void {
    if (this.playing.has(matchId)) {
      return;
    }
    this.playing.add(matchId);
    this.takenOn += 1;
    const play = (async () => {
      try {
        const backoff = new Backoff(this.options.reconnect ?? DEFAULT_RECONNECT, this.log);
        const taken = await retrying(backoff, `match ${matchId}`, () => this.takeSeat(matchId, seat));
        await playMatch(this.api, { matchId, seat: taken, token: this.key }, { log: this.log, ...this.options.play });
      } catch (error) {
        this.log(`match ${matchId} was not played to its end: ${describeError(error)}`);
        this.report.failed.push({ matchId, error: describeError(error) });
      }
    })();
    this.running.add(play);
    void play.finally(() => this.running.delete(play));
  }

  /** Joins with the bot's key (no seat token: the key acts for the seat); returns the seat. */
  private async takeSeat(matchId: string, seat: string): Promise<string> {
    try {
      const joined = await this.api.matches.joinMatch({ matchId, seat }, bearer(this.key));
      return joined.seat;
    } catch (error) {
      const info = errorInfo(error);
      if (info?.reason === "ALREADY_SEATED") {
        return info.metadata["seat"] ?? seat; // a loop started again: the seat is its own
      }
      if (info?.reason === "MATCH_NOT_FOUND") {
        // Announced before its match exists only after a server crash: soon it will.
        throw new ConnectionLost(`match ${matchId} does not exist yet`);
      }
      throw error;
    }
  }
}


/** Calls `call` until it gets through, waiting between attempts while the server is away. */
async function retrying<T>(backoff: Backoff, what: string, call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      const result = await call();
      backoff.succeeded();
      return result;
    } catch (error) {
      await backoff.wait(error, what);
    }
  }
}
