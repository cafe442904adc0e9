"""Two starter bots, started as a bot author starts them (`python bot.py --create` and
`python bot.py --join`), play a whole match of every variant to its result."""

import re

import pytest

from conftest import run_bot

# Options that shorten each game, so the whole suite stays quick.
SHORT_MATCHES = {
    "soccer-chess": ["sets_per_game=2", "golden_goal_max_sets=1"],
    "chessyball": ["max_turns=12"],
    "kings-goal": ["moves_per_half=10"],
    "xfutebol": ["winning_style=movement_count", "movement_limit=10"],
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
        assert found, f"the creating bot said {created!r}; stderr: {creator.stderr.read() if creator.poll() is not None else ''}"
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
