"""Issue 4's contract for `dpscale fit`, point by point where no other test pins it."""

from __future__ import annotations

import math

from clihelp import run

# 4 runs that a law with no peak fits best: the all-reduce law keeps rising up to the search's cap
# (2^20 devices), and its E falls below 10 % nowhere up there.
RISING = [f"--point={p}" for p in ("1:1000", "8:7600", "16:14500", "32:27000")]


def _line(out: str, start: str) -> str:
    (line,) = [x for x in out.splitlines() if x.startswith(start)]
    return line


def test_a_target_past_the_search_cap_of_a_rising_law_is_not_called_unreachable(capsys) -> None:
    """'Answers people ask: the devices needed for a target throughput or a minimum E' (issue 4, §5). A law that
    still rises at 1,048,576 devices reaches 1e9 samples/s somewhere beyond: it said '∞ (unreachable)' right under
    'keeps rising: no peak up to 1,048,576 devices'. Past a real peak it stays 'unreachable'
    (test_fit_cli.py::test_a_throughput_past_the_peak_is_said_unreachable)."""
    argv = ["fit", *RISING, "--target-throughput", "1e9", "--min-efficiency", "0.1", "--resamples", "200"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0
    assert "keeps rising: no peak up to 1,048,576 devices" in out
    need = _line(out, "devices for 1,000,000,000 samples/s:")
    assert need.startswith("devices for 1,000,000,000 samples/s: ∞")
    assert "(unreachable)" not in need and "(not reached within 1,048,576 devices; the law still rises there)" in need
    floor = _line(out, "largest size with E ≥ 10.0 %:")
    assert floor.startswith("largest size with E ≥ 10.0 %: ∞")
    assert "(E stays at or above it up to 1,048,576 devices)" in floor


def test_the_answers_past_the_cap_are_said_in_spanish(capsys) -> None:
    argv = ["fit", *RISING, "--target-throughput", "1e9", "--min-efficiency", "0.1", "--resamples", "200"]
    rc, out, _ = run(capsys, *argv, "--lang", "es")
    assert rc == 0
    need = _line(out, "dispositivos para 1.000.000.000 muestras/s:")
    assert "(no se alcanza con 1.048.576 dispositivos; la ley aún crece allí)" in need
    assert "(inalcanzable)" not in need
    floor = _line(out, "mayor tamaño con E ≥ 10,0 %:")
    assert "(E se mantiene igual o por encima hasta 1.048.576 dispositivos)" in floor


def test_the_answers_past_the_cap_name_the_cap_the_runs_set(capsys) -> None:
    """Runs up to 400,000 devices move the search's cap to 4× the largest, 1,600,000 (docs/fit.md, 'Answers'): the
    lines past it say that cap, as the no-peak line does, not 2^20."""
    runs = [f"--point={p}" for p in ("100000:1e8", "200000:1.96e8", "300000:2.9e8", "400000:3.8e8")]
    argv = ["fit", *runs, "--target-throughput", "1e12", "--min-efficiency", "0.5", "--resamples", "200"]
    rc, out, _ = run(capsys, *argv)
    assert rc == 0 and "keeps rising: no peak up to 1,600,000 devices" in out
    assert _line(out, "devices for 1,000,000,000,000 samples/s:").endswith(
        "(not reached within 1,600,000 devices; the law still rises there) (the allreduce law)"
    )
    assert _line(out, "largest size with E ≥ 50.0 %:").endswith(
        "(E stays at or above it up to 1,600,000 devices) (the allreduce law)"
    )


def test_an_answer_says_why_no_size_gives_it_in_json_and_the_library(capsys) -> None:
    """`"devices": null` read the same in --json for a target no size gives (past an Amdahl law's ceiling, X1/s) and
    for one a still-rising law reaches only beyond the search's cap; the reason now lives in Fit.devices_for, which
    the report's words read, and travels in the JSON."""
    import json

    import dpscale
    from dpscale.sources.laws import usl_ceiling

    def answers(*extra: str) -> dict:
        rc, out, _ = run(capsys, "fit", *RISING, *extra, "--resamples", "200", "--json")
        assert rc == 0
        return json.loads(out)

    rising = answers("--target-throughput", "1e9", "--min-efficiency", "0.01")  # the all-reduce law, no bound
    assert rising["devices_for_throughput"]["devices"] is None
    assert rising["devices_for_throughput"]["reason"] == "beyond_search_cap"
    assert rising["devices_for_efficiency"]["reason"] == "beyond_search_cap"
    capped = answers("--law", "amdahl", "--target-throughput", "1e9")  # Amdahl tops out near 160,000/s here
    assert capped["devices_for_throughput"]["devices"] is None
    assert capped["devices_for_throughput"]["reason"] == "unreachable"
    reached = answers("--target-throughput", "1e5")
    assert reached["devices_for_throughput"]["devices"] == 121.0 and reached["devices_for_throughput"]["reason"] is None

    f = dpscale.fit(devices=[1, 8, 16, 32], throughput=[1000, 7600, 14500, 27000], law="amdahl", resamples=200)
    ceiling = f.per_device_throughput * usl_ceiling(f.parameters["serial_fraction"].value, 0.0, f.baseline_devices)
    assert f.devices_for(throughput=1.01 * ceiling)["reason"] == "unreachable"
    # X(d) = v·d/(1 + s(d − 1)) closes on the ceiling as 1 − 1/(s·d): 0.999 of it by ~160,000 devices, 0.99999 of it
    # only past 16 million, beyond the search's 2^20
    near = f.devices_for(throughput=0.999 * ceiling)
    assert 1e5 < near["devices"] < 2e5 and near["reason"] is None
    assert f.devices_for(throughput=0.99999 * ceiling)["reason"] == "beyond_search_cap"


def test_the_devices_an_answer_needs_are_json_integers(capsys) -> None:
    """devices_for's answers are whole devices (the point refined to one, the band on the rounded grid), yet --json
    printed them as floats ("devices": 121.0), which json.loads hands a script as a float that range() refuses, where
    every other command's devices are integers; an answer past the cap stays null. 1e5 samples/s on these runs
    needs 121 devices (test above)."""
    import json

    rc, out, _ = run(capsys, "fit", *RISING, "--target-throughput", "1e5", "--min-efficiency", "0.9",
                     "--resamples", "200", "--json")  # fmt: skip
    report = json.loads(out)
    need, keep = report["devices_for_throughput"], report["devices_for_efficiency"]
    assert rc == 0 and need["devices"] == 121 and '"devices": 121,' in out
    for answer in (need, keep):
        counts = [answer[k] for k in ("devices", "lo", "hi") if answer[k] is not None]
        assert len(counts) >= 2 and all(type(c) is int for c in counts), answer
        assert len(range(answer["devices"])) == answer["devices"]
    import dpscale  # the library's answer alike (the report copies it): ints, ∞ a float

    f = dpscale.fit(devices=[1, 8, 16, 32], throughput=[1000, 7600, 14500, 27000], law="amdahl", resamples=200)
    got = f.devices_for(throughput=20000)  # (the runs at 16 and 32 bracket it)
    assert all(type(got[k]) is int for k in ("devices", "lo", "hi")) and 16 < got["devices"] < 32, got
    assert f.devices_for(throughput=1e12)["devices"] == math.inf
