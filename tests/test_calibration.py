"""The shipped constants are what `python validation/calibrate.py` derives: c_c and c_h at the grid's
in-sample optimum, and the error band from leave-one-family-out residuals pooled with the external check
set. Change the step model without recalibrating and this fails."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from dpscale.formulas.stepmodel import DEFAULT
from dpscale.sources.dataset import read_published
from dpscale.sources.predict import ERROR_BAND

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT.parent / "shared" / "data" / "published_scaling_dev.csv"


@pytest.mark.skipif(not DEV.exists(), reason="needs ../shared/data (the published dev set)")
def test_shipped_constants_are_the_calibration_optimum():
    spec = importlib.util.spec_from_file_location("calibrate", ROOT / "validation" / "calibrate.py")
    cal = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cal)
    configs = [c for c in read_published(DEV) if c.step_time() is not None and len(c.rows) > 1]
    res = cal.residuals(configs)
    i = cal.best(res, [c.cfg for c in configs])
    assert cal.GRID[i] == (DEFAULT.compute_jitter, DEFAULT.sync_hbm_passes)
    held, _ = cal.held_out(configs, res, cal.family)
    lo, hi = cal.error_band(configs, held, cal.external())
    assert len(cal.external()) == 12  # the external check set takes part in the band
    assert np.allclose((lo, hi), ERROR_BAND, atol=0.01)
