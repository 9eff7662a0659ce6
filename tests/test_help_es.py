"""`dpscale COMMAND --help --lang es` is Spanish throughout; the English help stays as it was."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from clihelp import imported_after, run

from dpscale.faces.cli import COMMANDS
from dpscale.faces.cli.common import Parser
from dpscale.faces.help_es import HELP_ES, spanish


def _parser(cmd: str) -> Parser:
    """The parser `main()` builds for the command."""
    mod, description = COMMANDS[cmd]
    parser = Parser(prog=f"dpscale {cmd}", description=description)
    import_module(f"dpscale.faces.cli.{mod}").add_arguments(parser)
    return parser


def _english(cmd: str) -> tuple[list[str], list[str]]:
    """(texts, titles) the English help of the command shows: description, epilog and helps; group titles."""
    p = _parser(cmd)
    texts = [p.description, p.epilog] + [a.help for a in p._actions]
    titles = [g.title for g in p._action_groups if g._group_actions]  # argparse shows only groups with arguments
    return [t for t in texts if t], [t for t in titles if t]


def _squash(text: str) -> str:
    return "".join(text.split())  # argparse re-wraps the texts (and breaks lines after hyphens)


@pytest.mark.parametrize("order", [("--help", "--lang", "es"), ("--lang", "es", "--help"), ("--help", "--lang=es")])
@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_every_text_of_every_help_is_spanish(capsys, cmd, order):
    texts, titles = _english(cmd)
    missing = [t for t in texts + titles + ["usage: "] if spanish(t) is None]
    assert missing == []
    rc, out, err = run(capsys, cmd, *order)
    assert rc == 0 and err == ""
    assert out.startswith(f"uso: dpscale {cmd} ")
    said = _squash(out)
    assert [t for t in texts if _squash(t) in said] == []
    lines = {line.strip() for line in out.splitlines()}
    assert [t for t in titles if f"{t}:" in lines] == []
    assert {"opciones:", "-h, --help muestra esta ayuda y termina"} <= {" ".join(x.split()) for x in lines}
    assert all(_squash(spanish(t)) in said for t in texts)  # each Spanish text shown whole


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_english_help_is_unchanged(capsys, cmd):
    texts, titles = _english(cmd)
    for argv in ((cmd, "--help"), (cmd, "--help", "--lang", "en")):
        rc, out, err = run(capsys, *argv)
        assert rc == 0 and out.startswith(f"usage: dpscale {cmd} ") and "show this help message and exit" in out
        said = _squash(out)
        assert all(_squash(t) in said for t in texts)
        assert all(f"{t}:" in out.splitlines() for t in titles)
        assert "uso:" not in out and "por defecto" not in out


def test_spot_checks(capsys):
    rc, out, _ = run(capsys, "calc", "--help", "--lang", "es")
    assert "  --devices, -d D       número de dispositivos: N, N1,N2,..., A..BxF o A..B+S\n" in out
    assert "\nentradas:\n" in out and "\neficiencia de escalado E(d):\n" in out and "\nsalida:\n" in out
    assert "(64 × 2.000 × 0,9)." in out  # prose numbers the Spanish way
    rc, out, _ = run(capsys, "calc", "--help")
    assert "  --devices, -d D       device count: N, N1,N2,..., A..BxF or A..B+S\n" in out
    rc, out, _ = run(capsys, "fit", "--lang", "es", "--help")
    assert "  --confidence C        nivel del intervalo en (0, 1) (por defecto 0.9)\n" in out  # a default as typed
    rc, out, _ = run(capsys, "serve", "--help", "--lang", "es")
    assert "  --port PORT     puerto (por defecto 8000)\n" in out
    rc, out, _ = run(capsys, "calc", "--help", "--lang", "es")  # the default as typed, and as the tables say it
    assert "(por defecto samples/s, que la salida escribe como muestras/s)" in " ".join(out.split())  # (any wrap width)


def test_texts_built_at_run_time_keep_their_values(capsys):
    """Catalog names and defaults from the layers below go into the Spanish as they are; a prose number ({n})
    is written the Spanish way."""
    rc, out, _ = run(capsys, "predict", "--help", "--lang", "es")
    flat = " ".join(out.split())
    assert "--model MODEL del catálogo: bert-base, bert-large," in flat
    assert "--system SYSTEM del catálogo: aws-p4d," in flat
    assert re.search(
        r"--mfu MFU utilización de FLOPs del modelo para la estimación \(por defecto 0\.\d+; modelos CNN: el punto "
        r"medio de las ejecuciones publicadas de ResNet-50, 0\.215 del pico de los tensor cores o matrix cores, "
        r"0\.625 del de los núcleos fp32 de NVIDIA \(fp32; cualquier precisión en Pascal\); fp8: 0\.241 de su pico, "
        r"un modelo CNN 0\.148, la ganancia sobre bf16 que publicó torchao\)",
        flat,
    )
    rc, out, _ = run(capsys, "plan", "--help", "--lang", "es")
    assert "aporta menos de 0,5 de la aceleración" in " ".join(out.split())
    en = "{} (default 1f1b; the worked example, no inputs at all, is gpipe)".replace("{}", "gpipe, zb-h2")
    assert spanish(en) == "gpipe, zb-h2 (por defecto 1f1b; el ejemplo resuelto, sin ninguna entrada, es gpipe)"


def test_a_text_with_no_entry_stays_english_and_placeholders_still_work(capsys):
    p = Parser(prog="dpscale x", description="an English text with no entry")
    p.add_argument("--unit", default="samples/s", help="throughput unit (default %(default)s)")
    p.add_argument("--port", default="8000", help="port (default 8000)")
    p.lang = "es"
    out = p.format_help()
    assert "an English text with no entry" in out and "throughput unit (default samples/s)" in out
    assert "puerto (por defecto 8000)" in out and out.startswith("uso: dpscale x")
    p.lang = "en"
    assert p.format_help().startswith("usage: dpscale x") and "port (default 8000)" in p.format_help()


def test_every_entry_keeps_its_placeholders():
    """argparse fills %(name)s in each help; a template's {} slots are filled in order."""
    for english, es in HELP_ES.items():
        assert re.findall(r"%\(\w+\)\w|%%", english) == re.findall(r"%\(\w+\)\w|%%", es), english
        assert "%" not in re.sub(r"%\(\w+\)\w|%%", "", es), es  # a bare % would break argparse's formatting
        assert english.count("{}") == len(re.findall(r"\{n?\}", es)), english
        assert english != es, english


def test_top_help_in_spanish(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # each command's line whole (narrower, it wraps: the test below)
    rc, out, _ = run(capsys, "--help", "--lang", "es")
    assert rc == 0 and "\nuso: dpscale [ORDEN] [OPCIONES]" in out and "\nórdenes:\n" in out
    for cmd, (_, description) in COMMANDS.items():
        assert f"  {cmd:<10} {HELP_ES[description]}" in out
    assert "usage:" not in out and "commands:" not in out
    rc, out, _ = run(capsys, "--help")
    assert "usage: dpscale" in out and "\ncommands:\n" in out and "uso:" not in out


def test_help_es_is_not_imported_on_the_normal_path():
    """The calculator starts fast: the Spanish help is read only when it is printed."""
    loaded = imported_after(
        ["calc", "-d", "8", "-v", "100", "-e", "0.9", "--lang", "es"], ["--help"], ["calc", "--help"]
    )
    assert "dpscale.faces.cli.calc" in loaded and "dpscale.faces.help_es" not in loaded


@pytest.mark.parametrize("cmd", sorted(COMMANDS))
def test_the_spanish_help_keeps_one_term_each(capsys, cmd):
    """'JSON lines' and 'preset' were left English in Spanish helps; 'data-parallel' read 'de datos en paralelo'."""
    rc, out, _ = run(capsys, cmd, "--help", "--lang", "es")
    flat = " ".join(out.split())
    assert rc == 0
    assert "JSON lines" not in flat and "JSON-lines" not in flat
    assert not re.search(r"\bpreset\b", flat)
    assert "de datos en paralelo" not in flat


def test_no_spanish_help_opens_with_an_infinitive():
    """An option's help says what it does ('escribe JSON', 'fuerza una ley', 'reparte también las activaciones') or
    names what it takes ('épocas', 'tamaños: …'); predict's and measure's --zero opened 'repartir …', 'entrenar …' and
    plan's --deadline and --budget 'terminar …', 'gastar …', the English imperative left an infinitive."""
    not_verbs = {"clúster", "primer", "linear"}  # nouns and adjectives that end as an infinitive does
    first = {k: re.match(r"[^\W\d_]+", v) for k, v in HELP_ES.items()}
    said = {k: m[0] for k, m in first.items() if m and re.search(r"(ar|er|ir)$", m[0]) and m[0] not in not_verbs}
    assert said == {}


def test_spanish_help_wordings(capsys):
    rc, out, _ = run(capsys, "fit", "--help", "--lang", "es")
    flat = " ".join(out.split())
    assert (
        "RUNS CSV (devices,throughput[,step_time]; rendimiento de toda la ejecución, no por dispositivo) o líneas JSON"
        in flat
    )
    assert "--resamples B remuestreos del bootstrap (por defecto 1000)" in flat  # as its error says 'remuestreos'
    rc, out, _ = run(capsys, "plan", "--help", "--lang", "es")
    assert "E(d) ajustada a ejecuciones medidas (CSV o líneas JSON, como `dpscale fit`)" in " ".join(out.split())
    rc, out, _ = run(capsys, "predict", "--help", "--lang", "es")
    assert (
        "con --zero 3, la unidad de FSDP: una capa de transformer, la de un modelo del catálogo o una estimada a "
        "partir de --params; si no, 25)" in " ".join(out.split())
    )
    assert "con --zero 1 o 2, los 5e8 elementos de DeepSpeed;" in " ".join(out.split())
    rc, out, _ = run(capsys, "pipeline", "--help", "--lang", "es")
    said = "--dp-efficiency, -e E E del paralelismo de datos, en (0, 1], de las réplicas (dispositivos/etapas)"
    assert said in " ".join(out.split())
    rc, out, _ = run(capsys, "memory", "--help", "--lang", "es")
    assert "--devices, -d N dispositivos con paralelismo de datos (por defecto 1)" in " ".join(out.split())


def test_spanish_help_says_a_unit_and_one_device_s_throughput_plainly(capsys):
    """'que la salida dice muestras/s' made output the subject of 'dice' ('the output says samples/s'), and 'de un
    dispositivo solo' could read as 'only one device's': the unit is written 'como muestras/s', v is 'un solo
    dispositivo' (one device's)."""
    rc, out, _ = run(capsys, "fit", "--help", "--lang", "es")
    flat = " ".join(out.split())
    said = (
        "--unit UNIT unidad de rendimiento de las etiquetas (por defecto la de las ejecuciones; si no la indican, "
        "samples/s, que la salida escribe como muestras/s)"
    )
    assert rc == 0 and said in flat
    rc, out, _ = run(capsys, "calc", "--help", "--lang", "es")
    flat = " ".join(out.split())
    assert rc == 0 and "--throughput, -v V rendimiento de un solo dispositivo (muestras/s, o --unit)" in flat
    assert "salida dice" not in flat and "dispositivo solo" not in flat


@pytest.mark.parametrize("lang", ["en", "es"])
def test_help_wraps_at_spaces_only(capsys, monkeypatch, lang):
    """At 80 columns argparse's textwrap broke after hyphens: plan's help read "as `dpscale fit --gpus-" / "per-node`"
    (a flag no one can copy), fit's "leave-one-" / "out", predict's Spanish "all-" / "gather"."""
    monkeypatch.setenv("COLUMNS", "80")
    for cmd in COMMANDS:
        rc, out, _ = run(capsys, cmd, "--help", "--lang", lang)
        assert rc == 0 and out, cmd
        assert not re.findall(r"^.*\w-$", out, re.M), (cmd, re.findall(r"^.*\w-$", out, re.M))
    rc, out, _ = run(capsys, "plan", "--help", "--lang", lang)
    assert "`dpscale fit --gpus-per-node`" in out.replace("\n" + " " * 24, " ")


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("columns", [80, 100])
def test_top_help_fits_the_terminal(capsys, monkeypatch, lang, columns):
    """`dpscale --help` was written out unwrapped: serve's line ran to 104 columns, 119 in Spanish, and the usage
    to 89, past an 80- or 100-column terminal; now it wraps as a command's help does, under each description."""
    monkeypatch.setenv("COLUMNS", str(columns))
    rc, out, _ = run(capsys, "--help", "--lang", lang)
    assert rc == 0 and max(len(line) for line in out.splitlines()) <= columns - 2
    say = HELP_ES.get if lang == "es" else str
    serve = say(COMMANDS["serve"][1])
    block = out[out.index("  serve      ") :].split("\n\n")[0]  # serve's description, with its continuation lines
    assert re.sub(r"\n {13}", " ", block) == f"  serve      {serve}"
    if columns == 80:  # the usage's note (89 columns) on a line of its own, under 'dpscale'
        assert re.search(r"^ {5,7}\((no command|sin orden): calc", out, re.M)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_an_options_names_are_listed_before_its_value_once_on_every_python(capsys, lang):
    """Python 3.13's argparse writes an option's value name once, after all its names; 3.10 to 3.12 wrote it after
    each ('--batch BATCH, --micro-batch BATCH, -b BATCH'), so the help, Spanish too, differed by interpreter and
    four tests failed under 3.13 alone (review GY). Every interpreter now writes 3.13's; a flag and a positional
    are as before."""
    rc, out, _ = run(capsys, "predict", "--help", "--lang", lang)
    lines = out.splitlines()
    assert rc == 0 and "  --batch, --micro-batch, -b BATCH" in lines
    assert [x.split()[0] for x in lines if x.startswith("  --no-overlap")] == ["--no-overlap"]
    rc, out, _ = run(capsys, "batch", "--help", "--lang", lang)
    assert rc == 0 and re.search(r"^  --micro-batch, -b B   \S", out, re.M)  # (3.11's form took a line of its own)
    rc, out, _ = run(capsys, "measure", "--help", "--lang", lang)
    assert rc == 0 and "  -h, --help " in out and "  {allreduce,equivalence}" in out.splitlines()


def test_the_global_batch_help_names_the_batch_it_divides(capsys):
    """Review ID: --global-batch's Spanish help said 'el microlote de cada tamaño es él / (dispositivos ×
    --grad-accum)', the English 'is it / (…)' word for word: 'él' after 'es' names a person, and a reader stops on
    it. It names the batch it divides, as the English's 'it' does."""
    rc, out, _ = run(capsys, "predict", "--help", "--lang", "es")
    said = " ".join(out.split())
    assert rc == 0 and "el microlote de cada tamaño es ese lote / (dispositivos × --grad-accum)" in said
    assert "es él /" not in said


def test_the_most_specific_template_says_a_help_whole(capsys):
    """Review JH: predict's --model help ('preset: …; with --model-file, one of its models') was said by the first
    template that matched it, --system's 'preset: {}', leaving 'with --model-file, one of its models' in English in
    the Spanish help. The template with the most fixed text wins."""
    en = "preset: bert-base, gpt2; with --model-file, one of its models"
    assert spanish(en) == "del catálogo: bert-base, gpt2; con --model-file, uno de sus modelos"
    assert spanish("preset: dgx-a100, dgx-h100") == "del catálogo: dgx-a100, dgx-h100"
    rc, out, _ = run(capsys, "predict", "--help", "--lang", "es")
    assert rc == 0 and "with --model-file" not in out and "con --model-file, uno de sus" in " ".join(out.split())


def test_todays_help_texts_read_whole_in_both_languages(capsys):
    """Review JF (a mutation pass over 4ab80b5 and b9205d3): the help of --base-batch, --dataset-size and memory's
    --micro-batch changed in English and Spanish, and only the English key's presence was checked — a Spanish text
    cut short ('la tasa base') passed. Each whole, at any wrap width."""
    said = {
        ("batch", "en"): ("global batch the base learning rate was tuned at, in samples as the batch (tokens ÷ "
                          "sequence length)",
                          "samples per epoch, as the batch counts them (tokens ÷ sequence length; gives steps per "
                          "epoch, warm-up steps)"),
        ("batch", "es"): ("lote global con el que se ajustó la tasa de aprendizaje base, en muestras como el lote "
                          "(tokens ÷ longitud de secuencia)",
                          "muestras por época, como las cuenta el lote (tokens ÷ longitud de secuencia; da los pasos "
                          "por época y los de calentamiento)"),
        ("memory", "en"): ("micro-batch per device (default 1); with --gpu or --gpu-memory a note gives the largest "
                           "that fits",),
        ("memory", "es"): ("microlote por dispositivo (por defecto 1); con --gpu o --gpu-memory una nota da el mayor "
                           "que cabe",),
    }  # fmt: skip
    for (cmd, lang), texts in said.items():
        rc, out, _ = run(capsys, cmd, "--help", "--lang", lang)
        assert rc == 0 and all(t in " ".join(out.split()) for t in texts), (cmd, lang)
