"""Two registered bots run as league bots (`python bot.py --api-key KEY --queue VARIANT`): the
queue pairs them, each takes its seat with its API key and no seat token, and both stop once
they have finished their matches."""

import re
import subprocess
import sys
import uuid

import grpc

from conftest import CLIENT_DIR, run_bot
from pitchmate.v1 import (
    challenge_service_pb2,
    challenge_service_pb2_grpc,
    common_pb2,
    match_service_pb2,
    match_service_pb2_grpc,
)

LEAGUE_SECS = 120
MATCHES = 2


def test_two_league_bots_play_their_matches_through_the_queue(server):
    registered = [register(server, f"py-{side}-{uuid.uuid4().hex[:8]}") for side in ("a", "b")]
    with grpc.insecure_channel(server) as channel:
        processes = [
            run_bot(
                "--server",
                server,
                "--api-key",
                key,
                "--queue",
                "kings-goal",
                "--option",
                "moves_per_half=10",
                "--matches",
                str(MATCHES),
            )
            for _, key in registered
        ]
        outputs = []
        try:
            for process in processes:
                out, err = process.communicate(timeout=LEAGUE_SECS)
                assert process.returncode == 0, f"{out}\n{err}"
                outputs.append(out)
        finally:
            for process in processes:
                process.kill()

        played = []
        for out in outputs:
            assigned = re.findall(
                r"^assigned match (\S+), seat (\S+) \(kings-goal\) against py-", out, re.MULTILINE
            )
            finished = dict(
                re.findall(r"^match (\S+) \(kings-goal, seat \S+\): (WON|LOST|DRAWN);", out, re.MULTILINE)
            )
            assert len(assigned) == MATCHES, out
            assert set(finished) == {match_id for match_id, _ in assigned}, out
            assert f"league bot: done; matches ended: {MATCHES}, not played to their end: 0" in out, out
            played.append(finished)
        # They were paired with each other, and each match ended the same way for both sides.
        assert played[0].keys() == played[1].keys()
        for match_id, outcome in played[0].items():
            assert (outcome, played[1][match_id]) in (("WON", "LOST"), ("LOST", "WON"), ("DRAWN", "DRAWN"))

        matches = match_service_pb2_grpc.MatchServiceStub(channel)
        bot_ids = {bot_id for bot_id, _ in registered}
        for match_id in played[0]:
            match = matches.GetMatch(match_service_pb2.GetMatchRequest(match_id=match_id)).match
            assert match.status == match_service_pb2.MATCH_STATUS_FINISHED
            # Each bot took its seat with its key: the seat names the bot.
            assert {seat.bot_id for seat in match.seats} == bot_ids
        quota = challenge_service_pb2_grpc.ChallengeServiceStub(channel)
        for _, key in registered:
            live = quota.GetQuota(
                challenge_service_pb2.GetQuotaRequest(), metadata=(("authorization", f"Bearer {key}"),)
            ).live
            assert live == 0


def register(server: str, name: str) -> tuple[str, str]:
    """Registers a bot with `python register.py`, as the README says; its id and API key."""
    done = subprocess.run(
        [sys.executable, "register.py", name, "--owner", "tests", "--server", server],
        cwd=CLIENT_DIR,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    bot_id = re.search(r"registered \(id (\S+)\)", done.stdout)
    key = re.search(r"(pmk_\S+)", done.stdout)
    assert bot_id and key, done.stdout
    return bot_id.group(1), key.group(1)


def test_a_league_bot_accepts_a_challenge_and_plays_it(server):
    challenged = f"py-c-{uuid.uuid4().hex[:8]}"
    challenged_id, challenged_key = register(server, challenged)
    challenger_id, challenger_key = register(server, f"py-d-{uuid.uuid4().hex[:8]}")
    with grpc.insecure_channel(server) as channel:
        terms = challenge_service_pb2.MatchTerms(
            variant_id="chessyball", options={"max_turns": common_pb2.OptionValue(int_value=12)}
        )
        challenges = challenge_service_pb2_grpc.ChallengeServiceStub(channel)
        challenge = challenges.CreateChallenge(
            challenge_service_pb2.CreateChallengeRequest(target=challenged, terms=terms),
            metadata=(("authorization", f"Bearer {challenger_key}"),),
        ).challenge
    # Neither waits in the queue: the challenged bot finds the challenge in its inbox and
    # accepts it, and both hear of the match it assigned.
    processes = [run_bot("--server", server, "--api-key", key) for key in (challenged_key, challenger_key)]
    try:
        outputs = [process.communicate(timeout=LEAGUE_SECS) for process in processes]
    finally:
        for process in processes:
            process.kill()
    for process, (out, err) in zip(processes, outputs):
        assert process.returncode == 0, f"{out}\n{err}"
        assert "league bot: done; matches ended: 1, not played to their end: 0" in out, out
    with grpc.insecure_channel(server) as channel:
        challenge = (
            challenge_service_pb2_grpc.ChallengeServiceStub(channel)
            .GetChallenge(
                challenge_service_pb2.GetChallengeRequest(challenge_id=challenge.challenge_id),
                metadata=(("authorization", f"Bearer {challenger_key}"),),
            )
            .challenge
        )
        assert challenge.status == challenge_service_pb2.CHALLENGE_STATUS_ACCEPTED
        match = match_service_pb2_grpc.MatchServiceStub(channel).GetMatch(
            match_service_pb2.GetMatchRequest(match_id=challenge.match_id)
        )
        assert match.match.status == match_service_pb2.MATCH_STATUS_FINISHED
        assert {seat.bot_id for seat in match.match.seats} == {challenged_id, challenger_id}
    for out, _ in outputs:
        assert f"match {challenge.match_id} (chessyball, seat " in out, out
