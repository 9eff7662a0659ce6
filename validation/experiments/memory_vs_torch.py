"""`dpscale memory` against the bytes of real torch tensors (review HD): an experiment, never shipped.

    python validation/experiments/memory_vs_torch.py [--activations-only] [--world 2,4]

Counts STORAGE bytes (the unique `untyped_storage()`s of tensors, not the allocator) on CPU torch with gloo, and
prints dpscale's figure, torch's bytes and their ratio per case:

- activations: a GPT-2 block stack (LayerNorm, fused QKV, causal softmax attention, GELU MLP of 4h, residual and
  attention dropout), the bytes autograd saves (torch.autograd.graph.saved_tensors_hooks, unique storages, model
  parameters and buffers and autocast's weight copies left out), without recompute, with torch.utils.checkpoint
  per layer (full recompute) and with F.scaled_dot_product_attention (no scores kept: dpscale's 'selective', as
  FlashAttention), against `activation_bytes_per_layer` at the same h, a, s, b. Dropout is torch.native_dropout
  (CUDA's kernel, a 1-byte mask); eager CPU `nn.Dropout` keeps a mask as wide as the activation instead.
- model states (processes, gloo; --world): DDP with Adam, AdamW, SGD with and without momentum in fp32 (params,
  gradients, DDP's gradient buckets with and without gradient_as_bucket_view, optimizer states after one step),
  ZeroRedundancyOptimizer (ZeRO-1: each rank's states), FSDP2 fully_shard (ZeRO-3), with reshard_after_forward=False
  (ZeRO-2-like) and with MixedPrecisionPolicy(bf16 params, fp32 reduce): each rank's local shards, and the
  unsharded parameters held at the end of forward.

Adam's per-parameter `step` (a 4-byte scalar tensor each) is left out of K and printed apart. Run time on 2 CPU
cores: 2–7 s for the activations, 15–45 s more for the processes at --world 2,4. Without torch it says so and exits 0.
What it found (review HD) is in docs/calculators.md, `dpscale memory`; tests/test_memory_vs_torch.py runs it.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dpscale.formulas.memory import Shape, activation_bytes_per_layer, ddp_bucket_bytes, model_states

try:
    import torch
    import torch.nn.functional as F
    from torch import nn
except ImportError:  # pragma: no cover - the suite's venv may lack torch
    torch = None  # type: ignore[assignment]


def storage_bytes(tensors: Any) -> int:
    """Bytes of the unique storages behind tensors (views count once)."""
    seen: dict[int, int] = {}
    for t in tensors:
        if t is None:
            continue
        t = t.to_local() if hasattr(t, "to_local") else t
        s = t.untyped_storage()
        seen[s.data_ptr()] = s.nbytes()
    return sum(seen.values())


# ---------------------------------------------------------------------------------------------------- activations
if torch is not None:

    def dropout(x: torch.Tensor, p: float, training: bool) -> torch.Tensor:
        return torch.native_dropout(x, p, training)[0] if training and p > 0 else x

    class Block(nn.Module):
        """GPT-2's layer as Korthikanti et al. count it (pre-LN, 4h GELU MLP, dropout after attention's softmax
        and on both residual branches)."""

        def __init__(self, h: int, a: int, s: int, p: float = 0.1, sdpa: bool = False, cpu_dropout: bool = False):
            super().__init__()
            self.h, self.a, self.p, self.sdpa, self.cpu_dropout = h, a, p, sdpa, cpu_dropout
            self.ln1, self.ln2 = nn.LayerNorm(h), nn.LayerNorm(h)
            self.qkv, self.proj = nn.Linear(h, 3 * h), nn.Linear(h, h)
            self.fc1, self.fc2 = nn.Linear(h, 4 * h), nn.Linear(4 * h, h)
            self.register_buffer("causal", torch.ones(s, s, dtype=torch.bool).tril().logical_not())

        def drop(self, x: torch.Tensor) -> torch.Tensor:
            return F.dropout(x, self.p, self.training) if self.cpu_dropout else dropout(x, self.p, self.training)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            b, s, h = x.shape
            d = h // self.a
            q, k, v = (t.view(b, s, self.a, d).transpose(1, 2) for t in self.qkv(self.ln1(x)).split(h, dim=2))
            if self.sdpa:  # FlashAttention's kind: no s×s scores kept (the attention dropout goes with them)
                y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            else:
                att = (q @ k.transpose(-2, -1)) * (1.0 / d**0.5)
                att = self.drop(att.masked_fill(self.causal[:s, :s], float("-inf")).softmax(-1))
                y = att @ v
            x = x + self.drop(self.proj(y.transpose(1, 2).contiguous().view(b, s, h)))
            return x + self.drop(self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh")))

    def _weight_cast(t: torch.Tensor) -> bool:
        """Whether t is a parameter's cast (autocast's ToCopy of a leaf, maybe transposed, as a linear saves it)."""
        fn = t.grad_fn
        for _ in range(3):
            if fn is None or len(fn.next_functions) != 1:
                return False
            if type(fn).__name__ == "ToCopyBackward0":
                nxt = fn.next_functions[0][0]
                return nxt is not None and type(nxt).__name__ == "AccumulateGrad"
            fn = fn.next_functions[0][0]
        return False

    def saved_bytes(model: nn.Module, x: torch.Tensor, checkpoint: bool, autocast: bool) -> tuple[int, int]:
        """(unique storages autograd saves for backward in one forward, less the model's own tensors and autocast's
        weight copies; those copies)."""
        own = {t.untyped_storage().data_ptr() for t in [*model.parameters(), *model.buffers()]}
        seen: dict[int, int] = {}
        casts: dict[int, int] = {}  # autocast's 16-bit copies of the weights: held to backward, not activations

        def pack(t: torch.Tensor) -> torch.Tensor:
            s = t.untyped_storage()
            if s.data_ptr() not in own:
                (casts if _weight_cast(t) else seen)[s.data_ptr()] = s.nbytes()
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                y = x
                for layer in model:
                    y = torch.utils.checkpoint.checkpoint(layer, y, use_reentrant=True) if checkpoint else layer(y)
        y.float().sum().backward()  # outside the hooks: a checkpoint's recompute saves again, for its backward only
        return sum(seen.values()), sum(casts.values())

    ACT_CASES = (  # label, dtype, autocast, recompute (dpscale's), value bytes, block options
        ("bf16, eager attention", torch.bfloat16, False, "none", 2, {}),
        ("fp32, eager attention", torch.float32, False, "none", 4, {}),
        ("autocast bf16 (amp)", torch.float32, True, "none", 2, {}),
        ("bf16, CPU nn.Dropout", torch.bfloat16, False, "none", 2, {"cpu_dropout": True}),
        ("bf16, SDPA (flash-like)", torch.bfloat16, False, "selective", 2, {"sdpa": True}),
        ("bf16, checkpoint/layer", torch.bfloat16, False, "full", 2, {}),
    )


def activation_rows(shapes: tuple[tuple[int, int, int, int, int], ...] = ((2, 256, 4, 256, 2), (2, 256, 8, 512, 1))
                    ) -> list[dict]:  # fmt: skip
    """One row per (shape, case): dpscale's bytes for the L layers, torch's saved bytes, their ratio."""
    rows = []
    for layers, h, a, s, b in shapes:
        for label, dtype, amp, recompute, width, opts in ACT_CASES:
            torch.manual_seed(0)
            model = nn.Sequential(*(Block(h, a, s, **opts) for _ in range(layers))).to(dtype).train()
            x = torch.randn(b, s, h, dtype=dtype, requires_grad=True)
            got, casts = saved_bytes(model, x, checkpoint=recompute == "full", autocast=amp)
            want = layers * activation_bytes_per_layer(Shape(layers, h, a, s), b, recompute=recompute,
                                                       value_bytes=width)  # fmt: skip
            rows.append({"shape": f"L={layers} h={h} a={a} s={s} b={b}", "case": label, "recompute": recompute,
                         "dpscale": want, "torch": got, "ratio": want / got, "casts": casts})  # fmt: skip
    return rows


# --------------------------------------------------------------------------------------------------- model states
H, FF, BLOCKS = 256, 1024, 4  # 2.1 M parameters; every dim 0 divisible by 4, so FSDP pads nothing


def make_model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(*(nn.Sequential(nn.Linear(H, FF), nn.GELU(), nn.Linear(FF, H)) for _ in range(BLOCKS)))


def _step(model: nn.Module, opt: Any, hook: Any = None) -> Any:
    x = torch.randn(8, H)
    y = model(x)
    held = hook() if hook else None
    y.square().mean().backward()
    opt.step()
    return held


def _storage_id(t: torch.Tensor) -> int:
    return t.untyped_storage().data_ptr()


def _states(opt: Any) -> tuple[int, int]:
    """(optimizer-state bytes less Adam's step scalars, those scalars)."""
    big, step = [], []
    for st in opt.state.values():
        for k, v in st.items():
            if torch.is_tensor(v):
                (step if k == "step" else big).append(v)
    return storage_bytes(big), storage_bytes(step)


def _fsdp_unsharded(model: nn.Module) -> int:
    """Bytes of the all-gathered (unsharded) parameters FSDP2 holds now."""
    outs = []
    for m in model.modules():
        state = m._get_fsdp_state() if hasattr(m, "_get_fsdp_state") else None
        group = state._fsdp_param_group if state is not None else None
        for fp in group.fsdp_params if group is not None else ():
            outs.extend(getattr(fp, "all_gather_outputs", None) or ())
    return storage_bytes(outs)


def _rank(rank: int, world: int, out: str, port: int) -> None:
    import torch.distributed as dist
    from torch.distributed.fsdp import MixedPrecisionPolicy, fully_shard
    from torch.distributed.optim import ZeroRedundancyOptimizer
    from torch.nn.parallel import DistributedDataParallel as DDP

    torch.set_num_threads(1)
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    res: dict[str, Any] = {}
    opts = {
        "adam": lambda ps: torch.optim.Adam(ps, lr=1e-3),
        "adamw": lambda ps: torch.optim.AdamW(ps, lr=1e-3),
        "sgd": lambda ps: torch.optim.SGD(ps, lr=1e-3, momentum=0.9),
        "sgd-no-momentum": lambda ps: torch.optim.SGD(ps, lr=1e-3),
    }
    for name, make in opts.items():
        for view in (False, True):
            ddp = DDP(make_model(), gradient_as_bucket_view=view)
            opt = make(ddp.parameters())
            _step(ddp, opt)
            params = list(ddp.parameters())
            buckets = [int(x) for x in str(ddp._get_ddp_logging_data().get("bucket_sizes", "0")).split(",") if x]
            k, step = _states(opt)
            res[f"ddp/{name}/view={view}"] = {
                "P": storage_bytes(params), "G": storage_bytes(p.grad for p in params), "K": k, "step": step,
                "buckets": sum(buckets), "grad_storages": len({_storage_id(p.grad) for p in params})}  # fmt: skip
            del ddp, opt
    zero = make_model()
    ddp = DDP(zero, gradient_as_bucket_view=True)
    opt = ZeroRedundancyOptimizer(ddp.parameters(), optimizer_class=torch.optim.Adam, lr=1e-3)
    _step(ddp, opt)
    k, step = _states(opt.optim)  # this rank's partition's states
    res["zero1/adam"] = {"P": storage_bytes(ddp.parameters()), "G": storage_bytes(p.grad for p in ddp.parameters()),
                         "K": k, "step": step}  # fmt: skip
    del ddp, opt
    mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
    for name, kw in (("fsdp2/full", {}), ("fsdp2/no-reshard", {"reshard_after_forward": False}),
                     ("fsdp2/mp-bf16", {"mp_policy": mp}),
                     ("fsdp2/mp-bf16/no-reshard", {"mp_policy": mp, "reshard_after_forward": False})):  # fmt: skip
        model = make_model()
        for block in model:
            fully_shard(block, **kw)
        fully_shard(model, **kw)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        peak = [0]

        def watch(*_: Any, model: nn.Module = model, peak: list[int] = peak) -> None:
            peak[0] = max(peak[0], _fsdp_unsharded(model))

        hooks = [m.register_forward_hook(watch) for m in model.modules() if isinstance(m, nn.Linear)]
        held = _step(model, opt, lambda m=model: _fsdp_unsharded(m))
        for hk in hooks:
            hk.remove()
        k, step = _states(opt)
        res[name] = {"P": storage_bytes(model.parameters()), "G": storage_bytes(p.grad for p in model.parameters()),
                     "K": k, "step": step, "unsharded_peak": peak[0], "unsharded_after_forward": held}  # fmt: skip
    Path(out, f"{rank}.json").write_text(json.dumps(res))
    dist.barrier()
    dist.destroy_process_group()


def state_rows(world: int) -> list[dict]:
    """Spawn `world` gloo processes and compare each case's largest rank with dpscale's model_states."""
    import torch.multiprocessing as mp

    psi = sum(p.numel() for p in make_model().parameters())
    here = str(Path(__file__).resolve().parent)  # spawned children import this file by name (a test loads it by path)
    if here not in sys.path:
        sys.path.append(here)
    with tempfile.TemporaryDirectory() as d:
        rank = importlib.import_module("memory_vs_torch")._rank  # the children's copy, by name
        mp.spawn(rank, args=(world, d, 29500 + world + os.getpid() % 1000), nprocs=world, join=True)
        ranks = [json.loads(Path(d, f"{r}.json").read_text()) for r in range(world)]
    rows = []
    plan = {  # case: (stage, optimizer, precision) as dpscale reads it
        "ddp/adam/view=False": (0, "adam", "fp32"), "ddp/adam/view=True": (0, "adam", "fp32"),
        "ddp/adamw/view=True": (0, "adamw", "fp32"), "ddp/sgd/view=True": (0, "sgd", "fp32"),
        "ddp/sgd-no-momentum/view=True": (0, "sgd", "fp32"), "zero1/adam": (1, "adam", "fp32"),
        "fsdp2/full": (3, "adam", "fp32"), "fsdp2/no-reshard": (2, "adam", "fp32"),
        "fsdp2/mp-bf16": (3, "adam", "amp"), "fsdp2/mp-bf16/no-reshard": (2, "adam", "mixed")}  # fmt: skip
    for case, (stage, opt, prec) in plan.items():
        got = {k: max(r[case][k] for r in ranks) for k in ranks[0][case]}
        if case.startswith("fsdp2"):  # what a rank holds at the end of forward: its shard and what stays gathered
            got["P"] = max(r[case]["P"] + r[case]["unsharded_after_forward"] for r in ranks)
        want = model_states(psi, world, stage, opt, prec)
        for part, w in (("P", want.parameter_bytes), ("G", want.gradient_bytes), ("K", want.optimizer_bytes)):
            rows.append({"world": world, "case": case, "part": part, "dpscale": w, "torch": got[part],
                         "ratio": w / got[part] if got[part] else float("inf")})  # fmt: skip
        total = got["P"] + got["G"] + got["K"]
        rows.append({"world": world, "case": case, "part": "P+G+K", "dpscale": want.total, "torch": total,
                     "ratio": want.total / total, "step": got["step"]})  # fmt: skip
        if case == "ddp/adam/view=False":
            copy = ddp_bucket_bytes(psi, "fp32")[0]
            rows.append({"world": world, "case": case, "part": "buckets", "dpscale": copy, "torch": got["buckets"],
                         "ratio": copy / got["buckets"]})  # fmt: skip
        if case.startswith("ddp/adam/"):  # views: a bucket's storage holds many gradients; copies: one each
            rows.append({"world": world, "case": case, "part": "gradient storages", "dpscale": float("nan"),
                         "torch": got["grad_storages"], "ratio": float("nan")})  # fmt: skip
        if case.startswith("fsdp2"):
            rows.append({"world": world, "case": case, "part": "of P: gathered after fwd", "dpscale": float("nan"),
                         "torch": got["unsharded_after_forward"], "ratio": float("nan")})  # fmt: skip
            rows.append({"world": world, "case": case, "part": "gathered, peak in fwd", "dpscale": float("nan"),
                         "torch": got["unsharded_peak"], "ratio": float("nan")})  # fmt: skip
    return rows


def show(rows: list[dict], keys: tuple[str, ...]) -> None:
    for r in rows:
        head = "  ".join(f"{r[k]!s:<26}" if k == "case" else f"{r[k]!s:<25}" for k in keys)
        want = "" if r["dpscale"] != r["dpscale"] else f"{r['dpscale']:>12,.0f}"  # (nan: dpscale has no figure)
        ratio = "" if r["ratio"] != r["ratio"] else f"  ratio {r['ratio']:.3f}"
        print(f"{head}  dpscale {want:>12}  torch {r['torch']:>12,}{ratio}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--activations-only", action="store_true", help="skip the multi-process model-state part")
    ap.add_argument("--world", default="2,4", help="process counts for the model-state part (default 2,4)")
    a = ap.parse_args(argv)
    if torch is None:
        print("torch is not installed: nothing to compare (pip install torch)")
        return 0
    t0 = time.perf_counter()
    print("activations: bytes autograd saves for the layers (dpscale: activation_bytes_per_layer × L)")
    show(activation_rows(), ("shape", "case"))
    if not a.activations_only:
        psi = sum(p.numel() for p in make_model().parameters())
        print(f"\nmodel states: {psi:,} parameters, fp32 unless named; the largest rank's bytes")
        for w in (int(x) for x in a.world.split(",")):
            rows = state_rows(w)
            show(rows, ("world", "case", "part"))
            steps = {r["case"]: r["step"] for r in rows if "step" in r}
            print(f"  (Adam's step scalars, left out of K: {max(steps.values()):,} bytes at most)")
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
