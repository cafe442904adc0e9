"""A bot in a league: it follows its inbox, waits in the matchmaking queue, accepts the
challenges it is sent, and plays every match assigned to it with its API key until it has
finished as many as it was asked to (docs/api.md, "A bot's inbox", "The matchmaking queue").
After a lost connection or a server restart it follows its inbox again after the last item it
read: nothing it was told is missed or handled twice."""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

import grpc

from pitchmate.v1 import (
    challenge_service_pb2,
    challenge_service_pb2_grpc,
    common_pb2,
    inbox_service_pb2,
    inbox_service_pb2_grpc,
    match_service_pb2,
    match_service_pb2_grpc,
    queue_service_pb2,
    queue_service_pb2_grpc,
)

from .connection import Backoff, ConnectionLost, bearer, describe_error, error_reason
from .play import SILENCE_LIMIT_SECS, ChooseAction, describe_result, play_match


@dataclass
class LeagueReport:
    """What a league run saw."""

    # Every inbox item's seq, in the order read.
    seqs: list[int] = field(default_factory=list)
    assigned: list[inbox_service_pb2.InboxMatchAssigned] = field(default_factory=list)
    finished: list[inbox_service_pb2.InboxMatchFinished] = field(default_factory=list)
    # Matches whose play loop failed (the match still ends, by the server's clocks or its
    # show-up deadline), with the error.
    failed: list[tuple[str, str]] = field(default_factory=list)


async def run_league(
    channel: grpc.aio.Channel,
    api_key: str,
    choose_action: ChooseAction,
    *,
    matches: int,
    queue: challenge_service_pb2.MatchTerms | None = None,
    accept_challenges: bool = True,
    after_seq: int = 0,
    say: Callable[[str], None] = print,
) -> LeagueReport:
    """Plays as the bot whose key (scopes PLAY, and CHALLENGE to queue or answer challenges)
    `api_key` is, until `matches` of its matches have ended and every match assigned to it is
    over. With `queue`, waits in the pool of those terms whenever it has been assigned fewer
    than `matches`. Follows the inbox after `after_seq` (0: every item the server keeps).
    Says what happens (each assignment and each result) through `say`."""
    league = _League(channel, api_key, choose_action, matches, queue, accept_challenges, say)
    league.last_seq = after_seq
    backoff = Backoff()
    try:
        await league.enter_queue()
        while True:
            try:
                await league.follow(backoff)
                return league.report
            except (grpc.aio.AioRpcError, ConnectionLost) as error:
                await backoff.wait(error)
    finally:
        for task in league.plays:
            task.cancel()


class _League:
    def __init__(self, channel, api_key, choose_action, matches, queue, accept_challenges, say):
        self.channel = channel
        self.api_key = api_key
        self.metadata = bearer(api_key)
        self.choose_action = choose_action
        self.matches = matches
        self.queue_terms = queue
        self.accept_challenges = accept_challenges
        self.say = say
        self.inboxes = inbox_service_pb2_grpc.InboxServiceStub(channel)
        self.queue = queue_service_pb2_grpc.QueueServiceStub(channel)
        self.challenges = challenge_service_pb2_grpc.ChallengeServiceStub(channel)
        self.report = LeagueReport()
        self.last_seq = 0
        # Matches whose play has been started, so an item read twice never starts two.
        self.started: set[str] = set()
        # The running play loops and the match each plays.
        self.plays: dict[asyncio.Task, str] = {}

    async def follow(self, backoff: Backoff) -> None:
        """One connection's worth of the inbox; returns once the bot is done."""
        call = self.inboxes.WatchInbox(
            inbox_service_pb2.WatchInboxRequest(after_seq=self.last_seq), metadata=self.metadata
        )
        read: asyncio.Future | None = None
        try:
            while True:
                if read is None:
                    read = asyncio.ensure_future(asyncio.wait_for(call.read(), SILENCE_LIMIT_SECS))
                done, _ = await asyncio.wait({read, *self.plays}, return_when=asyncio.FIRST_COMPLETED)
                for task in done & self.plays.keys():
                    self.played(task)
                if read in done:
                    message, read = self._message(read), None
                    backoff.succeeded()
                    if message.WhichOneof("kind") == "item":
                        # Handled first, then counted as read: an item whose handling failed
                        # (the connection broke under it) is read and handled again.
                        await self.handle(message.item)
                        self.last_seq = message.item.seq
                        self.report.seqs.append(message.item.seq)
                if await self.done():
                    return
        except grpc.aio.AioRpcError as error:
            if error_reason(error) != "INBOX_SEQ_EXPIRED":
                raise
            await self.resume_from_snapshot()
            raise ConnectionLost("the inbox cursor expired; following it again from its newest item")
        finally:
            if read is not None:
                read.cancel()
            call.cancel()

    def _message(self, read: asyncio.Future) -> inbox_service_pb2.WatchInboxResponse:
        try:
            message = read.result()
        except TimeoutError:
            raise ConnectionLost(f"no word on the inbox for {SILENCE_LIMIT_SECS:.0f} s")
        if message is grpc.aio.EOF:
            raise ConnectionLost("the server closed the inbox stream")
        return message

    async def handle(self, item: inbox_service_pb2.InboxItem) -> None:
        kind = item.WhichOneof("kind")
        if kind == "match_assigned":
            assigned = item.match_assigned
            if assigned.match_id not in self.started:
                self.report.assigned.append(assigned)
            self.start_play(
                assigned.match_id, assigned.seat, f" ({assigned.variant_id}) against {assigned.opponent_name}"
            )
        elif kind == "match_finished":
            finished = item.match_finished
            await self.enter_queue()
            self.report.finished.append(finished)
            outcome = common_pb2.MatchOutcome.Name(finished.outcome).removeprefix("MATCH_OUTCOME_")
            which = f"match {finished.match_id} ({finished.variant_id}, seat {finished.seat})"
            self.say(f"{which}: {outcome}; {describe_result(finished.result)}")
        elif kind == "challenge_received":
            await self.answer(item.challenge_received)

    def start_play(self, match_id: str, seat: str, about: str = "") -> None:
        if match_id in self.started:
            return
        self.started.add(match_id)
        self.say(f"assigned match {match_id}, seat {seat or 'any'}{about}")
        task = asyncio.ensure_future(self.take_seat_and_play(match_id, seat))
        self.plays[task] = match_id

    async def take_seat_and_play(self, match_id: str, seat: str) -> common_pb2.MatchResult:
        matches = match_service_pb2_grpc.MatchServiceStub(self.channel)
        backoff = Backoff()
        while True:
            try:
                # With a bot's key the seat is taken for the bot, and the key acts in it.
                await matches.JoinMatch(
                    match_service_pb2.JoinMatchRequest(match_id=match_id, seat=seat), metadata=self.metadata
                )
                break
            except grpc.aio.AioRpcError as error:
                reason = error_reason(error)
                if reason == "ALREADY_SEATED":
                    break
                # An assignment announced before its match exists (only after a crash): soon it will.
                await backoff.wait(
                    ConnectionLost(describe_error(error)) if reason == "MATCH_NOT_FOUND" else error
                )
        return await play_match(self.channel, match_id, self.api_key, self.choose_action)

    def played(self, task: asyncio.Task) -> None:
        match_id = self.plays.pop(task)
        error = task.exception()
        if error is not None:
            self.say(f"match {match_id} was not played to its end: {describe_error(error)}")
            self.report.failed.append((match_id, describe_error(error)))

    async def enter_queue(self) -> None:
        """Waits in the pool of the queued terms, unless the bot has been assigned enough
        matches or already waits there."""
        if self.queue_terms is None or len(self.report.assigned) >= self.matches:
            return
        try:
            await self.queue.EnterQueue(
                queue_service_pb2.EnterQueueRequest(terms=self.queue_terms), metadata=self.metadata
            )
        except grpc.aio.AioRpcError as error:
            if error_reason(error) != "ALREADY_QUEUED":
                raise

    async def leave_queue(self) -> None:
        tickets = await self.queue.ListTickets(
            queue_service_pb2.ListTicketsRequest(waiting_only=True), metadata=self.metadata
        )
        for ticket in tickets.tickets:
            try:
                await self.queue.LeaveQueue(
                    queue_service_pb2.LeaveQueueRequest(ticket_id=ticket.ticket_id), metadata=self.metadata
                )
            except grpc.aio.AioRpcError as error:
                # Paired meanwhile: that match is played out like any other.
                if error_reason(error) != "TICKET_NOT_WAITING":
                    raise

    async def answer(self, challenge: challenge_service_pb2.Challenge) -> None:
        try:
            if self.accept_challenges and len(self.report.assigned) < self.matches:
                await self.challenges.AcceptChallenge(
                    challenge_service_pb2.AcceptChallengeRequest(challenge_id=challenge.challenge_id),
                    metadata=self.metadata,
                )
            else:
                await self.challenges.DeclineChallenge(
                    challenge_service_pb2.DeclineChallengeRequest(
                        challenge_id=challenge.challenge_id, reason=challenge_service_pb2.DECLINE_REASON_LATER
                    ),
                    metadata=self.metadata,
                )
        except grpc.aio.AioRpcError as error:
            # Withdrawn or expired meanwhile, or the bot is at its cap: nothing to do.
            if error_reason(error) not in ("CHALLENGE_CLOSED", "BOT_OVER_CAP"):
                raise

    async def done(self) -> bool:
        """Whether enough matches have ended, every match assigned to the bot is over (also one
        assigned but not yet announced) and the inbox has been read to its end."""
        if len(self.report.finished) < self.matches or self.plays:
            return False
        await self.leave_queue()
        quota = await self.challenges.GetQuota(
            challenge_service_pb2.GetQuotaRequest(), metadata=self.metadata
        )
        if quota.live > 0:
            return False
        inbox = await self.inboxes.GetInbox(inbox_service_pb2.GetInboxRequest(), metadata=self.metadata)
        return inbox.newest_seq <= self.last_seq

    async def resume_from_snapshot(self) -> None:
        """An expired cursor: plays the live matches the snapshot shows and follows the inbox
        from its newest item."""
        snapshot = await self.inboxes.GetInbox(inbox_service_pb2.GetInboxRequest(), metadata=self.metadata)
        self.last_seq = snapshot.newest_seq
        for live in snapshot.live_matches:
            self.start_play(live.match_id, live.seat)
