"""Two starter bots, started as a bot author starts them (`python bot.py --create` and
`python bot.py --join`), play a whole match of every variant to its result."""

import re

import grpc
import pytest

from conftest import run_bot
from pitchmate.v1 import common_pb2, match_service_pb2, match_service_pb2_grpc

# Options that shorten each game, so the whole suite stays quick.
SHORT_MATCHES = {
    "soccer-chess": ["sets_per_game=2", "golden_goal_max_sets=1"],
    "chessyball": ["max_turns=12"],
    "kings-goal": ["moves_per_half=10"],
    "xfutebol": ["winning_style=movement_count", "movement_limit=10", "shootout_rounds=1"],
    "gridiron": ["possessions_per_half=1", "turns_per_down=2", "overtime_periods=0"],
}
MATCH_SECS = 120


@pytest.mark.parametrize("variant", sorted(SHORT_MATCHES))
def test_two_starter_bots_play_a_match_to_its_result(server, variant):
    options = [arg for option in SHORT_MATCHES[variant] for arg in ("--option", option)]
    creator = run_bot("--server", server, "--create", variant, *options, "--name", "first")
    try:
        created = creator.stdout.readline()
        found = re.match(r"match (\S+) \(" + re.escape(variant) + r"\) created", created)
        assert found, f"the creating bot said {created!r}"
        match_id = found.group(1)
        joiner = run_bot("--server", server, "--join", match_id, "--name", "second")
        try:
            joiner_out, joiner_err = joiner.communicate(timeout=MATCH_SECS)
        finally:
            joiner.kill()
        creator_out, creator_err = creator.communicate(timeout=MATCH_SECS)
    finally:
        creator.kill()

    assert creator.returncode == 0, creator_err
    assert joiner.returncode == 0, joiner_err
    results = []
    for output in (creator_out, joiner_out):
        seat = re.search(r"playing seat (\S+) of match " + re.escape(match_id), output)
        assert seat, output
        result = re.search(r"match " + re.escape(match_id) + r", seat (\S+): (won|lost|a draw); (.*)", output)
        assert result, output
        assert result.group(1) == seat.group(1)
        results.append(result)
    # Both seats saw the same end, each from its side.
    assert results[0].group(3) == results[1].group(3)
    verdicts = sorted(r.group(2) for r in results)
    assert verdicts in (["a draw", "a draw"], ["lost", "won"]), verdicts
    assert "(rules" in results[0].group(3), results[0].group(3)


def test_bots_given_their_seat_tokens_play_a_match(server):
    with grpc.insecure_channel(server) as channel:
        matches = match_service_pb2_grpc.MatchServiceStub(channel)
        created = matches.CreateMatch(
            match_service_pb2.CreateMatchRequest(
                variant_id="chessyball", options={"max_turns": common_pb2.OptionValue(int_value=12)}
            )
        )
        match_id = created.match.match_id
        seats = [
            matches.JoinMatch(match_service_pb2.JoinMatchRequest(match_id=match_id, player_name=name))
            for name in ("first", "second")
        ]
    bots = [
        run_bot("--server", server, "--match", match_id, "--seat-token", seat.seat_token) for seat in seats
    ]
    try:
        outputs = [bot.communicate(timeout=MATCH_SECS) for bot in bots]
    finally:
        for bot in bots:
            bot.kill()
    for bot, seat, (out, err) in zip(bots, seats, outputs):
        assert bot.returncode == 0, err
        # The bot learnt its seat from the token.
        assert f"playing seat {seat.seat} of match {match_id}" in out, out
        assert re.search(
            r"match " + re.escape(match_id) + r", seat " + seat.seat + r": (won|lost|a draw); ", out
        ), out
