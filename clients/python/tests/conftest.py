"""Starts the real Pitchmate server once for the whole run, on a free port of 127.0.0.1 with
its data in a temporary folder, and gives the tests its address."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

CLIENT_DIR = Path(__file__).resolve().parent.parent
REPO_ROOT = CLIENT_DIR.parent.parent
SERVER_STARTUP_SECS = 60


def server_binary() -> Path:
    configured = os.environ.get("PITCHMATE_SERVER_BIN")
    binary = Path(configured) if configured else REPO_ROOT / "target" / "debug" / "pitchmate"
    if not binary.is_file():
        how = "the path PITCHMATE_SERVER_BIN names" if configured else "the default path"
        pytest.fail(
            f"no Pitchmate server binary at {binary} ({how}). Build it from the repository's root with "
            "`cargo build --bin pitchmate`, or set PITCHMATE_SERVER_BIN to the binary's path.",
            pytrace=False,
        )
    return binary


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> str:
    """The address (`127.0.0.1:PORT`) of a server running for the whole test session."""
    running = Server(tmp_path_factory.mktemp("server"))
    try:
        yield running.start()
    finally:
        running.stop()


class Server:
    """The server binary run on a data folder of its own; it can be stopped and started again
    on the same folder and port, as an operator restarts it."""

    def __init__(self, workdir: Path) -> None:
        self.binary = server_binary()
        self.workdir = workdir
        self.listen = "127.0.0.1:0"
        self.process: subprocess.Popen | None = None
        self.runs = 0

    def start(self) -> str:
        """Starts the server and returns its address once it serves; a restart listens on the
        port the first run was given."""
        self.runs += 1
        log_path = self.workdir / f"server-{self.runs}.log"
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--listen",
                    self.listen,
                    "--data-dir",
                    self.workdir / "data",
                    "--log-format",
                    "json",
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        self.listen = _wait_for_address(self.process, log_path)
        return self.listen

    def stop(self) -> None:
        """Stops the server as an operator does (SIGTERM), or kills it if it does not stop."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


def _wait_for_address(process: subprocess.Popen, log_path: Path) -> str:
    """Reads the server's log until its `serving` line, which names the bound address as
    `Some(127.0.0.1:PORT)`."""
    deadline = time.monotonic() + SERVER_STARTUP_SECS
    while time.monotonic() < deadline:
        for line in log_path.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            fields = entry.get("fields", {})
            if fields.get("message", "").startswith("serving") and "address" in fields:
                return fields["address"].removeprefix("Some(").removesuffix(")")
        if process.poll() is not None:
            pytest.fail(
                f"the server exited with status {process.returncode} before serving:\n{log_path.read_text()}",
                pytrace=False,
            )
        time.sleep(0.05)
    pytest.fail(
        f"the server did not say it was serving within {SERVER_STARTUP_SECS} s:\n{log_path.read_text()}",
        pytrace=False,
    )


def run_bot(*args: str) -> subprocess.Popen:
    """Starts `python bot.py ARGS` as a bot author would, its output read line by line."""
    return subprocess.Popen(
        [sys.executable, "bot.py", *args],
        cwd=CLIENT_DIR,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
