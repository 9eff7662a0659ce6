"""errors.py's shared checks: bounds, counts, decimal commas, choices and the words a refusal is said in."""

from __future__ import annotations

import numpy as np
import pytest
from clihelp import run

import dpscale
from dpscale.errors import (
    DECIMAL_POINT,
    MAX_DEVICES,
    DpscaleError,
    check_devices,
    check_efficiency,
    check_flag,
    clip,
    comma_hint,
    counted,
    unknown_option,
)
from dpscale.faces.cli.common import whole
from dpscale.formulas.memory import bytes_per_parameter
from dpscale.sources.laws import Amdahl

# Mutation sweep 11 (session 36, of formulas/{memory,collectives,stepmodel,overlap,plan,scaling}, cli calc and plan,
# errors): gaps the suite left open, each killing a surviving mutant.


# ---- errors.py ------------------------------------------------------------------------------------------------
def test_a_message_past_a_thousand_characters_is_cut_to_its_head_and_tail():
    """errors.py:25 `<= 1000` → `<= 2000`: 300 × 'word' is 1,499 characters, cut to the first 600, ' … ' and the
    last 300: 903."""
    text = str(DpscaleError(" ".join(["word"] * 300)))
    assert len(text) == 903 and text[600:603] == " … "
    assert clip("x " * 499) == ("x " * 499).strip()  # 997 characters: kept whole


def test_unknown_option_reads_negative_decimals_and_glued_values_as_values():
    """errors.py:60 (`or tok[1] == '.'` dropped): '-.5' is a number, not an option '-.'; errors.py:67 (`and len(tok)
    == len(name)` dropped): '-d8' carries its value, so the '--bogus' after it is the next option."""
    from dpscale.faces.cli.common import Parser
    from dpscale.faces.cli.measure import add_arguments

    p = Parser(prog="dpscale measure", allow_abbrev=False)
    add_arguments(p)
    known, modes = p._option_string_actions, ("allreduce", "equivalence")
    assert unknown_option(["allreduce", "-.5"], known, modes) is None
    assert unknown_option(["-d8", "--bogus"], known, modes) == "--bogus"


def test_counted_plural_of_zero():
    """errors.py:73 `n == 1` → `n <= 1`: 0 takes the plural."""
    assert counted(0, "size") == "0 sizes" and counted(1, "size") == "1 size"


def test_four_digits_before_a_comma_are_a_decimal_comma():
    """errors.py:101 `\\d{0,2}` → `\\d{0,3}`: '1234,567' cannot be thousands (a group has at most 3 digits before
    the first comma), so it is 1234.567 written with a decimal comma."""
    assert comma_hint("1234,567") == DECIMAL_POINT


def test_an_efficiency_of_one_and_a_half_gets_no_percent_hint():
    """errors.py:384 `2 <= bad` → `1 < bad`: 1.5 is no percentage of a device (1.5 % would be E = 0.015)."""
    with pytest.raises(DpscaleError, match=r"^efficiency: got 1\.5; allowed: a scaling efficiency in \(0, 1\]$"):
        check_efficiency(1.5)


def test_a_serial_fraction_of_one_is_refused():
    """errors.py:392 `x < 1` → `x <= 1`: a serial fraction of 1 leaves nothing to parallelise."""
    with pytest.raises(DpscaleError, match=r"^serial_fraction: got 1; allowed: a serial fraction in \[0, 1\)$"):
        Amdahl(1.0)


def test_a_choice_is_taken_with_spaces_around_it():
    """errors.py:227 (.strip() dropped): ' AdamW ' is adamw (Adam's bytes), ' Mixed ' mixed: 2 + 2 + 12."""
    assert bytes_per_parameter(" AdamW ", " Mixed ") == (2, 2, 12)


def test_a_flag_of_two_values_is_refused_by_name():
    """errors.py:241 (`and x.size == 1` dropped): bool() of two values raised numpy's ambiguity error."""
    with pytest.raises(DpscaleError, match=r"^sequence_parallel: got \[ True False\]; allowed: True or False$"):
        check_flag(np.array([True, False]), "sequence_parallel")


def test_a_count_below_one_is_named_before_one_past_the_most():
    """errors.py:289 `lo >= 1` → `lo > 0`: 0.5 devices is said as under 1, before 2e7 is said as past 10^7 (both
    refusals say the whole range since review HR)."""
    with pytest.raises(DpscaleError, match=r"^devices: got 0\.5; allowed: a whole number from 1 to 10,000,000$"):
        check_devices([0.5, 2e7], "devices", MAX_DEVICES)


# Review 43 (H): an adversarial read of 4c5add9..34e6623; each test failed before its fix.


def test_inf_typed_is_not_a_number_past_the_bound(capsys):
    """_overflows tells a number float() reads as inf ('1e400') the flag's upper bound, but not 'inf' itself, which
    is no count at all; removing the clause that says so passed every test."""
    argv = ["predict", "--model", "resnet50", "--system", "dgx-a100", "-v", "1000", "--batch"]
    for typed in ("inf", "+Infinity"):
        rc, out, err = run(capsys, *argv, typed)
        assert rc == 2 and err.strip().endswith(f"--batch: got '{typed}'; allowed: a whole number ≥ 1"), err
    rc, out, err = run(capsys, *argv, "1e400")
    assert rc == 2 and err.strip().endswith("--batch: got '1e400'; allowed: a whole number from 1 to 2^53"), err


# Review 45 BB: mutation testing of the day's changes — each test kills a mutant that survived the suite and that a
# user would have seen (a wrong number or a wrong word).


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("1,0", "--x"), DECIMAL_POINT),  # 1.0 is the lowest count: told the decimal point, not 'a whole number'
        (("1,0e1", "--x", 1, 10), DECIMAL_POINT),  # 10, the highest allowed
        (("1,1e1", "--x", 1, 10), "a whole number from 1 to 10"),  # 11: past it, the point would not help
        (("9,0e15", "--x"), DECIMAL_POINT),
        (("1,0e16", "--x"), "a whole number ≥ 1"),  # past 2^53: refused once pointed too
    ],
)
def test_a_comma_count_is_told_the_decimal_point_only_where_the_point_would_make_it_allowed(args, allowed):
    with pytest.raises(DpscaleError) as exc:
        whole(*args)
    assert str(exc.value) == f"--x: got '{args[0]}'; allowed: {allowed}"


# Review 46 AI: one source of truth for what two places wrote apart (repeated defaults, constants and words).


CASES = [  # (argv without the value, the value twice: one the face cannot read, one the layer below refuses)
    (["calc", "--law", "usl", "--sigma"], ("abc", "1.5"), "dpscale.sources.laws", "SIGMA_ALLOWED"),
    (["calc", "--law", "usl", "--kappa"], ("x", "2"), "dpscale.sources.laws", "KAPPA_ALLOWED"),
    (["calc", "--law", "amdahl", "--serial-fraction"], ("x", "1"), "dpscale.sources.laws", "SERIAL_ALLOWED"),
    (["pipeline", "-p", "4", "-m", "8", "--dp-efficiency"], ("x", "2"), "dpscale.errors", "EFFICIENCY_ALLOWED"),
    (["plan", "-n", "1e6", "-v", "1", "--knee-threshold"], ("x", "2"), "dpscale.formulas.plan", "KNEE_ALLOWED"),
    (["predict", "--model", "bert-base", "--system", "dgx-a100", "--mfu"], ("x", "2"), "dpscale.sources.predict",
     "MFU_ALLOWED"),
    (["fit", "--point", "1:1", "--point", "2:2", "--confidence"], ("x", "1"), "dpscale.sources.fit_runs",
     "CONFIDENCE_ALLOWED"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "values", "module", "name"), CASES)
def test_a_bound_is_said_in_one_set_of_words(argv, values, module, name, capsys):
    """A face reading a flag's text said its own copy of the words the layer below says for a value out of its
    bound ('--sigma: got 'abc'; allowed: a contention σ in [0, 1)' beside the USL's own 'allowed: a contention σ
    in [0, 1)'): a bound changed below would leave the face's words on the old one. One constant now, at the layer
    that checks the bound (the faces read it), and both errors end in it, in English and in Spanish."""
    import importlib

    from dpscale.faces.cli import main
    from dpscale.faces.i18n.errors_es import ALLOWED

    allowed = getattr(importlib.import_module(module), name)
    for value in values:
        assert main([*argv, value]) == 2
        err = capsys.readouterr().err.strip()
        assert err.endswith(f"; allowed: {allowed}"), err
        assert main([*argv, value, "--lang", "es"]) == 2
        es = capsys.readouterr().err.strip()
        assert es.endswith(f"; se admite: {ALLOWED['es'][allowed]}"), es


def _help(command: str) -> str:
    """A command's --help in English, its white space folded."""
    import importlib

    from dpscale.faces.cli.common import Parser

    p = Parser(prog=f"dpscale {command}")
    importlib.import_module(f"dpscale.faces.cli.{command}").add_arguments(p)
    return " ".join(p.format_help().split())


def test_a_help_says_the_number_the_layer_below_holds(monkeypatch):
    """batch's '--warmup-epochs (default 5 …)' is formulas.batch's GOYAL_WARMUP_EPOCHS, which batch_plan warms up
    by, and memory's 'fp8 … 18 bytes with Adam' is formulas.memory's (P, G, K) for fp8 with Adam, which its table
    counts: each help wrote the number again, and a changed constant left the help on the old one."""
    from dpscale.formulas import memory
    from dpscale.formulas.batch import batch_plan

    assert "(default 5 with the linear rule once the batch grows past --base-batch, Goyal; else none)" in _help("batch")
    assert batch_plan(32, 16, base_lr=0.1, base_batch=256, dataset_size=1e6).warmup_epochs == 5
    assert "18 bytes with Adam" in _help("memory") and sum(memory.bytes_per_parameter("adam", "fp8")) == 18
    monkeypatch.setattr("dpscale.faces.cli.batch.GOYAL_WARMUP_EPOCHS", 3.0)
    monkeypatch.setitem(memory.BYTES, ("fp8", "adam"), (2, 2, 12))
    assert "(default 3 with the linear rule once the batch grows past --base-batch, Goyal; else none)" in _help("batch")
    assert "16 bytes with Adam" in _help("memory")


# Review 46 AJ: session 46's commits, tried at their edges (library and CLI, both languages, odd files).


ONE_AT_A_TIME = {  # these read one E at a time: a list of E per size is refused
    "plan": lambda e: dpscale.plan(1e9, 1, 2000, [1, 8], e),
    "batch_plan": lambda e: dpscale.batch_plan(32, 8, noise_scale=1000, efficiency=e),
    "solve d": lambda e: dpscale.solve(per_device_throughput=2000, efficiency=e, actual_throughput=10_000),
}


@pytest.mark.parametrize("name", ONE_AT_A_TIME)
def test_a_refusal_names_no_list_of_e_where_a_list_is_refused(name):
    """plan({8: 0.9}) said 'allowed: … one per size (a list or an array) …'; the list it named was then refused
    ('got [1.0, 0.9]; allowed: one number, or an E(d) source'): each refusal sent the caller to the other."""
    call = ONE_AT_A_TIME[name]
    with pytest.raises(dpscale.DpscaleError) as exc:
        call({8: 0.9})
    said = str(exc.value)
    assert said.startswith("efficiency: got {8: 0.9}; allowed: one number, or an E(d) source: ")
    assert "PerSize({8: 0.9})" in said and "a list" not in said
    with pytest.raises(dpscale.DpscaleError, match=r"^efficiency: got (\[1.0, 0.9\]|2 values); allowed: one number"):
        call([1.0, 0.9])
    # what the message names is taken: one number, and the table it shows
    assert call(dpscale.PerSize({8: 0.9})) is not None and call(0.9) is not None


# Whole-module mutation pass of errors.py (and files.py, faces/i18n, the dispatcher): each test below kills a mutant
# the suite let through — the value a refusal names is the one out of bounds, not the first of the list.


def test_a_number_whose_float_fails_is_told_a_real_number():
    """errors.py as_number (the `raise fail(… 'a real number')` dropped): an object with a __float__ that raises fell
    through to 'a number or an array of numbers', the words for a wrong type, not a number that cannot be read."""

    class Unreadable:
        def __float__(self) -> float:
            raise TypeError("no value")

        def __repr__(self) -> str:
            return "Unreadable()"

    with pytest.raises(DpscaleError, match=r"^devices: got Unreadable\(\); allowed: a real number$"):
        dpscale.scale(devices=Unreadable(), per_device_throughput=100, efficiency=0.9)


def test_a_count_past_two_to_the_53_is_named_not_the_first_count():
    """errors.py counts_and_least (`a <= 2**53` → `a <= 1**53` or `3**53`): the refusal named 8, the first count,
    where 2^54 is the one no float holds exactly."""
    past = r"^devices: got 18014398509481984; allowed: a whole number from 1 to 2\^53$"
    with pytest.raises(DpscaleError, match=past):
        check_devices([8, 2**54])


def test_a_rate_list_names_its_infinite_value():
    """errors.py check_positive (`a < inf` → `a <= inf`): [1, inf] named 1, a finite rate > 0, as the offender."""
    from dpscale.errors import check_positive

    with pytest.raises(DpscaleError, match=r"^rate: got inf; allowed: a finite number > 0$"):
        check_positive([1.0, float("inf")], "rate")


def test_a_parameter_list_names_the_count_past_the_bound():
    """errors.py check_range (`v >= lo` → `v <= lo`): [5e9, 2e15] named 5e9, inside the bound, not 2e15."""
    from dpscale.errors import check_params

    with pytest.raises(DpscaleError, match=r"^params: got 2e\+15; allowed: a parameter count from 1,000 to 1e\+15"):
        check_params([5e9, 2e15])


@pytest.mark.parametrize("typed", [90, 90.0, np.int64(90)], ids=["int", "float", "numpy int"])
def test_an_efficiency_typed_as_a_whole_percentage_is_told_its_fraction(typed):
    """check_efficiency's percent hint was kept to floats: efficiency=90.0 (and [90], an array of floats by then) was
    told '(90 % = 0.9)', the 90 a notebook types, an int, was not — the same 'got 90' said two ways."""
    with pytest.raises(DpscaleError) as exc:
        check_efficiency(typed)
    assert str(exc.value) == "efficiency: got 90; allowed: a scaling efficiency in (0, 1] (90 % = 0.9)"


_FIT = dpscale.fit(devices=[1, 2, 4, 8], throughput=[100, 190, 360, 680], resamples=100)


# A count with a known ceiling states it in every refusal (review HR, each stated bound swept at its edges):
# scale(0) was told 'a whole number ≥ 1', which 10^8 is, and 10^8 then 'from 1 to 10,000,000' — the CLI's -d 0 says
# the range; plan(devices=...) said three ranges ('≥ 1' of 0, 'from 1 to 2^53' of 1e300, then 'from 1 to 10,000,000'
# of 2^53).
COUNTS = [
    (lambda v: dpscale.scale(v, 2000, 0.9), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.solve(devices=v, per_device_throughput=2000, actual_throughput=1e5), "devices",
     "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.model_states(7.5e9, v), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.model_states(7.5e9, 1, tensor_parallel=v), "tensor_parallel",
     "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.pipeline(v, 8), "stages", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.pipeline(4, 8, devices=v), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.plan(1e6, 1, 2000, v), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.predict([8], model="bert-large", batch=32, throughput=150, system="dgx-a100", seq_len=v),
     "seq_len", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.fit(devices=[1, 2, 4, 8], throughput=[100, 190, 360, 680], gpus_per_node=v), "gpus_per_node",
     "a whole number from 1 to 1,048,576"),
    # review HT: the same three ranges left in these — batch_plan(32, 0) '≥ 1', 10^8 taken (refused only with an
    # efficiency, by scale), 1e300 'from 1 to 2^53'; time_to_target_speedup and a fit's predict(d) '≥ 1', then
    # 'from 1 to 10,000,000' (predict: 'device counts … (between whole sizes too)'), then 'from 1 to 2^53'
    (lambda v: dpscale.batch_plan(32, v), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.batch_plan(32, v, efficiency=0.9), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: dpscale.time_to_target_speedup(v, 32, 1000, 0.9), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: _FIT.predict(v), "devices", "a whole number from 1 to 10,000,000"),
    (lambda v: _FIT.warnings_at([8, v]), "devices", "a whole number from 1 to 10,000,000"),
]  # fmt: skip
OUT = [0, -1, 0.5, 1.5, -0.0, 5e-324, float("inf"), float("nan"), 10**7 + 1, 10**7 + 0.5, 2**53, 1e300]


@pytest.mark.parametrize("call, name, allowed", COUNTS, ids=[f"{c[1]}-{i}" for i, c in enumerate(COUNTS)])
@pytest.mark.parametrize("value", OUT, ids=repr)
def test_a_count_with_a_ceiling_says_its_range_in_every_refusal(call, name, allowed, value):
    if name == "gpus_per_node" and value == 10**7 + 1:
        value = 2**20 + 1  # (its own ceiling's next)
    with pytest.raises(DpscaleError) as exc:
        call(value)
    assert str(exc.value).startswith(f"{name}: got ") and str(exc.value).endswith(f"; allowed: {allowed}")


@pytest.mark.parametrize("call, name, allowed", COUNTS, ids=[f"{c[1]}-{i}" for i, c in enumerate(COUNTS)])
def test_a_count_at_its_ceiling_is_taken(call, name, allowed):
    call(2**20 if name == "gpus_per_node" else 10**7)
