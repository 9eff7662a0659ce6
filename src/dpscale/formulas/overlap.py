"""DDP gradient buckets and how much of their all-reduce hides behind backward.

PyTorch DDP launches one all-reduce per bucket on a single stream, in the order the buckets fill
[PT-RED], [PT-DDPNOTE]. After the first iteration it rebuilds the buckets in the order gradients
actually became ready (Reducer::rebuild_buckets, size limits {1 MiB, 25 MiB}): the small bucket is the
*first* ready, then 25 MiB buckets, and the remainder is the last (checked with a comm hook on torch
2.13: 56 tensors of 1 MiB launch as buckets of 1, 25, 25, 5 MiB — tests/test_measure_runs.py). Only
DDP_SET_LAST_BUCKET_CAP=1 puts the small bucket last, which physics.md §2.4 describes. With gradients
ready uniformly over backward time T_b (physics.md §2.4):
    r_k = T_b · (Σ_{j≤k} b_j) / G,  s_k = max(r_k, e_{k−1}),  e_k = s_k + T_AR(b_k),
    exposed = max(0, e_K − T_b)
Unrolled, that FIFO recursion is a max-plus sum: e_K = max_k (r_k + Σ_{i≥k} T_AR(b_i)). Buckets come in
runs of equal size (the small first bucket, full caps, one remainder), and inside a run the candidate
is linear in k, so only each run's first and last bucket matter: O(runs), not O(buckets) — a 70B-parameter
model has 10,000 buckets.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpscale.formulas.units import MIB

BUCKET_CAP = 25 * MIB  # DDP default bucket_cap_mb [PT-RED]
FIRST_BUCKET = 1 * MIB  # DDP's small bucket, for the first-ready gradients in steady state [PT-DDP]


def bucket_runs(
    grad_bytes: float, cap: float = BUCKET_CAP, first: float = FIRST_BUCKET
) -> tuple[np.ndarray, np.ndarray]:
    """Buckets in ready order as runs (sizes, counts): the small first-ready bucket, full caps, the remainder."""
    if grad_bytes <= first:
        return np.array([float(grad_bytes)]), np.array([1])
    n_full, tail = divmod(grad_bytes - first, cap)
    runs = [(float(first), 1)]
    runs += [(cap, int(n_full))] if n_full else []
    runs += [(tail, 1)] if tail > 0 else []
    return np.array([r[0] for r in runs], dtype=float), np.array([r[1] for r in runs])


def exposed_comm(run_times: Any, sizes: np.ndarray, counts: np.ndarray, backward_s: Any, overlap: bool = True) -> Any:
    """Communication left after backward ends. run_times (…, R): one bucket's all-reduce time per run.

    Without overlap every all-reduce waits for backward: exposed = Σ T_AR.
    """
    t = np.asarray(run_times, dtype=float)
    total = (t * counts).sum(axis=-1)
    if not overlap:
        return total
    tb = np.asarray(backward_s, dtype=float)[..., None]
    grad = float((sizes * counts).sum())
    before = np.concatenate([[0.0], np.cumsum(sizes * counts)[:-1]])  # bytes ready before each run
    after = total[..., None] - np.cumsum(t * counts, axis=-1)  # comm of the runs that follow
    first = tb * (before + sizes) / grad + counts * t + after  # the run's first bucket
    last = tb * (before + sizes * counts) / grad + t + after  # the run's last bucket
    end = np.maximum(first, last).max(axis=-1)
    return np.maximum(end - tb[..., 0], 0.0)
