"""All-reduce cost models (α–β), numpy-broadcasting over message size and rank count.

Notation (../shared/reference/physics.md §1): p ranks, g GPUs per node, k = ⌈p/g⌉ nodes,
S bytes, B bandwidth in GB/s per direction, α seconds per latency step.
- ring:          2(p−1)α + 2(p−1)/p · S/B                                  [MPICH-ARRING], [THAKUR05]
- hierarchical:  intra-node reduce-scatter + all-gather (ring over g) and an inter-node ring
                 all-reduce of the S/g shard over k nodes, all g NICs in parallel:
                 2(g−1)α_i + 2(g−1)/g · S/B_intra + 2(k−1)α_n + 2(k−1)/k · S/B_node   [STAS-NET], [HVD-HIER]
                 (B_intra: the slower node's, a ragged last node of a cube-mesh on its own links: `ragged_node_link`)
- tree (NCCL ≥ 2.4): chain inside the node (alone in one node: 2S/B, slower than the ring),
                 double binary tree across nodes:
                 2(g−1)α_i + 2·log2(k)·α_n + 2S/busbw, busbw = min(B_intra, B_node)   [NCCL-TUNE]
(a forced flat ring across nodes: 2(p−1)/p · S/min(B_intra, B_node), 2(k−1) of its hops at α_n.)
Each is written once, in `allreduce_terms`, as (latency, intra, network) seconds: `allreduce_time` sums them,
`bandwidth_terms` names the link. `allreduce_time(..., algorithm="auto")` takes the fastest of hierarchical,
tree and flat ring, as NCCL's tuner does.
Bandwidths passed in are the *achievable* ones; the predictor scales spec figures down.

Mid-size messages run far below the link's asymptotic bandwidth (physics.md §1.4: 8× A100 reach 106
GB/s at 16 MiB and 138 at 32 MiB of 235), more than one α explains. A ring pipelines chunks through
its 2(g−1) intra-node steps; a chunk grows with the message until it reaches NCCL's maximum, so each
step costs up to τ more: `fill = 2(g−1)·τ·S/(S + S_f)`. It vanishes for small messages (latency-bound)
and is a constant, amortised one for huge ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dpscale.formulas.units import GB, MIB

FILL_BYTES = 10 * MIB  # S_f: the fill is half grown at 10 MiB — derived from 8× A100 nccl-tests [STAS-NET]
ALGORITHMS = ("auto", "ring", "hierarchical", "tree")


def busbw_factor(ranks: Any) -> Any:
    """2(n−1)/n: bytes each of n ranks moves per message byte in a ring all-reduce; nccl-tests' busbw
    factor [NCCLT]. 0 for one rank."""
    n = np.asarray(ranks, dtype=float)
    return 2.0 * (n - 1.0) / n


def ring_fill_time(nbytes: Any, steps: Any, fill_s: float, fill_bytes: float) -> Any:
    """Pipeline fill of a ring: `steps` steps, each up to `fill_s` longer as chunks grow with the message."""
    s = np.asarray(nbytes, dtype=float)
    return np.asarray(steps, dtype=float) * fill_s * s / (s + fill_bytes)


def nodes(ranks: Any, gpus_per_node: Any) -> tuple[Any, Any]:
    """(GPUs used per node g, node count k) for p ranks packed onto nodes of size gpus_per_node."""
    p = np.asarray(ranks, dtype=float)
    g = np.minimum(p, gpus_per_node)
    return g, np.ceil(p / g)


def nics_near(gpus: Any, nics: Any, node_gpus: Any) -> Any:
    """NICs that GPUs 0..x−1 of a node of node_gpus GPUs and `nics` NICs reach, ⌈nics·x/node_gpus⌉ (at most nics):
    NCCL pairs each GPU with the NIC nearest it, and nodes hang the NICs evenly under the GPUs in order (a DGX-1 one
    EDR NIC under each pair, a DGX A100 one HDR NIC a GPU). The −1e-9 keeps a whole quotient (4·6/8 = 3) at itself."""
    return np.minimum(np.ceil(np.asarray(nics, dtype=float) * gpus / node_gpus - 1e-9), nics)


def link_bandwidth(ranks: Any, gpus_per_node: Any, intra_bw_gbs: float, by_gpus: dict | None = None) -> Any:
    """Intra-node GB/s per GPU at each rank count: `by_gpus[g]` where a run uses g < gpus_per_node GPUs of a node
    whose links do not all join every GPU (a cube-mesh: NCCL's rings over GPUs 0..g−1 use only the links among
    them), else the node's figure. Without a switch, two DGX-1 V100s share one 25 GB/s link, not 150.
    Between whole sizes (solve reads E there for the exact size) the figure runs in a straight line from one whole
    size's to the next's, so E does not leap to the node's figure at 2.01 GPUs and back at 3 (2–3: 25 → 50)."""
    g = np.minimum(np.asarray(ranks, dtype=float), gpus_per_node)
    if not by_gpus:
        return np.full(g.shape, float(intra_bw_gbs))

    def at(n: np.ndarray) -> np.ndarray:  # the figure at whole sizes n: the table's, else the node's
        bw = np.full(n.shape, float(intra_bw_gbs))
        for k, v in by_gpus.items():
            bw = np.where(n == int(k), float(v), bw)
        return bw

    lo, hi = np.floor(g), np.ceil(g)
    below = at(np.where(lo >= 2, lo, hi))  # one GPU has no link: below 2 the pair's figure
    return below + (at(hi) - below) * (g - lo)  # (whole sizes: exactly the table's figure)


def ragged_node_link(ranks: Any, gpus_per_node: Any, intra_bw_gbs: float, by_gpus: dict | None = None) -> Any:
    """The hierarchical's intra-node figure at each rank count, as a whole node's: every node reduce-scatters at
    once and the network phase waits for the slowest, so where the last node's r GPUs (GPUs 0..r−1 of a cube-mesh:
    `link_bandwidth` at r) take longer, busbw(r)·S/B(r) > busbw(g)·S/B(g), the figure is B(r)·busbw(g)/busbw(r):
    13 ranks on DGX-1 V100s leave GPUs 0-4, no NVLink-only ring (15.75 GB/s), 8.7× a whole node's 150 GB/s phase,
    which was charged. One GPU has no intra phase; a switch (no `by_gpus`) gives every size the node's figure.
    Between whole sizes the figure runs in a straight line, as `link_bandwidth`'s does."""
    whole = link_bandwidth(ranks, gpus_per_node, intra_bw_gbs, by_gpus)
    if not by_gpus:
        return whole

    def share(n: np.ndarray) -> np.ndarray:  # at whole sizes n: a whole node's phase over the slowest node's, ≤ 1
        g, k = nodes(n, gpus_per_node)
        r = n - g * (k - 1.0)
        b_r, b_g = (link_bandwidth(x, gpus_per_node, intra_bw_gbs, by_gpus) for x in (r, g))
        ragged = (k > 1) & (r >= 2) & (r < g)
        return np.where(ragged, np.minimum(busbw_factor(g) * b_r / np.where(ragged, busbw_factor(r) * b_g, 1.0), 1.0),
                        1.0)  # fmt: skip

    p = np.maximum(np.asarray(ranks, dtype=float), 1.0)
    lo, hi = np.floor(p), np.ceil(p)
    below = share(lo)
    return whole * (below + (share(hi) - below) * (p - lo))  # (whole sizes: exactly theirs)


def allreduce_terms(
    nbytes: Any,
    ranks: Any,
    gpus_per_node: Any,
    intra_bw_gbs: Any,
    inter_bw_gbs: Any,
    alpha_intra_s: Any = 0.0,
    alpha_inter_s: Any = 0.0,
    algorithm: str = "hierarchical",
    hier_intra_gbs: Any = None,
) -> tuple[Any, Any, Any]:
    """(latency, intra-node bandwidth, network bandwidth) seconds of one all-reduce by a named algorithm: the
    one place each algorithm's cost is written; its time is their sum, and the split names the bottleneck.
    - hierarchical: only 2(k−1)/k·S/g bytes per GPU leave the node, over g NICs in parallel, so the
      inter-node phase costs 2(k−1)/k · S / B_node (B_node = the node's total NIC bandwidth); its intra-node
      phases run at `hier_intra_gbs` where given (`ragged_node_link`: a ragged last node's slower phase).
    - tree (NCCL): logarithmic latency across nodes; 2S of traffic (algbw = busbw/2) [NCCL#457], [NCCL-TUNE],
      one tree pair per NIC so the node's NICs work in parallel [NCCL#545]; inside one node, a chain.
    - ring (flat, multi-channel, one channel per NIC): ≈ 2(p−1)/p·S at the slower link [STAS-NET] model 2;
      of its 2(p−1) hops, 2(k−1) cross the network (NCCL's ring latency [NCCL-TUNE]).
    Ring and tree across nodes spend their bandwidth time on the slower link (on the network alone with one GPU
    a node), inside one node on NVLink."""
    s = np.asarray(nbytes, dtype=float)
    p = np.asarray(ranks, dtype=float)
    g, k = nodes(ranks, gpus_per_node)
    if algorithm == "hierarchical":
        lat = 2.0 * (g - 1.0) * alpha_intra_s + 2.0 * (k - 1.0) * alpha_inter_s
        b_node = intra_bw_gbs if hier_intra_gbs is None else hier_intra_gbs
        return lat, busbw_factor(g) * s / (b_node * GB), busbw_factor(k) * s / (inter_bw_gbs * GB)
    alone = g <= 1  # one GPU a node: no intra-node link to cross
    bw = np.where(k > 1, np.where(alone, inter_bw_gbs, np.minimum(intra_bw_gbs, inter_bw_gbs)), intra_bw_gbs)
    if algorithm == "tree":
        lat = np.where(p > 1, 2.0 * (g - 1.0) * alpha_intra_s + 2.0 * np.log2(k) * alpha_inter_s, 0.0)
        t = np.where(p > 1, 2.0 * s / (bw * GB), 0.0)
    else:  # ring
        lat = (2.0 * (p - 1.0) - 2.0 * (k - 1.0)) * alpha_intra_s + 2.0 * (k - 1.0) * alpha_inter_s
        t = busbw_factor(p) * s / (bw * GB)
    net = (k > 1) & (alone | (np.asarray(inter_bw_gbs) <= np.asarray(intra_bw_gbs)))
    return lat, np.where(net, 0.0, t), np.where(net, t, 0.0)


AUTO = ("hierarchical", "tree", "ring")  # what "auto" chooses among; ties go to the earlier


def _auto(args: tuple[Any, Any, Any, Any, Any, Any, Any], hier_intra_gbs: Any = None) -> tuple[list, Any]:
    """Each candidate's allreduce_terms and the index "auto" picks, size by size: the fastest (within one node
    the hierarchical is the ring; the tree's chain is never faster)."""
    cands = [allreduce_terms(*args, algorithm=a, hier_intra_gbs=hier_intra_gbs) for a in AUTO]
    return cands, np.argmin(np.broadcast_arrays(*(sum(c) for c in cands)), axis=0)


def _chosen(nbytes, ranks, gpus_per_node, intra_bw_gbs, inter_bw_gbs, alpha_intra_s, alpha_inter_s, algorithm,
            hier_intra_gbs=None):  # fmt: skip
    """allreduce_terms of the algorithm charged: a forced one, or auto's pick (`_auto`)."""
    args = (nbytes, ranks, gpus_per_node, intra_bw_gbs, inter_bw_gbs, alpha_intra_s, alpha_inter_s)
    if algorithm != "auto":
        return allreduce_terms(*args, algorithm=algorithm, hier_intra_gbs=hier_intra_gbs)
    cands, pick = _auto(args, hier_intra_gbs)
    return tuple(np.choose(pick, [c[j] for c in cands]) for j in range(3))


def algorithm_charged(
    nbytes: Any,
    ranks: Any,
    gpus_per_node: Any,
    intra_bw_gbs: Any,
    inter_bw_gbs: Any,
    alpha_intra_s: Any = 0.0,
    alpha_inter_s: Any = 0.0,
    algorithm: str = "auto",
    hier_intra_gbs: Any = None,
) -> Any:
    """The name of the algorithm `allreduce_time` charges at each size (as _chosen picks it): a forced one, or
    auto's fastest; within one node, or with one GPU a node, the hierarchical is named the ring it then is (the
    same terms: one of its two levels is empty, and ties go to it as AUTO's first); "" for one rank."""
    args = (nbytes, ranks, gpus_per_node, intra_bw_gbs, inter_bw_gbs, alpha_intra_s, alpha_inter_s)
    if algorithm == "auto":
        name = np.asarray(AUTO)[_auto(args, hier_intra_gbs)[1]]
    else:
        name = np.full(np.broadcast(*args).shape, algorithm)
    g, k = nodes(ranks, gpus_per_node)
    flat = np.broadcast_to((k <= 1) | (g <= 1), name.shape) & (name == "hierarchical")
    return np.where(np.broadcast_to(np.asarray(ranks) <= 1, name.shape), "", np.where(flat, "ring", name))


def allreduce_time(
    nbytes: Any,
    ranks: Any,
    gpus_per_node: Any,
    intra_bw_gbs: Any,
    inter_bw_gbs: Any,
    alpha_intra_s: Any = 0.0,
    alpha_inter_s: Any = 0.0,
    algorithm: str = "auto",
    fill_s: float = 0.0,
    fill_bytes: float = FILL_BYTES,
    hier_intra_gbs: Any = None,
) -> Any:
    """All-reduce time in seconds. Within one node "auto" is the ring over the intra link (hierarchical
    reduces to it; a forced tree is NCCL's intra-node chain, 2S/B, never faster); across nodes "auto"
    takes the fastest of hierarchical, tree and flat ring. Every algorithm crosses the node in
    2(g−1) steps, which pay the ring fill (`ring_fill_time`)."""
    if not isinstance(algorithm, str) or algorithm not in ALGORITHMS:  # (an array: numpy's ambiguity error)
        from dpscale.errors import fail

        raise fail("algorithm", algorithm, ", ".join(ALGORITHMS))
    fill = _node_fill(nbytes, ranks, gpus_per_node, fill_s, fill_bytes)
    return fill + sum(_chosen(nbytes, ranks, gpus_per_node, intra_bw_gbs, inter_bw_gbs, alpha_intra_s,
                              alpha_inter_s, algorithm, hier_intra_gbs))  # fmt: skip


def _node_fill(nbytes: Any, ranks: Any, gpus_per_node: Any, fill_s: float, fill_bytes: float) -> Any:
    """The ring fill every algorithm pays on its 2(g−1) steps across the node (`ring_fill_time`)."""
    return ring_fill_time(nbytes, 2.0 * (nodes(ranks, gpus_per_node)[0] - 1.0), fill_s, fill_bytes) if fill_s else 0.0


def bandwidth_terms(
    nbytes: Any,
    ranks: Any,
    gpus_per_node: Any,
    intra_bw_gbs: Any,
    inter_bw_gbs: Any,
    algorithm: str,
    alpha_intra_s: Any = 0.0,
    alpha_inter_s: Any = 0.0,
    fill_s: float = 0.0,
    fill_bytes: float = FILL_BYTES,
    hier_intra_gbs: Any = None,
) -> tuple[Any, Any]:
    """(intra-node, network) bandwidth seconds of the algorithm `allreduce_time` charges, for naming which
    link limits it. The ring fill counts as intra-node link time: it is NVLink running below its peak."""
    args = (nbytes, ranks, gpus_per_node, intra_bw_gbs, inter_bw_gbs, alpha_intra_s, alpha_inter_s, algorithm)
    fill = _node_fill(nbytes, ranks, gpus_per_node, fill_s, fill_bytes)
    intra, net = _chosen(*args, hier_intra_gbs)[1:]
    return intra + fill, net


def bus_bandwidth(nbytes: Any, seconds: Any, ranks: Any) -> Any:
    """nccl-tests busbw = algbw · 2(n−1)/n in GB/s, comparable to the link speed [NCCLT]."""
    return np.asarray(nbytes, dtype=float) / np.asarray(seconds, dtype=float) * busbw_factor(ranks) / GB
