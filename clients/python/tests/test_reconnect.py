"""A bot whose connection is cut mid-match, again and again, or whose server restarts
mid-match, reconnects, resumes after the last event it saw, and finishes the match without any
action applied twice."""

import asyncio
import random

from conftest import Server
from pitchmate.v1 import common_pb2, match_service_pb2, match_service_pb2_grpc
from starter.connection import Backoff, connect
from starter.play import PlayRecord, play_match

MATCH_SECS = 120


class CuttingProxy:
    """A TCP proxy on 127.0.0.1 between a bot and the server that can drop every connection
    through it at once, and stop passing the server's bytes back to the bot before that."""

    def __init__(self, upstream: str) -> None:
        host, port = upstream.rsplit(":", 1)
        self.upstream = (host, int(port))
        self.connections: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self.answers_dropped = False
        self.cuts = 0

    async def start(self) -> str:
        self.listener = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.listener.sockets[0].getsockname()[1]
        return f"127.0.0.1:{port}"

    def drop_answers(self) -> None:
        """From now on the server's bytes reach the bot no more (until the next cut): what the
        bot sends arrives, but it never hears the answers."""
        self.answers_dropped = True

    def cut(self) -> None:
        """Drops every connection through the proxy, as a network failure would."""
        for client, server in self.connections:
            client.transport.abort()
            server.transport.abort()
        self.connections.clear()
        self.answers_dropped = False
        self.cuts += 1

    async def close(self) -> None:
        self.listener.close()
        for client, server in self.connections:
            client.transport.abort()
            server.transport.abort()
        await self.listener.wait_closed()

    async def _serve(self, client_reader, client_writer) -> None:
        server_reader, server_writer = await asyncio.open_connection(*self.upstream)
        self.connections.append((client_writer, server_writer))
        await asyncio.gather(
            self._pump(client_reader, server_writer, lambda: False),
            self._pump(server_reader, client_writer, lambda: self.answers_dropped),
        )

    @staticmethod
    async def _pump(reader, writer, dropping) -> None:
        try:
            while data := await reader.read(65536):
                if not dropping():
                    writer.write(data)
                    await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.transport.abort()


def test_a_bot_survives_cut_connections_and_nothing_is_applied_twice(server):
    asyncio.run(asyncio.wait_for(_cut_match(server), MATCH_SECS))


async def _cut_match(server: str) -> None:
    proxy = CuttingProxy(server)
    proxy_address = await proxy.start()
    direct, through_proxy = connect(server), connect(proxy_address)
    matches = match_service_pb2_grpc.MatchServiceStub(direct)
    created = await matches.CreateMatch(
        match_service_pb2.CreateMatchRequest(
            variant_id="kings-goal",
            options={"moves_per_half": common_pb2.OptionValue(int_value=20)},
        )
    )
    match_id = created.match.match_id
    cut_seat = await matches.JoinMatch(
        match_service_pb2.JoinMatchRequest(match_id=match_id, player_name="cut")
    )
    other_seat = await matches.JoinMatch(
        match_service_pb2.JoinMatchRequest(match_id=match_id, player_name="steady")
    )

    # The plan, by the cut bot's actions: plain cuts at its 5th and 25th, and at its 15th a cut
    # once its action has been applied but before any answer came back, so the bot cannot know.
    chosen = 0
    cuts_pending = set()

    async def cut_once_applied(version: int) -> None:
        # Seats alternate in King's Goal: the match passes this version by the cut bot's action.
        request = match_service_pb2.GetMatchRequest(match_id=match_id)
        while (await matches.GetMatch(request)).match.version <= version:
            await asyncio.sleep(0.01)
        proxy.cut()

    def choose_and_cut(view, legal_actions):
        nonlocal chosen
        chosen += 1
        if chosen in (5, 25):
            proxy.cut()
        elif chosen == 15:
            proxy.drop_answers()
            cuts_pending.add(asyncio.ensure_future(cut_once_applied(view.version)))
        return random.choice(legal_actions)

    record = PlayRecord()
    fast = Backoff(first_delay=0.05, max_delay=0.5)
    cut_play = play_match(
        through_proxy, match_id, cut_seat.seat_token, choose_and_cut, backoff=fast, record=record
    )
    other_play = play_match(
        direct, match_id, other_seat.seat_token, lambda view, actions: random.choice(actions)
    )
    cut_result, other_result = await asyncio.gather(cut_play, other_play)
    await asyncio.gather(*cuts_pending)
    replay = await matches.GetReplay(match_service_pb2.GetReplayRequest(match_id=match_id))
    await proxy.close()
    await direct.close()
    await through_proxy.close()

    assert chosen > 25, f"the match ended after {chosen} of the cut bot's choices, before the last cut"
    assert proxy.cuts == 3 and record.reconnects >= 3, (proxy.cuts, record.reconnects)
    assert cut_result == other_result == replay.header.result
    assert replay.header.result.reason == 1  # RESULT_REASON_RULES

    # Every event reached the bot exactly once, in order, across all its connections.
    assert record.seqs == list(range(1, len(record.seqs) + 1))
    assert record.seqs[-1] == replay.events[-1].seq
    assert [e.seq for e in replay.events] == list(range(1, len(replay.events) + 1))

    # The action whose answer was lost was sent again under its id and answered as a duplicate;
    # no action was applied twice: the replay has one action per id the bot saw accepted.
    assert any(duplicate for _, duplicate in record.accepted), record.accepted
    accepted_ids = [action_id for action_id, _ in record.accepted]
    assert len(set(accepted_ids)) == len(accepted_ids), accepted_ids
    taken = [
        e
        for e in replay.events
        if e.WhichOneof("kind") == "action_taken" and e.action_taken.seat == cut_seat.seat
    ]
    assert len(taken) == len(accepted_ids)


def test_bots_ride_out_a_server_restart_mid_match(tmp_path):
    asyncio.run(asyncio.wait_for(_restarted_match(Server(tmp_path)), MATCH_SECS))


async def _restarted_match(server: Server) -> None:
    address = server.start()
    channel = connect(address)
    matches = match_service_pb2_grpc.MatchServiceStub(channel)
    created = await matches.CreateMatch(
        match_service_pb2.CreateMatchRequest(
            variant_id="kings-goal", options={"moves_per_half": common_pb2.OptionValue(int_value=20)}
        )
    )
    match_id = created.match.match_id
    seats = [
        await matches.JoinMatch(match_service_pb2.JoinMatchRequest(match_id=match_id, player_name=name))
        for name in ("first", "second")
    ]
    chosen = 0
    restarts = set()

    async def restart() -> None:
        # Blocking process calls, off the event loop the bots play on.
        await asyncio.to_thread(server.stop)
        await asyncio.to_thread(server.start)

    def choose_and_restart(view, legal_actions):
        nonlocal chosen
        chosen += 1
        if chosen == 10:
            restarts.add(asyncio.ensure_future(restart()))
        return random.choice(legal_actions)

    records = [PlayRecord(), PlayRecord()]
    try:
        results = await asyncio.gather(
            *(
                play_match(channel, match_id, seat.seat_token, choose_and_restart, record=record)
                for seat, record in zip(seats, records)
            )
        )
        await asyncio.gather(*restarts)
        replay = await matches.GetReplay(match_service_pb2.GetReplayRequest(match_id=match_id))
    finally:
        await channel.close()
        server.stop()

    assert server.runs == 2
    assert results[0] == results[1] == replay.header.result
    assert replay.header.result.reason == common_pb2.RESULT_REASON_RULES
    for record in records:
        assert record.reconnects >= 1
        assert record.seqs == list(range(1, len(record.seqs) + 1))
        accepted_ids = [action_id for action_id, _ in record.accepted]
        assert len(set(accepted_ids)) == len(accepted_ids)
    taken = [e for e in replay.events if e.WhichOneof("kind") == "action_taken"]
    assert len(taken) == sum(len(record.accepted) for record in records)
