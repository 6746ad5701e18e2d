"""The fidelity suite's servers and tcpdump end with it, however it ends (issue 11: SIGKILL included)."""

import os
import signal
import subprocess
import sys
import time

FIDELITY = os.path.join(os.path.dirname(__file__), "..", "fidelity")

PARENT = f"""
import subprocess, sys, time
sys.path.insert(0, {FIDELITY!r})
from run import die_with_parent
child = subprocess.Popen(["sleep", "300"], preexec_fn=die_with_parent)
print(child.pid, flush=True)
time.sleep(300)
"""


def _running(pid: int) -> bool:
    """Alive and not a zombie (pid 1 may never reap an orphan that died)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")


def test_a_child_of_the_suite_dies_when_the_suite_is_killed():
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert _running(child)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.time() + 10
        while _running(child) and time.time() < deadline:
            time.sleep(0.05)
        assert not _running(child), "the child outlived its SIGKILLed parent"
    finally:
        parent.kill()
