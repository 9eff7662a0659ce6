"""`dpscale validate` on large tables: the work grows with the rows, not with their square (counted, not timed)."""

from __future__ import annotations

from pathlib import Path

from dpscale import catalog
from dpscale.sources import dataset
from dpscale.sources.validate import validate

HEAD = ("cfg,baseline_devices,grad_accum,grad_accum_known,units_per_sample,system,gpu,gpus_per_node,intra_bw_gbs,"
        "inter_bw_gbs,source,model,framework,hardware,interconnect,precision,per_device_batch,devices,throughput,"
        "unit,params_millions,notes")  # fmt: skip


def table(path: Path, configs: int, rows: int) -> Path:
    """`configs` configurations of `rows` rows each: a one-GPU baseline, then sizes 2..8 over and over at E 0.9."""
    lines = [HEAD]
    for c in range(configs):
        for i in range(rows):
            d = 1 if i == 0 else 2 + (i - 1) % 7
            rate = 100.0 * d * (1.0 if d == 1 else 0.9)
            lines.append(f"c{c},1,1,yes,1,DGX A100,A100,8,300,25,s,m,f,h,i,AMP,32,{d},{rate},x/s,25,")
    path.write_text("\n".join(lines) + "\n")
    return path


def row_reads(monkeypatch, path: Path) -> int:
    """How many times validating the file reads a field of a row: the work it does per row, all rows together."""
    reads = [0]
    plain = object.__getattribute__

    def counted(self: object, name: str) -> object:
        reads[0] += 1
        return plain(self, name)

    with monkeypatch.context() as m:
        m.setattr(dataset.Row, "__getattribute__", counted)
        report = validate([str(path)])
    assert report["points"] > 0  # the rows were scored, not skipped
    return reads[0]


def test_a_configuration_s_rows_are_validated_in_time_linear_in_their_count(tmp_path, monkeypatch):
    """Each row's E read the baseline anew (a scan of every row of its configuration) and the rows were put back
    in order with rows.index (a comparison with every row before it): one configuration of 8,000 rows took 47 s,
    4,000 took 6.9 s. Four times the rows now read about four times the fields, where they read 16 times."""
    small = row_reads(monkeypatch, table(tmp_path / "small.csv", 1, 100))
    large = row_reads(monkeypatch, table(tmp_path / "large.csv", 1, 400))
    assert large < 5 * small, (small, large)


def test_a_configuration_s_system_is_looked_up_in_the_catalog_once(tmp_path, monkeypatch):
    """The system's catalog entry (`Config.preset`, a search of every catalog name with a regex each) was found
    again per row and per link the predictor read: 15 searches a configuration, 1.5 s of 5 s on 10,000 rows."""
    calls = [0]
    key_of = catalog.key_of

    def counted(*args: object, **kw: object) -> object:
        calls[0] += 1
        return key_of(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(catalog, "key_of", counted)
    path = table(tmp_path / "many.csv", 20, 8)
    calls[0] = 0
    report = validate([str(path)])
    assert report["points"] == 20 * 7 and report["configs"] == 20
    # one search for the configuration's system, and one each time its baseline's GPU is found (find_gpu: twice)
    assert calls[0] <= 3 * 20, calls[0]
