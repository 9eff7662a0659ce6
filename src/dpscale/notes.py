"""Notes the library attaches to its results, as English text that remembers its message key and fields.

A Note is a str, so API and JSON callers see plain English; a face says it in the user's language with
faces.i18n.say, which formats its own template for the same key (numbers localised). Bottom layer: no imports.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing stays off the calculator's start-up path)
if TYPE_CHECKING:
    from collections.abc import Sequence

EN = {
    # formulas/solve.py
    "superlinear": (
        "E above {spread:g}, more than a repeat's spread above 1: superlinear — the cluster beat perfect scaling "
        "(often cache effects, or a slow baseline); reported, not rejected"
    ),
    "within_spread": (
        "E above 1 by no more than a repeat's spread (up to {spread:g}): not superlinear, the timings' noise; reported "
        "as measured (plan --efficiency-file plans it as 1)"
    ),
    # a sweep's (calc -d 1,8,64 --actual …): the sizes it holds at, where the table's one note named none (review MO)
    "superlinear_sizes": (
        "E above {spread:g} at {sizes} devices, more than a repeat's spread above 1: superlinear — the cluster beat "
        "perfect scaling (often cache effects, or a slow baseline); reported, not rejected"
    ),
    "within_spread_sizes": (
        "E above 1 at {sizes} devices by no more than a repeat's spread (up to {spread:g}): not superlinear, the "
        "timings' noise; reported as measured (plan --efficiency-file plans it as 1)"
    ),
    "rounded_up": "{exact:,.{places}f} devices needed exactly; rounded up to {d:,}",
    # a speedup under 1 on two or more devices: a per-device share typed as the cluster's rate, or the cluster's total
    # as one device's (both readings give the same ratio), or an E typed as the speedup
    "slower_than_one": (
        "a speedup of {s:,.{places}{kind}}× on {d:,} devices: the cluster ran slower than one device alone — the "
        "actual throughput is the whole cluster's, the per-device throughput one device's alone; if both rates are per "
        "device (or both the cluster's), E is their ratio, {ratio:.{decimals}{kind}}; E is computed as given"
    ),
    "slower_than_one_speedup": (
        "a speedup of {s:,.{places}{kind}}× on {d:,} devices: the cluster ran slower than one device alone — a "
        "speedup is over one device, d·E: if {s:.{sig}g} is E, the speedup is {whole:,.{wsig}g}×; E is computed as "
        "given"
    ),
    # formulas/pipeline.py: where the closed forms stop describing real schedules
    "pipeline_unfilled": (
        "m = {m:,} < p = {p:,}: the pipeline never fills; r = {r:,.1f} % of ideal time, the least any schedule "
        "reaches (the last stage waits for the first forward and sends the last backward back), where the schedule's "
        "closed form (for m ≥ p) gives {closed:,.1f} %; a fixed schedule such as Megatron-LM's may do worse"
    ),
    "pipeline_unfilled_exact": (
        "m = {m:,} < p = {p:,}: the pipeline never fills — a stage computes {m:,} of every {slots:,} micro-batch "
        "slots, idle {idle:.1f} % of the step; more micro-batches a step shrink it (at m = 4p = {m4:,}: {at4:.1f} %), "
        "or fewer stages"
    ),
    # a sweep over m: once for all the m it holds at (the per-m figures are the table's columns)
    "pipeline_unfilled_sizes": (
        "m = {sizes} < p = {p:,}: the pipeline never fills; its bubble over ideal time is the least any schedule "
        "reaches (the last stage waits for the first forward and sends the last backward back), above the schedule's "
        "closed form (for m ≥ p); a fixed schedule such as Megatron-LM's may do worse"
    ),
    "pipeline_unfilled_exact_sizes": (
        "m = {sizes} < p = {p:,}: the pipeline never fills — a stage computes m of every m + p − 1 micro-batch slots, "
        "idle for the bubble fraction of the step; more micro-batches a step shrink it (at m = 4p = {m4:,}: "
        "{at4:.1f} %), or fewer stages"
    ),
    "pipeline_interleaved": "interleaved: Megatron-LM needs m a multiple of p ({p:,})",
    "pipeline_interleaved_sizes": "interleaved: Megatron-LM needs m a multiple of p ({p:,}), not m = {sizes}",
    "pipeline_zb_times": "zero-bubble figures assume forward = input-backward = weight-backward time (T_F = T_B = T_W)",
    "pipeline_zb2_in_flight": (
        "ZB-H2 is bubble-free only with at least 2p − 1 = {need:,} micro-batches in flight; with m = {m:,} its "
        "bubble is not zero — reported as ZB-H1's, {zb1_pct:,.1f} % of ideal time, the closer figure"
    ),
    "pipeline_zb2_in_flight_sizes": (
        "ZB-H2 is bubble-free only with at least 2p − 1 = {need:,} micro-batches in flight; with m = {sizes} its "
        "bubble is not zero — reported as ZB-H1's, the closer figure"
    ),
    # sources/laws.py: what `describe()` says of a law (and sources/predict.py, of a prediction)
    "law_constant": "constant E = {value:g}",
    "law_per_size": "E per size: {table}",
    "law_usl": "USL σ = {sigma:g}, κ = {kappa:g}",
    "law_amdahl": "Amdahl serial fraction = {s:g}",
    "law_predicted": "predicted E(d) (step model: compute, exposed all-reduce, synchronisation wait)",
    "law_predicted_strong": (
        "predicted E(d) (step model: compute, exposed all-reduce, synchronisation wait) at a fixed global batch of "
        "{global_batch:,}"
    ),
    # sources/predict.py and sources/predict_notes.py
    "zero_units_estimated": (
        "no preset gives the layers: the sharded units are one of {layers} layers estimated from the parameter count "
        "(N ≈ 12·L·h² with width h ≈ 128·L, as in GPT-3 and Llama), {mib:,g} MiB of gradients each; --bucket-mb "
        "sets them"
    ),
    "calibration_table": "intra-node all-reduce from the measured calibration: its busbw(size) table ({n} sizes)",
    "calibration_short": (
        "the calibration's sizes stop at {top:,.0f} bytes, under half the {mib:,g} MiB buckets, whose in-node "
        "bandwidth is read as that size's, {busbw:.3g} GB/s: measure up to the bucket size (`dpscale measure "
        "allreduce --sizes 1KB..{upto}`)"
    ),
    "calibration_alpha_beta": "intra-node all-reduce from the measured calibration: busbw {busbw:g} GB/s",
    "calibration_elsewhere": (
        "the calibration was measured with {backend} on {device}, {ranks} ranks a node, and stands here for the "
        "all-reduce of {g:,} GPUs in a node: measure on the cluster's own GPUs, {g:,} ranks (`dpscale measure "
        "allreduce --devices {g}`)"
    ),
    "calibration_nodes": (
        "the calibration was measured across {nodes:,} nodes: its bandwidth is their network's, and stands here for "
        "the link inside one node — for --calibration, measure one node (torchrun --nnodes 1)"
    ),
    "gpu_unknown": "GPU unknown: synchronisation cost assumes {hbm:g} TB/s memory (A100-class); give --gpu",
    "gpu_swapped": (
        "--gpu {gpu} in place of the {system}'s {own}: its memory bandwidth, its ring fill (on every GPU but "
        "Hopper and Blackwell, the all-reduce's mid-size buckets run below the link) and, for a FLOPs estimate, "
        "its peak are used, the {system}'s links kept — a system with that GPU may have others"
    ),
    "system_overridden": "{system} as the options changed it: {changes}",
    "nics_reached": (
        "on {g:,} of each {system} node's {whole:,} GPUs the run reaches {used:,} of its {nics:,} NICs (NCCL pairs "
        "each GPU with the nearest): the network is {inter:g} GB/s a node; --inter-bw sets it"
    ),
    "intra_bw_unused": (
        "--intra-bw {typed:g} is unused: the measured calibration file's all-reduce replaces the node's link (E is the "
        "same without it)"
    ),
    "intra_table_replaced": (
        "--intra-bw {typed:g} replaced the per-GPU-count figures of the {system} node's mesh ({figures} GB/s at "
        "{counts} GPUs: a ring over fewer of its GPUs has fewer links) by one {typed:g} GB/s for every count; leave "
        "--intra-bw out for the mesh's own"
    ),
    "inter_share_replaced": (
        "--inter-bw {typed:g} is the network of each node's {g:,} GPUs, in place of the {own:g} GB/s they reach of "
        "the {system} node's {node:g} ({used:,} of its {nics:,} NICs: NCCL pairs each GPU with the nearest); leave "
        "--inter-bw out for that share"
    ),
    "nics_unknown": (
        "on {g:,} of each {system} node's {whole:,} GPUs the run is charged the node's whole network, {inter:g} GB/s, "
        "though its GPUs may reach only some of the NICs: give the node's nics in the system file, or --inter-bw"
    ),
    "intra_bidirectional": (
        "--intra-bw {typed:g} is twice the {system}'s {own:g}: vendors quote NVLink with both directions added (H100: "
        "900 GB/s, 450 each way), and --intra-bw is one direction's"
    ),
    "intra_node_total": (
        "--intra-bw {typed:g} is {k:g} times the {system}'s {own:g}: vendors quote a node's NVLink as its {g} GPUs' "
        "added, often both directions too (DGX H100: 7.2 TB/s, 8 × 900), and --intra-bw is one GPU's, one direction; "
        "E is computed as given"
    ),
    "intra_node_total_file": (
        "the system file's intra_bw_gbs {typed:g} is {k:g} times its intra_link {system}'s {own:g} GB/s: vendors quote "
        "a node's NVLink as its {g} GPUs' added, often both directions too (DGX H100: 7.2 TB/s, 8 × 900), and "
        "intra_bw_gbs is one GPU's, one direction; E is computed as given"
    ),
    "inter_bits_file": (
        "the system file's inter_bw_gbs {typed:g} is 8 times its network's {node:g} GB/s ({nics} × {link}): networks "
        "are sold in Gb/s, and {typed:g} Gb/s is {node:g} GB/s; inter_bw_gbs is bytes; E is computed as given"
    ),
    "hop_unsourced": (
        "{link} has no sourced per-hop latency in links.json: NVLink's {us:g} µs a hop (NCCL's ring, Simple "
        "protocol) stands for it"
    ),
    "intra_bidirectional_file": (
        "the system file's intra_bw_gbs {typed:g} is twice its intra_link {link}'s {own:g} GB/s: vendors quote NVLink "
        "with both directions added (H100: 900 GB/s, 450 each way), and intra_bw_gbs is one direction's"
    ),
    "inter_one_port_file": (
        "the system file's inter_bw_gbs {bw:g} is one {link} port's: inter_bw_gbs is the node's, all its NICs "
        "together, and the {nics} NICs the run's GPUs reach make {node:g} GB/s"
    ),
    "ragged_nodes": (
        "{sizes} devices do not fill whole {g}-GPU nodes: modeled as ⌈d/{g}⌉ nodes of {g}, the network at the last "
        "node's share, the ⌈{nics}·r/{whole}⌉ of its {nics} NICs its r GPUs reach (a ragged last node is usually "
        "slower still)"
    ),
    "ragged_mesh": (
        "at {sizes} devices the hierarchical all-reduce's intra-node phase waits for the last node's r GPUs, on the "
        "links among them (a node without a switch: the system's figure for r GPUs)"
    ),
    "ragged_nodes_whole": (
        "{sizes} devices do not fill whole {g}-GPU nodes: modeled as ⌈d/{g}⌉ nodes of {g} (a ragged last node is "
        "usually slower: its GPUs may reach only part of the node's network, whose NICs were not given)"
    ),
    "precision_no_peak": (
        "the catalog gives {gpu} no {prec} rate (it lists {has}): it may not run {prec} natively; E comes from the "
        "measured rate as given, with {prec}'s gradient bytes"
    ),
    "unchecked_arch": (
        "no published measurement on {arch} accelerators ({gpu}) went into this model's calibration — it was "
        "calibrated on Volta and Ampere DGX systems; E lo–hi is their error band"
    ),
    "unchecked_size": (
        "beyond {top:,} devices, the largest published size checked: the synchronisation wait is extrapolated there"
    ),
    "unchecked_params": (
        "{count} parameters: published measurements checked {lo:g}–{hi:g} M; the synchronisation wait's terms "
        "are extrapolated below that, and E lo–hi is not known to hold"
    ),
    "unchecked_params_large": (
        "{count} parameters: published DDP measurements checked {lo:g}–{hi:g} M, and E lo–hi is not known to hold"
    ),
    "sync_bytes_held": (
        "{count} parameters, {gb:.3g} GB of gradients: {x:.2f}× the largest gradients published DDP "
        "measurements checked ({cap:.3g} GB); the synchronisation wait's share that grows with the gradient bytes "
        "is held at its value there, not extrapolated (on published FSDP runs of 125 M–13 B, validation/fsdp.py, held "
        "it errs by 0.016 at the median, the straight line could not describe a 13 B run at all), and E lo–hi is not "
        "known to hold"
    ),
    "unchecked_intra": (
        "{bw:g} GB/s per device inside a node: published measurements checked NVLink at {lo:g}–{hi:g} GB/s; "
        "E lo–hi is not known to hold"
    ),
    "unchecked_inter": (
        "{bw:g} GB/s per node across nodes: published measurements checked InfiniBand at {lo:g}–{hi:g} GB/s; "
        "E lo–hi is not known to hold"
    ),
    "unchecked_inter_low": (
        "{bw:g} GB/s per node across nodes: published measurements checked InfiniBand at {lo:g}–{hi:g} GB/s; "
        "E lo–hi is not known to hold. GB/s are bytes: if {bw:g} is the network's Gb/s, it is {bits:g} GB/s "
        "({flag} reads it so)"
    ),
    "inter_per_nic": (
        "--inter-bw is the node's, all its NICs together: if {bw:g} GB/s is one NIC's and the node has {g} (one a "
        "GPU, as DGX and HGX nodes do), the node's is {node:g} GB/s"
    ),
    "inter_bits_as_bytes": (
        "--inter-bw {typed:g} is 8 times the {system}'s {own:g} GB/s: networks are sold in Gb/s, and {typed:g} Gb/s is "
        "{own:g} GB/s ({flag} reads it so); --inter-bw is bytes"
    ),
    "params_off_preset": (
        "a --params of {typed:,.12g} is 1/{x:,.0f} of the {model}'s {count} parameters: --params is a count (7e9 "
        "for 7 billion), not millions; E is computed as given"
    ),
    "moe_active": (
        "a mixture of experts: its FLOPs count the {count} parameters one token passes through ({pct:.3g} % of its "
        "count), the gradient all-reduce all of them"
    ),
    "params_over_preset": (
        "a --params of {typed:,.12g} is {x:,.0f}× the {model}'s {count} parameters, its layers kept for the new "
        "count: a preset near that size describes it better, if there is one; if the count is a slip, --params is a "
        "count (7e9 for 7 billion); E is computed as given"
    ),
    "input_per_gpu": (
        "an --input-rate of {rate:,.12g} samples/s a node feeds {feeds:.3g} of its {g:,} GPUs at their {v:,.6g} "
        "samples/s alone: --input-rate is the node's, all its loader processes together; if {rate:,.12g} is one "
        "GPU's (a DataLoader timed in one rank), the node's is {node:,.12g}; E is computed as given"
    ),
    "inter_per_nic_known": (
        "--inter-bw is the node's, all its NICs together: if {bw:g} GB/s is one NIC's, the {nics} NICs the run's GPUs "
        "reach in each {system} node make {node:g} GB/s"
    ),
    "network_unknown": (
        "the network's name '{link}' does not tell Ethernet (eth, RoCE, EFA, GbE) from InfiniBand (ib, "
        "EDR/HDR/NDR/XDR): it names neither, or both; predicted as the InfiniBand every multi-node run of the "
        "calibration used"
    ),
    "network_ethernet": (
        "the network is Ethernet ({link}), not the InfiniBand of every multi-node run the calibration was fitted "
        "on; published FSDP runs (validation/fsdp.py, 23 points, 16 of them over RoCE) were predicted within 0.016 at "
        "the median, 0.037 at the 90th percentile, but the one published "
        "EFA all-reduce curve (4 × 8 B200) runs 157 GB/s at 64 MiB where this model gives 227 (physics.md §1.4): "
        "across nodes E may be optimistic"
    ),
    "ddp_memory": (
        "plain DDP needs {need:,.0f} GB per GPU for model states alone (Adam with fp32 states, {per} bytes a "
        "parameter; 8 with all of them in bf16: `dpscale memory --precision bf16`), more than the {gpu}'s "
        "{mem:g} GB{gib}: shard them — --zero 1–3 predicts ZeRO/FSDP, `dpscale memory --precision {mp}` sizes it"
    ),
    "zero_memory": (
        "{stage} needs {need:,.0f} GB per GPU for model states at {d:,} devices (Adam), more than the {gpu}'s "
        "{mem:g} GB{gib}: fewer devices need more; `dpscale memory --precision {mp}` sizes it"
    ),
    "activation_memory": (
        "a batch of {b:,} sequences of {s:,} stores {sel:,.1f} GB of activations per GPU even without the attention "
        "scores (FlashAttention or selective recompute; {act:,.1f} GB with them; Korthikanti et al.), more than the "
        "{left:,.1f} GB the model states leave of the {gpu}'s {held:.1f} GB at {d:,} devices: E is for the step as "
        "given, which would need full recompute (about a third more compute), tensor or pipeline parallelism, or a "
        "smaller batch or sequence; `dpscale memory --precision {mp}` sizes it"
    ),
    "accumulation_exposed": (
        "with {ga:,} accumulation steps the all-reduce is charged after the last micro-batch, as the published "
        "training scripts do (accumulate, then all-reduce the sum); DDP's no_sync overlaps it with the last "
        "backward: --overlap-accumulation (at {d:,} devices E {e_hidden_said} instead of {e_said})"
    ),
    "zero_unchecked": (
        "{stage}: gradients reduce-scattered over backward; parameters all-gathered after the optimizer step under "
        "ZeRO-1, where nothing hides it (DeepSpeed; torch's ZeroRedundancyOptimizer too, but it all-reduces the "
        "gradients), before use under ZeRO-2/3, "
        "prefetched over forward as FSDP does (DeepSpeed's ZeRO-2 gathers after the step, exposing more); in units "
        "of {mib:,g} MiB of gradients (--bucket-mb; by default DeepSpeed's buckets of 5e8 elements for ZeRO-1/2, "
        "one transformer layer, FSDP's wrap, for ZeRO-3), as ring costs, overlapped (DeepSpeed's default for "
        "ZeRO-1/2, overlap_comm off, is --no-overlap); ZeRO-3 alone was checked, on one set of published FSDP "
        "FULL_SHARD tables (MPT 125 M–13 B on 8–128 H100s and A100s, E relative to the smallest size off by 0.016 "
        "at the median, validation/fsdp.py) — the wait and E lo–hi come from DDP runs. The all-reduce columns "
        "hold these collectives"
    ),
    "strong_scaling": (
        "a fixed global batch of {g:,}: each device's micro-batch falls from {b_hi:,} samples to {b_lo:,} over these "
        "sizes, its compute with it, while its all-reduce stays (strong scaling). On the {rows} published "
        "strong-scaling rows in validation/ this model over-predicted E in {over} and erred by {median:.3f} at the "
        "median ({weak:.3f} on the {weak_rows} rows at a fixed per-device batch): expect E lower than shown"
    ),
    "strong_scaling_one": (
        "a fixed global batch of {g:,}: each device's micro-batch is {b_lo:,} at this size and falls at more devices, "
        "its compute with it, while its all-reduce stays (strong scaling). On the {rows} published strong-scaling rows "
        "in validation/ this model over-predicted E in {over} and erred by {median:.3f} at the median ({weak:.3f} on "
        "the {weak_rows} rows at a fixed per-device batch): expect E lower than shown"
    ),
    "strong_scaling_least": (  # (one size at a one-sample micro-batch: more devices are refused, nothing falls)
        "a fixed global batch of {g:,}: each device's micro-batch is {b_lo:,} at this size, the least it can be (more "
        "devices would leave some without a sample), its compute with it, while its all-reduce stays (strong "
        "scaling). On the {rows} published strong-scaling rows in validation/ this model over-predicted E in {over} "
        "and erred by {median:.3f} at the median ({weak:.3f} on the {weak_rows} rows at a fixed per-device batch): "
        "expect E lower than shown"
    ),
    "one_device_inferred": (
        "one device alone would run {v:,.6g} samples/s (the {d0:,}-device baseline without its all-reduce and wait): "
        "E and the speedup are relative to it; 'E vs d0' is E against the measured {d0:,} devices, E(d) / {e0:.3f}, "
        "as a table that starts at {d0:,} reports it"
    ),
    "one_device_inferred_tokens": (  # (predict --unit tokens/s: the rate in the unit of the table's)
        "one device alone would run {v:,.6g} tokens/s (the {d0:,}-device baseline without its all-reduce and wait): "
        "E and the speedup are relative to it; 'E vs d0' is E against the measured {d0:,} devices, E(d) / {e0:.3f}, "
        "as a table that starts at {d0:,} reports it"
    ),
    "cpu_decode": (
        "{n} devices of a node would need {need:,.0f} images/s; decoding JPEGs on its {cores:,.0f} CPU cores tops out "
        "near {cap:,.0f} ({rate:g} a core where published runs stopped scaling), and E would fall below this "
        "prediction — unless the images are decoded on the GPU (DALI); a measured loader rate goes in --input-rate"
    ),
    "beyond_peak": (
        "the measured baseline implies {tflops:,.0f} TFLOP/s a device, more than the {gpu}'s {peak:g} TFLOP/s peak: "
        "check the unit (samples/s, not tokens/s) and --seq-len; E is computed as given"
    ),
    "beyond_peak_tokens": (  # (predict --unit tokens/s: the unit was typed, so not the slip beyond_peak names)
        "the measured baseline implies {tflops:,.0f} TFLOP/s a device, more than the {gpu}'s {peak:g} TFLOP/s peak: "
        "--throughput was read in tokens/s a device — check it is one device's, not the cluster's, and the model; E "
        "is computed as given"
    ),
    "step_time_slow": (
        "a --step-time of {s:,.6g} s implies {tflops:.3g} TFLOP/s a device, {pct:.2g} % of the {gpu}'s {peak:g} "
        "TFLOP/s peak: --step-time is seconds — if these are milliseconds (the table's step ms), give {flag}; E is "
        "computed as given"
    ),
    "fp8_mfu": (
        "fp8's default share: {base:g} (bf16's) × {mid:g} (the middle of the {lo:g}–{hi:g}× end-to-end gains over "
        "bf16 that torchao published for float8 training on 8–512 GPUs) ÷ {ratio:.3g} (the fp8 peak over bf16's) = "
        "{pct:.3g} %: the casts and the layers that stay bf16 keep fp8 far from its peak; --mfu sets it"
    ),
    "cnn_mfu": (
        "a CNN preset's share is the middle of what the calibration's published ResNet-50 runs reach: "
        "{t_lo:.0f}–{t_hi:.0f} % of the tensor-core peak (TF32, AMP), {f_lo:.0f}–{f_hi:.0f} % of V100's fp32 peak "
        "(others' runs at smaller batches, 50–57 %) — ±{t_pm:.0f} % and ±{f_pm:.0f} % around it; a measured "
        "--throughput sets compute, or --mfu"
    ),
    "cnn_mfu_unchecked": (  # (a GPU of no generation the calibration had: review LT)
        "a CNN preset's share is the middle of what the calibration's published ResNet-50 runs reach on Volta and "
        "Ampere GPUs, {t_lo:.0f}–{t_hi:.0f} % of the tensor-core peak (TF32, AMP) and {f_lo:.0f}–{f_hi:.0f} % of "
        "V100's fp32 peak; the calibration had no {arch} accelerator, and its ±{pm:.0f} % is not known to hold there: "
        "the published H100 ResNet-50 runs (Lambda's deeplearning-benchmark, validation/holdout_more9.csv) reached "
        "{amp:.2g} % of the tensor-core peak with AMP, {x:.2f}× the share above, {speed:.2f}× the speed of the same "
        "table's A100 with {peak_x:.2f}× its tensor peak and {hbm_x:.2f}× its memory bandwidth — a CNN's step waits "
        "on memory more than on tensor cores — and {fp32:.0f} % of the fp32 peak in FP32 (TF32 convolutions); a "
        "measured --throughput sets compute, or --mfu"
    ),
    "cnn_mfu_efficientnet": (  # (an EfficientNet preset, whose own published runs sit far below: review LT)
        "a CNN preset's share is the middle of what the calibration's published ResNet-50 runs reach "
        "({t_lo:.0f}–{t_hi:.0f} % of the tensor-core peak, {f_lo:.0f}–{f_hi:.0f} % of V100's fp32 peak), and "
        "EfficientNet's own published runs reach far less: {e_lo:.3g}–{e_hi:.3g} % of the tensor-core peak on V100 "
        "and A100, {g_lo:.3g}–{g_hi:.3g} % of V100's fp32 peak — {x_lo:.2f}–{x_hi:.2f}× the share used here "
        "(DeepLearningExamples' rows in validation/; its depthwise convolutions do few FLOPs a byte of memory); a "
        "measured --throughput sets compute, or --mfu"
    ),
    "fp32_conv_tf32": (
        "PyTorch runs an fp32 model's convolutions on the {gpu}'s TF32 tensor cores by default "
        "(torch.backends.cudnn.allow_tf32): priced here at the fp32 peak, {fp32:g} TFLOP/s; --precision tf32 prices "
        "them at {tf32:g}"
    ),
    "measured_mfu": (
        "model-FLOPs utilisation: {gflop:,.6g} GFLOP a sample × the measured {v:,.6g} samples/s a device ({d0:,} "
        "devices) is {pct0:.3g} % of {peak:,g} TFLOP/s ({gpu}, {prec}); at {d:,} devices, E {e_said}, each device "
        "delivers {pct:.3g} %"
    ),
    "measured_mfu_vs_d0": (
        "model-FLOPs utilisation: {gflop:,.6g} GFLOP a sample × the measured {v:,.6g} samples/s a device ({d0:,} "
        "devices) is {pct0:.3g} % of {peak:,g} TFLOP/s ({gpu}, {prec}); at {d:,} devices, E vs d0 {e_said}, each "
        "device delivers {pct:.3g} %"
    ),
    "measured_mfu_alone": (
        "model-FLOPs utilisation: {gflop:,.6g} GFLOP a sample × the measured {v:,.6g} samples/s a device ({d0:,} "
        "devices) is {pct0:.3g} % of {peak:,g} TFLOP/s ({gpu}, {prec})"
    ),
    # the same, where predict's rates are in tokens/s (--unit): a sequence's FLOPs over its tokens, the rate × them
    "measured_mfu_tokens": (
        "model-FLOPs utilisation: {gflop:,.6g} GFLOP a token × the measured {v:,.6g} tokens/s a device ({d0:,} "
        "devices) is {pct0:.3g} % of {peak:,g} TFLOP/s ({gpu}, {prec}); at {d:,} devices, E {e_said}, each device "
        "delivers {pct:.3g} %"
    ),
    "measured_mfu_vs_d0_tokens": (
        "model-FLOPs utilisation: {gflop:,.6g} GFLOP a token × the measured {v:,.6g} tokens/s a device ({d0:,} "
        "devices) is {pct0:.3g} % of {peak:,g} TFLOP/s ({gpu}, {prec}); at {d:,} devices, E vs d0 {e_said}, each "
        "device delivers {pct:.3g} %"
    ),
    "measured_mfu_alone_tokens": (
        "model-FLOPs utilisation: {gflop:,.6g} GFLOP a token × the measured {v:,.6g} tokens/s a device ({d0:,} "
        "devices) is {pct0:.3g} % of {peak:,g} TFLOP/s ({gpu}, {prec})"
    ),
    "e_lost": (
        "where E goes at {d:,} devices: E {e_said} is compute's share of the step; the other {lost:.3g} % is the "
        "exposed all-reduce, {comm:.3g} %, and the synchronisation wait, {wait:.3g} %"
    ),
    "e_lost_input": (
        "where E goes at {d:,} devices: E {e_said} is compute's share of the step; the other {lost:.3g} % is the "
        "exposed all-reduce, {comm:.3g} %, the synchronisation wait, {wait:.3g} %, and waiting for input, {stall:.3g} %"
    ),
    "compute_estimated": (
        "compute estimated: {tflop:,.4g} TFLOP per micro-batch at {pct:.3g} % of {peak:,g} TFLOP/s ({gpu})"
    ),
    "flops_per_token": (
        "model FLOPs a token, the ones the MFU is a share of (PaLM's count): 6·N = {dense:,.4g} G (N = {n:,.0f} "
        "parameters) + attention's 12·L·h·k = {attn:,.4g} G ({k:,} keys a token) = {total:,.4g} G; 6·N alone counts "
        "{less:.3g} % fewer, so an MFU measured by that rule is that much below this one: divide it by {keep:.3g} to "
        "give it here"
    ),
    "flops_per_token_untied": (
        "model FLOPs a token, the ones the MFU is a share of (PaLM's count): 6·N = {dense:,.4g} G (N = {n:,.0f}: "
        "the input embedding's {emb:,.0f} parameters left out, a lookup) + attention's 12·L·h·k = {attn:,.4g} G "
        "({k:,} keys a token) = {total:,.4g} G; 6 × all {whole:,.0f} parameters a token passes through alone "
        "counts {less:.3g} % fewer, so an MFU measured by that rule is that much below this one: divide it by "
        "{keep:.3g} to give it here"
    ),
    "flops_per_token_untied_more": (
        "model FLOPs a token, the ones the MFU is a share of (PaLM's count): 6·N = {dense:,.4g} G (N = {n:,.0f}: "
        "the input embedding's {emb:,.0f} parameters left out, a lookup) + attention's 12·L·h·k = {attn:,.4g} G "
        "({k:,} keys a token) = {total:,.4g} G; 6 × all {whole:,.0f} parameters a token passes through alone "
        "counts {more:.3g} % more (at {k:,} keys the embedding's 6·V·h outweighs attention), so an MFU measured by "
        "that rule is that much above this one: divide it by {keep:.3g} to give it here"
    ),
    "compute_estimated_strong": (
        "compute estimated: {tflop:,.4g} TFLOP for one device's micro-batch of {b:,} samples (the global batch "
        "over the accumulation steps) at {pct:.3g} % of {peak:,g} TFLOP/s ({gpu}); each size's, the global batch over "
        "devices × accumulation steps, in proportion"
    ),
    # sources/fit_runs.py, sources/fit.py and sources/fit_notes.py
    "runs_duplicated": (
        "{n} runs of {d:,} devices, {k} of them a throughput repeated to every digit: counted once for the noise "
        "(one record pasted twice?)"
    ),
    "step_time_long": (
        "a step of {s:,.6g} s at {d:,} devices: step_time is read in seconds — if these are milliseconds, divide "
        "them by 1,000 (E and the law are the same either way; the compute and transfer times in seconds are not)"
    ),
    "runs_repeated": "{n} repeated runs of {d:,} devices (spread {spread:.1f} %) averaged to {mean:,.6g}",
    "runs_oversubscribed": (
        "the runs at {sizes} devices ran more ranks × threads than their node's CPU cores (oversubscribed): their E "
        "measures core sharing, not the hardware — measure those sizes with fewer --threads or on more nodes"
    ),
    "runs_replica_drift": (
        "the runs at {sizes} devices ended with their replicas apart (replica_drift up to {drift:.3g}): those steps "
        "were not data-parallel training, and their E is not its"
    ),
    "runs_conflicting": (
        "{n} conflicting runs of {d:,} devices (spread {spread:.{places}f} %, beyond the {bound:.{places}f} % within "
        "which 1 % run-to-run noise keeps {k} runs 95 % of the time) averaged to {mean:,.6g}"
    ),
    "extrapolating": (
        "extrapolating to {sizes} devices, beyond {factor:g}× the largest measured size ({top:,}): "
        "the law is an assumption there — measure closer before you buy"
    ),
    "one_node_measured": (
        "every measured size fits in one node of {g:,} devices: no run crossed the network, so E at {sizes} "
        "devices, across nodes, is the law's guess — measure on two nodes, or let `dpscale predict --system` "
        "model the network"
    ),
    "below_baseline": (
        "sizes below the smallest measured one (d0 = {d0:,}), {sizes}: E there is relative to d0 and above 100 %, "
        "and the law is carried below its runs — measure one of those sizes to know"
    ),
    "peak_below": (
        "the throughput peak, at {d} devices, lies below the smallest measured size (d0 = {d0}): throughput already "
        "falls from there, and the law is carried below its runs — measure smaller sizes to place it"
    ),
    "extrapolating_peak": (
        "the throughput peak, at {sizes} devices, lies beyond {factor:g}× the largest measured size ({top:,}): "
        "the law is an assumption there — measure closer before you buy"
    ),
    "extrapolating_peak_from": (
        "the throughput peak's interval starts at {sizes} devices, beyond {factor:g}× the largest measured size "
        "({top:,}): the law is an assumption there — measure closer before you buy"
    ),
    "extrapolating_needed": (
        "the devices needed, {sizes}, lie beyond {factor:g}× the largest measured size ({top:,}): "
        "the law is an assumption there — measure closer before you buy"
    ),
    "extrapolating_kept": (  # devices_for(efficiency=): the largest size keeping E, not devices a target needs
        "the largest size keeping that E, {sizes}, lies beyond {factor:g}× the largest measured size ({top:,}): "
        "the law is an assumption there — measure closer before you buy"
    ),
    "few_sizes": (
        "only {n} sizes measured: nothing tests the law, and the interval rests on an assumed "
        "{noise:g} % run-to-run noise — measure at least 3 sizes"
    ),
    "few_sizes_misfit": (
        "only {n} sizes measured: nothing tests the law, and the interval's run-to-run noise, {noise:.2g} %, is the "
        "law's miss of the measured point pooled with an assumed {prior:g} % — measure at least 3 sizes"
    ),
    "few_sizes_repeats": (
        "only {n} sizes measured: nothing tests the law (the repeated runs give the noise, {noise:.1f} %) — "
        "measure at least 3 sizes"
    ),
    "split_unmeasured": (
        "{k} parameters ({params}) for {n} points above the baseline: many splits fit them alike, so "
        "which term the loss is comes from the fit's prior, not from the runs — the curve holds at the measured "
        "sizes; beyond them each split bends it its own way, and the intervals span the splits that fit"
    ),
    "exact_fit": (
        "{law} has as many free parameters as points above the baseline: the curve passes through "
        "them exactly, so the residuals say nothing of the noise and the interval rests on the assumed {noise:g} %"
    ),
    "degenerate_all": "degenerate fit: every loss term is 0 (E = 1 at every size); more sizes or larger ones help",
    "degenerate_kappa": (
        "degenerate fit: κ is at most 0.1 % of the step time at the largest measured size, indistinguishable from "
        "its bound 0 — the USL is Amdahl over these sizes, and any throughput peak rests on a κ they do not show"
    ),
    "degenerate_sigma": "degenerate fit: σ at its bound 0 — all loss is coherency κ",
    "fit_unseen": (
        "{law}: {params} is the same at every measured size from d0 = {d0:,}, so E relative to d0 cannot see it — "
        "not estimated (n/a), and inside the compute time; measure one device to separate it"
    ),
    "laws_disagree": (
        "the runner-up law ({rival}) puts E at {d:,} devices at {pct:.1f} %, outside the {law} interval: which law "
        "holds matters more there than the noise, and the interval does not show it — measure closer to that size"
    ),
    "laws_pooled": (
        "the prediction intervals draw from {laws} alike: the measured sizes do not reject {others} (their misfit is "
        "within noise of the {law} law's), so which law holds beyond them is part of the uncertainty, and so do the "
        "intervals of the peak and of the devices needed; the points and the parameters are the {law} law's; --law "
        "{law} gives one law's narrower intervals"
    ),
    "fit_why_forced": "you (--law {law})",
    "fit_why_default": "default: too few sizes for a determined leave-one-out test of the all-reduce law (needs 4)",
    "fit_why_loo": (
        "leave-one-out RMSE of log E (the all-reduce law is kept unless a rival cuts its MSE to 1/{share:g})"
    ),
    "fit_describe": "fitted {law} ({fitted}), E relative to d0 = {d0:,}",
    "fit_misses": (
        "the {law} law misses the measured E at {d:,} devices ({measured_said}; the law: {law_said}) — its shape "
        "cannot follow the data; try another --law, or measure more sizes"
    ),
    "runs_fall": (
        "the measured throughput falls from {x1:,.6g} at {d1:,} devices to {x2:,.6g} at {d2:,}: past {d1:,} "
        "devices these runs do not scale, whatever the law says (the {law} law has no throughput peak to show it) — "
        "check them, or see --law usl"
    ),
    "runs_flat": (
        "{k:.3g}× the devices ({d0:,} → {d1:,}) give ×{gain:.3g} the throughput (E {e_said}): fit reads each run's "
        "whole throughput — if these are per-device rates, multiply each by its devices"
    ),
    "fit_past_domain": (
        "the {law} law's {name} = {value:.4g} lies past its range ({bound}, as the calculator takes it): the "
        "throughput falls as devices are added — these runs do not scale; check them before extrapolating"
    ),
    "superlinear_points": (
        "superlinear point(s) at {sizes} devices (E up to {emax:.3f}, above {spread:g}: more than a repeat's "
        "spread) — beat perfect scaling (cache effects or a slow baseline); the laws cannot exceed E = 1, so these "
        "pull the fit"
    ),
}
# Under --no-overlap the ZeRO note says its collectives are exposed (it said 'overlapped' whatever the flag).
ZERO_OVERLAPPED = "overlapped (DeepSpeed's default for ZeRO-1/2, overlap_comm off, is --no-overlap)"
EN["zero_unchecked_exposed"] = EN["zero_unchecked"].replace(
    ZERO_OVERLAPPED, "not overlapped (--no-overlap, DeepSpeed's default for ZeRO-1/2 with overlap_comm off)"
)


# Attention's term at the queries' width w (heads × head_dim, token_flops) where it is not the hidden size h: Gemma 7B's
# note said '12·L·h·k = 11.27 G', which is 12·28·4,096·8,192, not its h's 3,072 (review KX). Each FLOPs note's '_wide'.
ATTENTION_H = "attention's 12·L·h·k = {attn:,.4g} G ({k:,} keys a token)"
for _key in ("flops_per_token", "flops_per_token_untied", "flops_per_token_untied_more"):
    EN[f"{_key}_wide"] = EN[_key].replace(
        ATTENTION_H,
        "attention's 12·L·w·k = {attn:,.4g} G (w = {w:,}, the attention's width, heads × head_dim, not the hidden "
        "size, {h:,}; {k:,} keys a token)",
    )


# "1 devices", "1 steps": a count of one takes the singular. Nouns the notes count, each with its singular form.
SINGULAR_EN = {"devices": "device", "runs": "run", "steps": "step", "sizes": "size", "repeats": "repeat",
               "parameters": "parameter", "nodes": "node", "degrees": "degree", "values": "value", "epochs": "epoch",
               "ranks": "rank", "points": "point", "configurations": "configuration",
               "sequences": "sequence", "threads": "thread", "NICs": "NIC", "stages": "stage"}  # fmt: skip


TINY_E = 5e-4  # below it an E (or a share) written to three decimals reads 0.000


def e3(x: float) -> str:
    """An E as the notes and tables write it: three decimals, or three significant digits below TINY_E (an E of
    7.36e-12 read 0.000, and a fit's miss of 1e-9 against 2e-4 read '0.000; the law: 0.000')."""
    return f"{x:.3f}" if x == 0 or abs(x) >= TINY_E else f"{x:.3g}"


ASTRONOMICAL = 1e15  # past 2^53 whole digits are invented: a figure from here on keeps Python's exponent (1e+300)


def figure(x: float, digits: int = 6) -> str:
    """A number in a sentence as the tables write it: `digits` significant figures, grouped (122,829.5), and past a
    million whole at those figures (50,000,000, not '5e+07', which read as code and, with Spanish separators, as
    '5e+07' beside a table's 50.000.000); an astronomical one (≥ 1e15) or a tiny one keeps its exponent."""
    return unexponent(f"{x:,.{digits}g}", x)


def unexponent(text: str, x: float) -> str:
    """`x` formatted as `text` by a 'g' spec past its digits ('5.826e+04', a comma away from Spanish '5,826e+04'):
    whole at those digits and grouped (58,260), as the tables write it; an astronomical one keeps its exponent, and a
    tiny one (1e-05) has none to lose. The one rule for `figure` and for a note's own format specs (i18n.say)."""
    if "e+" in text and abs(x) < ASTRONOMICAL:
        return f"{round(float(text.replace(',', ''))):,}"
    return text


PARAM_SCALES = ((1e12, "T"), (1e9, "B"), (1e6, "M"))  # a parameter count's scales, largest first


def params_scaled(n: float) -> tuple[float, str]:
    """The figure and scale a parameter count is said in: 6.738e9 → (6.738, 'B'), to four digits, so 999,999.99 is
    1 M (not '1e+06'); below a million the count itself and ''. The one rule behind every count said (predict's
    notes, memory's title; faces.i18n.count_said words it in each language)."""
    for scale, unit in PARAM_SCALES:
        if n >= scale * 0.99995:
            return float(f"{n / scale:.4g}"), unit
    return n, ""


def params_said(n: float) -> str:
    """A parameter count in English: 6.738 B, 25.6 M, 1 T; smaller ones whole (100,000), or as given (1.5)."""
    x, unit = params_scaled(n)
    return f"{figure(x)} {unit}" if unit else f"{n:,.0f}" if n == int(n) else figure(n)


def listed(items: Sequence[str], word: str = "and", more: str = "", elided: bool = False) -> str:
    """Items as a sentence lists them, the one way every list of sizes (and of laws, and of remedies) is said: '2 and
    4', '2, 4 and 8' (a face gives its language's word: '2, 4 y 8'); '; ' between them where one holds a comma ('512;
    1,024 and 2,048', where '512, 1,024' read as one number; a Spanish '1,5 h' likewise). `more`: what stands for the
    ones left out ('5 more'), the last item; `elided`: the list goes on unnamed, so it ends in '…' and takes no
    `word`. The library's notes read it too (fit's 'allreduce, usl and amdahl', review LE), but their sizes keep '; '
    (sources.fit_runs.listed_sizes: a face re-says them)."""
    items = [*items, *([more] if more else [])]
    sep = "; " if any("," in x for x in items) else ", "
    if elided or len(items) < 2:
        return sep.join(items) + ("…" if elided else "")
    return f"{sep.join(items[:-1])} {word} {items[-1]}"


SIZES_SHOWN = 6  # the sizes a sweep's note names, then '…'


def sizes_shown(sizes: Sequence[int]) -> str:
    """The sizes a sweep's note holds at, as its `sizes` field lists them (sorted, once each): the first few and the
    last ('1; 2; 3; 4; 5; …; 14', which a face says '1, 2, 3, 4, 5, … and 14'), '; ' between (1,024 holds a comma).
    Read by pipeline's sweep over m (review KN) and calc's sweep over d (review MO)."""
    named = [f"{x:,}" for x in sorted(set(sizes))]
    return "; ".join(named if len(named) <= SIZES_SHOWN else [*named[: SIZES_SHOWN - 1], "…", named[-1]])


def singular(text: str, nouns: dict[str, str]) -> str:
    """'1 devices' → '1 device' for the given nouns; 0.1, 2,001 or 11 before the noun are left alone."""
    if "1 " not in text:  # most notes: re stays off the library's import path (errors.DOT_GROUPS)
        return text
    import re

    words = "|".join(nouns)
    return re.sub(rf"(?<![\d.,])1 ({words})\b", lambda m: "1 " + nouns[m[1]], text)


class Note(str):
    """EN[key] formatted with fields; .key and .fields let a face re-say it in another language."""

    key: str
    fields: dict[str, object]  # (no typing import: this module is on the calculator's start-up path)

    def __new__(cls, key: str, **fields: object) -> Note:
        self = super().__new__(cls, singular(EN[key].format(**fields), SINGULAR_EN))
        self.key, self.fields = key, fields
        return self

    def __reduce__(self):  # pickle (multiprocessing) as the key and fields, not the text
        return _rebuild, (self.key, self.fields)


def _rebuild(key: str, fields: dict[str, object]) -> Note:
    return Note(key, **fields)
