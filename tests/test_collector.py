"""The server's garbage-collector settings (backend/common/collector.py): however
many long-lived objects arrive (sockets connecting), a middle-generation pass
walks a bounded number of objects, so it never pauses the whole server for long.

Counted, not timed: the objects each such pass walks, in a fresh interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# About 50-100 ms of a pass on the slowest boxes this ran on.
MOST_WALKED = 100_000

ARRIVALS = """
import gc, json
from backend.common import collector
{tune}
walked = []
def watch(phase, info):
    if phase == "start" and info["generation"] == 1:
        walked.append(len(gc.get_objects(0)) + len(gc.get_objects(1)))
gc.callbacks.append(watch)
# 100,000 sockets arrive, each keeping nine containers for good: about 80 young passes' worth.
sockets = [[[i], [], [], [], [], [], [], []] for i in range(100_000)]
print(json.dumps({{"walked": walked, "kept": len(sockets)}}))
"""


def _walked(tune: str) -> list[int]:
    out = subprocess.run([sys.executable, "-c", ARRIVALS.format(tune=tune)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    result = json.loads(out)
    assert result["kept"] == 100_000
    return result["walked"]


def test_a_middle_generation_pass_walks_a_bounded_number_of_objects():
    walked = _walked("collector.tune()")
    assert len(walked) >= 10, walked  # the arrivals did cause middle passes
    assert max(walked) <= MOST_WALKED, walked


def test_the_bound_is_what_the_thresholds_buy():
    # The thresholds the server used before (10,000, 50, 1,000): one middle pass walked
    # everything that had arrived since the last one, half a million objects.
    walked = _walked("collector.tune(); gc.set_threshold(10_000, 50, 1000)")
    assert walked and max(walked) > 4 * MOST_WALKED, walked
