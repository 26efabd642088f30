"""benchmarks/env_throughput.py runs and reports every contender (a short smoke run; the
figures themselves come from longer runs, benchmarks/README.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cardroom import native

BENCHMARKS = Path(__file__).parents[2] / "benchmarks"


def test_the_throughput_benchmark_runs(capsys, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    sys.modules.pop("env_throughput", None)
    import env_throughput

    assert env_throughput.main(["--rounds", "1", "--seconds", "0.05", "--num-envs", "8", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    summary = result["summary"]
    for name in ("baha-env", "baha-env-noobs", "baha-raw", "baebae-env", "baebae-raw", "uno", "hearts"):
        assert summary[f"{name}_steps_per_s"] > 0
    pairs = {(r["ours"], r["theirs"]) for r in summary["ratios"]}
    assert ("baha-env", "baha-raw") in pairs and ("baebae-env", "uno") in pairs
    if native.available():  # the native batch, on one core and on two
        for game in ("baha", "baebae"):
            for name in (f"{game}-vec", f"{game}-vec-single", f"{game}-vec-2procs", f"{game}-vec-2threads"):
                assert summary[f"{name}_steps_per_s"] > 0
            assert (f"{game}-vec", "uno") in pairs and (f"{game}-vec-2procs", f"{game}-vec") in pairs
