"""Every label, heading, term and page text, in English and Spanish, by key (faces.i18n.label reads it)."""

from __future__ import annotations

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "warning": "warning",
        "measure_threads_from_out": (
            "{n} threads a rank, as the earlier records of this set-up in --out, so that E compares like with like "
            "(--threads overrides)"
        ),
        "measure_no_baseline": "no earlier record in --out has this set-up ({why}): E is relative to this size",
        "measure_second_baseline": (
            "--out already holds this set-up at {sizes} devices, measured before this smaller size: their E there is "
            "relative to their own smallest size, not to {d} (`dpscale fit` reads their throughputs, unaffected)"
        ),
        "measure_threads_over": (
            "; {d} ranks × {t} threads exceed the {c} cores, so this size measures oversubscription — measure the "
            "sizes in one run (-d 1,{d}) into a new file for a fair E"
        ),
        "plot_params": "{n} parameters",
        "plot_per_node": "{g} GPUs/node",
        "plot_batch": "batch {b}",
        "plot_global_batch": "global batch {b}",
        "measure_oversubscribed": (
            "world size {d} exceeds the {cores} CPU cores; ranks share cores, so the result measures "
            "oversubscription, not the hardware's scaling"
        ),
        "measure_threads_oversubscribed": (
            "{d} ranks × {t} threads (--threads) exceed the {cores} CPU cores; ranks share cores, so the result "
            "measures oversubscription, not the hardware's scaling"
        ),
        "devices": "devices",
        "per_device_throughput": "per-device throughput",
        "efficiency": "scaling efficiency E",
        "ideal_throughput": "ideal throughput d·v",
        "actual_throughput": "actual throughput d·v·E",
        "speedup": "speedup d·E",
        "lost_throughput": "lost to parallel overhead",
        "effective_devices": "effective devices d·E",
        "devices_exact": "devices needed (exact)",
        "samples/s": "samples/s",
        "count_samples": "samples",  # what samples/s counts (i18n.count_of)
        "count_other": "units of the {unit} throughput",  # a unit with no noun to read (i18n.count_of)
        "note": "note",
        # the web page's own words
        "web_title": "dpscale — data-parallel scaling",
        "web_tagline": "If I replicate my model on d accelerators, what throughput and speedup do I really get?",
        "web_calc": "Calculator",
        "web_predict": "Predict E(d)",
        "web_run": "Calculate",
        "web_result_rows": "Result: {n} rows",  # said to a screen reader where a result has no title
        "web_result": "Result ready",  # (one answer, or a sweep of one size)
        # shown over an answer (or an error) once its tab's fields no longer say what it was asked with
        "web_stale": "Inputs changed since this was calculated: press '{web_run}' to update it",
        "web_language": "Language",
        "web_no_answer": "dpscale: no answer from the server",
        "web_bad_answer": "dpscale: the server answered {status} without a result",
        "web_calc_hint": (
            "Give three of d, v, E (or a law) and A; the fourth is solved. d takes 64, 8,16,32 or 8..1024x2."
        ),
        "web_devices": "Devices d",
        "web_throughput": "Per-device throughput v (samples/s, or the unit given)",
        "web_plan_throughput": "Per-device throughput v (samples/s, or the unit given)",
        "web_unit": "Throughput unit (blank: samples/s; tokens/s, images/s …)",
        "web_efficiency": "Scaling efficiency E",
        "web_actual": "Actual throughput A (samples/s, or the unit given)",
        "web_speedup": "or speedup S over one device",
        "web_tabs": "dpscale's tools",  # the tab list's name, said by a screen reader
        # the chart's name: what it plots, its band and its dots (the fit's measured E) only where it draws them
        "web_chart": "scaling efficiency E against devices d from {lo} to {hi} (log scale)",
        "web_chart_band": "; shaded: E lo to E hi",
        "web_chart_runs": "; dots: E measured at {n} sizes",
        "web_chart_x": "devices d (log scale)",
        "web_law": "E(d) law",
        "web_law_none": "E as given",
        "web_opt_mixed": "mixed",
        "web_recompute": "Activation recomputation (with a transformer preset)",
        "web_opt_none": "none",
        "web_opt_selective": "selective (attention)",
        "web_opt_full": "full (each layer's input kept)",
        "web_opt_0": "0 (DDP)",
        "web_sigma": "USL σ",
        "web_kappa": "USL κ",
        "web_serial": "Amdahl serial fraction",
        "web_predict_hint": (
            "E(d) from the model, batch, precision and cluster; a measured per-device throughput (on one device, "
            "or on the devices of a node) sets the compute time (without one, it is estimated from FLOPs)."
        ),
        "web_model": "Model preset",
        "web_params": "Parameters (replace the preset's)",
        "web_seq_len": "Sequence length (tokens; with parameters and no measured rate)",
        "web_precision": "Precision",
        "web_batch": "Per-device batch",
        "web_global_batch": "Global batch (instead of the per-device batch: fixed over the sizes, strong scaling)",
        "web_grad_accum": "Gradient-accumulation steps",
        "web_system": "System",
        "web_own_gpus_per_node": "GPUs per node (blank: the system's)",
        "web_own_intra_bw": "Intra-node GB/s per GPU, one way (blank: the system's)",
        "web_own_inter_bw": "Network per node: GB/s, or with its unit, 400GbE, 1600Gb/s (blank: the system's)",
        "web_own_gpu": "GPU (blank: the system's)",
        "web_pred_throughput": "Measured throughput per device (samples/s)",
        "web_baseline_devices": "…measured on this many devices (blank: one)",
        "web_take": "E(d) from the last prediction or fit",
        # notes said in the page's terms where the command's name its flags (faces/web/app.py's PAGE_NOTES): the
        # note's own fields, and {web_*} the page's words (a field's label, a tab, the take button)
        "web_plan_no_e": (
            "E = 1 assumed (perfect scaling): give '{web_efficiency}', '{web_law}' or the button '{web_take}' for real "
            "numbers"
        ),
        "web_plan_worked_partial": (
            "Worked example with your devices/epochs: 1.28M {count} at 2,000 {unit} per device, E = 0.9, 2.5 per "
            "device-hour, deadline 24 h (give '{web_plan_samples}' and '{web_plan_throughput}' for your run)"
        ),
        "web_constant_note": (
            "E is held at {e} from two devices on (one device alone is its own reference: E = 1); real E usually "
            "falls as devices are added — give E per size in '{web_efficiency}', a law in '{web_law}' (usl or amdahl), "
            "or use the tabs '{web_fit}' / '{web_predict}'"
        ),
        "web_one_node_measured": (
            "every measured size fits in one node of {g} devices: no run crossed the network, so E at {sizes} "
            "devices, across nodes, is the law's guess — measure on two nodes, or let the tab '{web_predict}' with a "
            "'{web_system}' model the network"
        ),
        "web_batch_rule_linear": (
            "linear rule (LR × B/B0; suits SGD with momentum, Goyal et al. 2017); for Adam/AdamW choose adam in "
            "'{web_optimizer}' (square-root rule, Malladi et al. 2022)"
        ),
        "web_batch_rule_sqrt": (
            "square-root rule (LR × √(B/B0); suits Adam/RMSprop, Malladi et al. 2022); for SGD choose sgd in "
            "'{web_optimizer}' (linear rule with warm-up, Goyal et al. 2017)"
        ),
        "web_batch_far_from_base": (
            "'{web_base_batch}' {b0} and the global batch {b} differ {x}×, as a language model's sequence length "
            "does: both count samples (sequences: tokens ÷ sequence length; Llama 2's 4 M tokens of 4,096 are 1,024) "
            "— one in tokens against one in sequences moves the learning rate by that factor (its square root under "
            "the square-root rule)"
        ),
        "web_batch_past_dataset": (
            "one step an epoch from {d} devices on: the global batch ({b}) covers the whole dataset — check "
            "'{web_samples}' and the batch"
        ),
        "web_mem_no_act_params": (
            "model states only: activations are not counted (they need the layers of a transformer preset in "
            "'{web_model}'; '{web_params}' then sets its size)"
        ),
        "web_mem_stages": (
            "stage 0 = DDP; 1 shards optimizer states (≈ ZeroRedundancyOptimizer); 2 also gradients (≈ FSDP "
            "SHARD_GRAD_OP); 3 also parameters (≈ FSDP FULL_SHARD, ~1.5× DDP traffic; the tab '{web_predict}' with "
            "'{web_zero}' 3 predicts its E); CUDA context and fragmentation need a few GB more"
        ),
        "web_mem_ddp_buckets_autocast": (
            "under torch.autocast the parameters and gradients stay fp32, so those buckets take {g} (the {b} bytes a "
            "parameter are then fp32 parameters, gradients and {states}: '{web_precision}' amp counts them so)"
        ),
        "web_mem_act_no_dropout": (
            "{model} has no attention dropout and a {mlp} MLP: Korthikanti's constants are GPT-3's layers, whose "
            "attention keeps a dropout mask and output beside the scores (5as/h of the 34 + 5as/h per sbh), "
            "{none}; with '{web_recompute}' {web_opt_selective} (FlashAttention keeps no "
            "scores) it understates by about 10–20 %: the {mlp} MLP keeps four f-wide tensors, (2 + 8f/h)·sbh "
            "against GPT's 19sbh — leave that margin"
        ),
        "web_pipe_no_dp_e": (
            "data-parallel E = 1 assumed across the {n} replicas (perfect scaling): give '{web_dp_efficiency}', E at "
            "{n} replicas from the tabs '{web_predict}' or '{web_fit}', for real numbers"
        ),
        "web_pipe_dp_e_held": (
            "'{web_dp_efficiency}' {e} is held at every m of the sweep, but E depends on m: the replicas all-reduce "
            "once per m micro-batches ('{web_grad_accum}' m in the tab '{web_predict}'), so each m's E is its own "
            "prediction"
        ),
        "web_pipe_one_replica": (
            "one data-parallel replica is its own reference, so its E = 1 by definition; '{web_dp_efficiency}' {e} "
            "applies from two replicas"
        ),
        "web_laws_pooled": (
            "the prediction intervals draw from {laws} alike: the measured sizes do not reject {others} (their misfit"
            " is within noise of the {law} law's), so which law holds beyond them is part of the uncertainty, and so "
            "do the intervals of the peak and of the devices needed; the points and the parameters are the {law} "
            "law's; '{web_fit_law}' {law} gives one law's narrower intervals"
        ),
        "web_fit_why_forced": "you ('{web_fit_law}' {law})",
        "web_fit_band": "lo–hi: the {pct} prediction interval for one run",
        "web_fit_misses": (
            "the {law} law misses the measured E at {d} devices ({measured_said}; the law: {law_said}) — its shape "
            "cannot follow the data; try another '{web_fit_law}', or measure more sizes"
        ),
        "web_runs_fall": (
            "the measured throughput falls from {x1} at {d1} devices to {x2} at {d2}: past {d1} devices these runs do"
            " not scale, whatever the law says (the {law} law has no throughput peak to show it) — check them, or see"
            " '{web_fit_law}' usl"
        ),
        "web_gpu_unknown": (
            "GPU unknown: synchronisation cost assumes {hbm} TB/s memory (A100-class); choose one in '{web_own_gpu}'"
        ),
        "web_inter_per_nic": (
            "'{web_own_inter_bw}' is the node's, all its NICs together: if {bw} GB/s is one NIC's and the node has "
            "{g} (one a GPU, as DGX and HGX nodes do), the node's is {node} GB/s"
        ),
        "web_inter_per_nic_known": (
            "'{web_own_inter_bw}' is the node's, all its NICs together: if {bw} GB/s is one NIC's, the {nics} NICs "
            "the run's GPUs reach in each {system} node make {node} GB/s"
        ),
        "web_gpu_swapped": (
            "'{web_own_gpu}' {gpu} in place of the {system}'s {own}: its memory bandwidth, its ring fill (on every "
            "GPU but Hopper and Blackwell, the all-reduce's mid-size buckets run below the link) and, for a FLOPs "
            "estimate, its peak are used, the {system}'s links kept — a system with that GPU may have others"
        ),
        "web_intra_table_replaced": (
            "'{web_own_intra_bw}' {typed} replaced the per-GPU-count figures of the {system} node's mesh ({figures} "
            "GB/s at {counts} GPUs: a ring over fewer of its GPUs has fewer links) by one {typed} GB/s for every "
            "count; leave '{web_own_intra_bw}' blank for the mesh's own"
        ),
        "web_inter_share_replaced": (
            "'{web_own_inter_bw}' {typed} is the network of each node's {g} GPUs, in place of the {own} GB/s they "
            "reach of the {system} node's {node} ({used} of its {nics} NICs: NCCL pairs each GPU with the nearest); "
            "leave '{web_own_inter_bw}' blank for that share"
        ),
        "web_nics_reached": (
            "on {g} of each {system} node's {whole} GPUs the run reaches {used} of its {nics} NICs (NCCL pairs each "
            "GPU with the nearest): the network is {inter} GB/s a node; '{web_own_inter_bw}' sets it"
        ),
        "web_nics_unknown": (
            "on {g} of each {system} node's {whole} GPUs the run is charged the node's whole network, {inter} GB/s, "
            "though its GPUs may reach only some of the NICs: give the network they reach in '{web_own_inter_bw}'"
        ),
        "web_intra_bidirectional": (
            "'{web_own_intra_bw}' {typed} is twice the {system}'s {own}: vendors quote NVLink with both directions "
            "added (H100: 900 GB/s, 450 each way), and '{web_own_intra_bw}' is one direction's"
        ),
        "web_inter_bits_as_bytes": (
            "'{web_own_inter_bw}' {typed} is 8 times the {system}'s {own} GB/s: networks are sold in Gb/s, and "
            "{typed} Gb/s is {own} GB/s ({flag} reads it so); '{web_own_inter_bw}' is bytes"
        ),
        "web_ddp_memory": (
            "plain DDP needs {need} GB per GPU for model states alone (Adam with fp32 states, {per} bytes a "
            "parameter; 8 with all of them in bf16: the tab '{web_memory}' with '{web_precision}' bf16), more than "
            "the {gpu}'s {mem} GB{gib}: shard them — '{web_zero}' 1–3 predicts ZeRO/FSDP, the tab '{web_memory}' "
            "with '{web_precision}' {web_opt_mp} sizes it"
        ),
        "web_zero_memory": (
            "{stage} needs {need} GB per GPU for model states at {d} devices (Adam), more than the {gpu}'s "
            "{mem} GB{gib}: fewer devices need more; the tab '{web_memory}' with '{web_precision}' {web_opt_mp} "
            "sizes it"
        ),
        "web_activation_memory": (
            "a batch of {b} sequences of {s} stores {sel} GB of activations per GPU even without the attention scores"
            " (FlashAttention or selective recompute; {act} GB with them; Korthikanti et al.), more than the {left} "
            "GB the model states leave of the {gpu}'s {held} GB at {d} devices: E is for the step as given, which "
            "would need full recompute (about a third more compute), tensor or pipeline parallelism, or a smaller "
            "batch or sequence; the tab '{web_memory}' with '{web_precision}' {web_opt_mp} sizes it"
        ),
        "web_cpu_decode": (
            "{n} devices of a node would need {need} images/s; decoding JPEGs on its {cores} CPU cores tops out near "
            "{cap} ({rate} a core where published runs stopped scaling), and E would fall below this prediction — "
            "unless the images are decoded on the GPU (DALI); a measured loader rate goes in '{web_input_rate}'"
        ),
        "web_intra_node_total": (
            "'{web_own_intra_bw}' {typed} is {k} times the {system}'s {own}: vendors quote a node's NVLink as its {g} "
            "GPUs' added, often both directions too (DGX H100: 7.2 TB/s, 8 × 900), and '{web_own_intra_bw}' is one "
            "GPU's, one direction; E is computed as given"
        ),
        "web_params_off_preset": (
            "'{web_params}' {typed} is 1/{x} of the {model}'s {count} parameters: '{web_params}' is a count (7e9 for "
            "7 billion), not millions; E is computed as given"
        ),
        "web_params_over_preset": (
            "'{web_params}' {typed} is {x}× the {model}'s {count} parameters, its layers kept for the new count: a "
            "preset near that size describes it better, if there is one; if the count is a slip, '{web_params}' is a "
            "count (7e9 for 7 billion); E is computed as given"
        ),
        "web_input_per_gpu": (
            "'{web_input_rate}' {rate} samples/s a node feeds {feeds} of its {g} GPUs at their {v} samples/s alone: "
            "'{web_input_rate}' is the node's, all its loader processes together; if {rate} is one GPU's (a DataLoader "
            "timed in one rank), the node's is {node}; E is computed as given"
        ),
        "web_beyond_peak": (
            "the measured baseline implies {tflops} TFLOP/s a device, more than the {gpu}'s {peak} TFLOP/s peak: "
            "check the unit (samples/s, not tokens/s) and '{web_seq_len}'; E is computed as given"
        ),
        "web_beyond_peak_tokens": (
            "the measured baseline implies {tflops} TFLOP/s a device, more than the {gpu}'s {peak} TFLOP/s peak: "
            "'{web_pred_throughput}' was read in tokens/s a device (the unit asked) — check it is one device's, not "
            "the cluster's, and the model; E is computed as given"
        ),
        "web_fp8_mfu": (
            "fp8's default share: {base} (bf16's) × {mid} (the middle of the {lo}–{hi}× end-to-end gains over bf16 "
            "that torchao published for float8 training on 8–512 GPUs) ÷ {ratio} (the fp8 peak over bf16's) = {pct} "
            "%: the casts and the layers that stay bf16 keep fp8 far from its peak; '{web_mfu}' sets it"
        ),
        "web_cnn_mfu": (
            "a CNN preset's share is the middle of what the calibration's published ResNet-50 runs reach: "
            "{t_lo}–{t_hi} % of the tensor-core peak (TF32, AMP), {f_lo}–{f_hi} % of V100's fp32 peak (others' runs "
            "at smaller batches, 50–57 %) — ±{t_pm} % and ±{f_pm} % around it; a measured '{web_pred_throughput}' "
            "sets compute, or '{web_mfu}'"
        ),
        "web_cnn_mfu_efficientnet": (
            "a CNN preset's share is the middle of what the calibration's published ResNet-50 runs reach "
            "({t_lo}–{t_hi} % of the tensor-core peak, {f_lo}–{f_hi} % of V100's fp32 peak), and EfficientNet's own "
            "published runs reach far less: {e_lo}–{e_hi} % of the tensor-core peak on V100 and A100, {g_lo}–{g_hi} % "
            "of V100's fp32 peak — {x_lo}–{x_hi}× the share used here (DeepLearningExamples' rows in validation/; its "
            "depthwise convolutions do few FLOPs a byte of memory); a measured '{web_pred_throughput}' sets compute, "
            "or '{web_mfu}'"
        ),
        "web_cnn_mfu_unchecked": (
            "a CNN preset's share is the middle of what the calibration's published ResNet-50 runs reach on Volta and "
            "Ampere GPUs, {t_lo}–{t_hi} % of the tensor-core peak (TF32, AMP) and {f_lo}–{f_hi} % of V100's fp32 peak; "
            "the calibration had no {arch} accelerator, and its ±{pm} % is not known to hold there: the published H100 "
            "ResNet-50 runs (Lambda's deeplearning-benchmark, validation/holdout_more9.csv) reached {amp} % of the "
            "tensor-core peak with AMP, {x}× the share above, {speed}× the speed of the same table's A100 with "
            "{peak_x}× its tensor peak and {hbm_x}× its memory bandwidth — a CNN's step waits on memory more than on "
            "tensor cores — and {fp32} % of the fp32 peak in FP32 (TF32 convolutions); a measured "
            "'{web_pred_throughput}' sets compute, or '{web_mfu}'"
        ),
        "web_fp32_conv_tf32": (
            "PyTorch runs an fp32 model's convolutions on the {gpu}'s TF32 tensor cores by default "
            "(torch.backends.cudnn.allow_tf32): priced here at the fp32 peak, {fp32} TFLOP/s; '{web_precision}' tf32 "
            "prices them at {tf32}"
        ),
        "web_predict_batch_default": (
            "no '{web_batch}': {b} samples per device assumed — the measured rate or step time must be at that batch "
            "(E at a larger batch is higher: more compute to hide each all-reduce)"
        ),
        "web_predict_sizes_dropped": (
            "no '{web_devices}': the default sizes, {default}, without {sizes}, over which '{web_global_batch}' {g} "
            "does not split into whole micro-batches (devices × '{web_grad_accum}' {k})"
        ),
        "web_predict_precision_default": (
            "no '{web_precision}': fp32 assumed, so the compute estimate reads the GPU's fp32 peak — mixed-precision "
            "training is '{web_precision}' amp (autocast, fp32 gradients) or bf16 (16-bit weights and gradients)"
        ),
        "web_zero_units_estimated": (
            "no preset gives the layers: the sharded units are one of {layers} layers estimated from the parameter "
            "count (N ≈ 12·L·h² with width h ≈ 128·L, as in GPT-3 and Llama), {mib} MiB of gradients each; the "
            "command line's --bucket-mb sets them"
        ),
        "web_take_predict": "E(d) from the last prediction ({n} sizes, {ends})",
        "web_take_fit": "E(d) from the last fit ({n} sizes, {ends})",
        "web_take_predict_one": "E(d) from the last prediction (one size, {ends})",  # (not "1 sizes, 8–8")
        "web_take_fit_one": "E(d) from the last fit (one size, {ends})",
        "web_take_long_predict": "E(d): the last prediction has {n} sizes, more than the {max} a plan takes",
        "web_take_long_fit": "E(d): the last fit has {n} sizes, more than the {max} a plan takes",
        "web_taken_band_predict": (
            "E(d) is the prediction's point value at each size; its band, E {lo}–{hi} at {d} devices, is not in "
            "these times and costs (the prediction's answer has it, with its notes)"
        ),
        "web_taken_band_fit": (
            "E(d) is the fit's point value at each size; its interval, E {lo}–{hi} at {d} devices, is not in "
            "these times and costs (the fit's answer has it, with its warnings)"
        ),
        "web_taken_tokens": (
            "per-device throughput {v} tokens/s: the prediction's {own} samples/s × {s} tokens a sample (its "
            "sequence length), so '{samples}' counts tokens; a blank '{unit}' plans in sequences"
        ),
        "web_taken_sequences": (
            "the prediction's samples are sequences of {s} tokens: '{samples}' counts sequences, at its {own} "
            "samples/s; for a count of tokens, '{unit}' tokens/s plans in tokens ({v} tokens/s)"
        ),
        "web_input_rate": "Input pipeline, samples/s per node (if timed)",
        "web_mfu": "MFU, for a FLOPs estimate (leave the measured throughput empty)",
        "web_fit": "Fit my runs",
        "web_fit_hint": (
            "Fit E(d) to your measured runs (one per line: devices:throughput of the whole run, or two columns pasted "
            "from a CSV or spreadsheet; repeat a size to measure the noise) and extrapolate with prediction intervals."
        ),
        "web_points": "Measured runs, devices:throughput",
        "web_gpus_per_node": "Devices per node (puts the all-reduce knee there)",
        "web_at": "Sizes to predict (default: measured, 2×, 4×)",
        "web_fit_law": "Law (auto: by leave-one-out error)",
        "web_batch_tab": "Batch & learning rate",
        "web_batch_hint": (
            "Global batch = micro-batch × accumulation steps × devices; the learning rate scaled from a reference "
            "(linear rule for SGD, square root for Adam); steps per epoch; with a noise scale, the critical batch."
        ),
        "web_micro_batch": "Micro-batch per device",
        "web_base_lr": "Reference learning rate",
        "web_base_batch": "Reference global batch",
        "web_optimizer": "Optimizer",
        "web_samples": "Samples per epoch",
        "web_plan_samples": "Samples per epoch (or what the unit counts: tokens for tokens/s)",
        "web_noise_scale": "Gradient noise scale B_noise (samples)",
        "web_memory": "Memory",
        "web_memory_hint": (
            "Per-device memory of the model states under DDP and ZeRO/FSDP stages (plus activations for "
            "transformer presets), against the GPU's memory: does it fit, and the least sharding that does."
        ),
        "web_zero": "ZeRO stage",
        "web_zero_all": "all four",
        "web_gpu": "GPU",
        "web_mem_seq_len": "Sequence length (transformer presets: activations)",
        "web_pipeline": "Pipeline bubble",
        "web_pipeline_hint": (
            "Idle share of a pipeline's step (bubble / total time) by schedule, the micro-batches in flight, "
            "and the efficiency with data parallelism stacked on it."
        ),
        "web_stages": "Pipeline stages p",
        "web_microbatches": "Micro-batches m",
        "web_schedule": "Schedule",
        "web_chunks": "Chunks per device (interleaved)",
        "web_pp_devices": "Total devices (a multiple of p)",
        "web_dp_efficiency": "Data-parallel E",
        "web_plan": "Time & cost",
        "web_plan_hint": (
            "Time to train, device-hours and cost at each cluster size; the cheapest size that meets the "
            "deadline, the fastest within the budget, and the knee where more devices stop paying. E may be a "
            "number, one per size, a law, or the curve of the last Predict or Fit answer (the button below)."
        ),
        "web_epochs": "Epochs",
        "web_price": "Price per device-hour",
        "web_price_node": "Price per node-hour (instead of the device-hour price)",
        "web_plan_gpus_per_node": "Devices per node (with the node-hour price)",
        "web_deadline": "Deadline (24h, 90m, 2d)",
        "web_budget": "Budget",
        "worked_example": "Worked example: 64 devices × 2,000 {unit} at E = 0.9",
        "or": "or",
        "solved": "solved for",
        "constant_note": (
            "E is held at {e} from two devices on (one device alone is its own reference: E = 1); "
            "real E usually falls as devices are added — "
            "give E per size, a law (--law usl|amdahl), or use `dpscale fit` / `dpscale predict`"
        ),
        "single_note": ("E at one cluster size does not carry to another; E usually falls as d grows"),
        "pipe_no_dp_e": (
            "data-parallel E = 1 assumed across the {n} replicas (perfect scaling): give --dp-efficiency, E at {n} "
            "replicas from `dpscale predict` or `dpscale fit`, for real numbers"
        ),
        "pipe_dp_e_held": (
            "--dp-efficiency {e} is held at every m of the sweep, but E depends on m: the replicas all-reduce once per "
            "m micro-batches (predict's --grad-accum m), so each m's E is its own prediction"
        ),
        "pipe_one_replica": (
            "one data-parallel replica is its own reference, so its E = 1 by definition; --dp-efficiency {e} "
            "applies from two replicas"
        ),
        "one_device_note": (
            "one device alone is its own reference, so E = 1 there by definition; E = {e} applies from two"
        ),
        "law_note": "E(d) from {law}",
        "past_peak_note": "throughput peaks at d* = √((1−σ)/κ) ≈ {d} devices: past it, more devices deliver less",
        "predict_units_note": "E relative to one device; throughput in samples/s",
        "predict_units_tokens_note": (
            "E relative to one device; throughput in tokens/s: samples/s × {s} (the sequence length)"
        ),
        "predict_tokens_note": "tokens/s: samples/s × {s} (the sequence length): {t} at {d} devices",
        "predict_precision_default": (
            "no --precision: fp32 assumed, so the compute estimate reads the GPU's fp32 peak — mixed-precision "
            "training is --precision amp (autocast, fp32 gradients) or bf16 (16-bit weights and gradients)"
        ),
        "predict_batch_default": (
            "no --batch: {b} samples per device assumed — the measured rate or step time must be at that batch "
            "(E at a larger batch is higher: more compute to hide each all-reduce)"
        ),
        "predict_sizes_dropped": (
            "no --devices: the default sizes, {default}, without {sizes}, over which --global-batch {g} does not split "
            "into whole micro-batches (devices × --grad-accum {k})"
        ),
        "wait_note": (
            "synchronisation wait: every step ends at a barrier, so it waits for the slowest of d devices — the "
            "largest of d draws of compute and synchronisation time, which grows with d"
        ),
        # the progress bar's line on a terminal, one a size: what runs and at which size ('train d=2')
        "measure_bar_train": "train",
        "measure_bar_allreduce": "all-reduce",
        "measure_bar_equivalence": "equivalence",
        "measure_title": (
            "measured: {workload}, batch {batch}/rank, {steps} steps × {repeats} repeats, {backend} on {device}, "
            "{threads} threads/rank"
        ),
        "measure_median": (
            "throughput = median of {repeats} repeats (spread = (max − min)/median); E relative to d={d0}; E min–max: "
            "the slowest repeat against the baseline's fastest, the fastest against its slowest (at d={d0}, each "
            "repeat against the median)"
        ),
        "measure_d0_again": (
            "d={d0} was in --out already: this run's d={d0} is measured against that earlier record (E {e}), the "
            "file's one baseline, as `dpscale fit` reads both as runs of one size"
        ),
        "measure_speedup_d0": (
            "speedup = d·E counts perfect scaling up to d={d0}, which was not measured against one device"
        ),
        "measure_terms": (
            "compute = the same steps under DDP no_sync; sync overhead = (step − compute)/step: DDP's gradient "
            "bucket copies (there even at d = 1) plus the all-reduce backward did not hide; "
            "overlap = share of a standalone gradient all-reduce hidden behind backward (a lower bound: the copies "
            "count as exposed)"
        ),
        "measure_launch": "launch = spawn → process group up, not part of the throughput",
        "measure_drift": (
            "replicas ended apart at {sizes} devices (checksums of the weights differ by up to {drift}): DDP did not "
            "keep them identical, so those steps were not data-parallel training and their E is not its"
        ),
        "measure_superlinear": (
            "E above {spread} at {sizes} devices (up to {emax}), more than a repeat's spread above 1: the ranks ran "
            "faster each than the baseline alone — cache effects, or a baseline slowed by other load or more threads; "
            "plan --efficiency-file does not plan on it"
        ),
        "measure_compute_grew": (
            "compute per step grew {x} from {d0} to {d} ranks ({c0} → {c1} ms, timed without communication): the "
            "ranks slow each other (shared cores, memory bandwidth, other load), and that part of E's loss is not "
            "the all-reduce"
        ),
        "measure_sharded": (
            "sharded: {stage} ({how}); its ranks cannot step apart, so only synchronised steps are timed — compute, "
            "sync overhead and overlap are not measured"
        ),
        "measure_zero1": (
            "DDP with torch's ZeroRedundancyOptimizer: DDP's all-reduce, then each rank updates its shard and "
            "broadcasts it — about 1.5× DDP's traffic, not the reduce-scatter and gather `dpscale predict --zero 1` "
            "models"
        ),
        "measure_zero2": (
            "FSDP2 fully_shard per child module, parameters kept until backward ends; compare with "
            "`dpscale predict --zero 2 --bucket-mb` one layer's gradients (its default units are DeepSpeed's buckets)"
        ),
        "measure_zero3": (
            "FSDP2 fully_shard per child module, parameters resharded after forward; compare with "
            "`dpscale predict --zero 3`"
        ),
        "eq_title": "DDP equivalence: {d} ranks × batch {b} vs one process on batch {db} ({what})",
        "eq_head": "  dtype     max |Δgrad|  max |grad|  threshold  result",
        "eq_pass": "pass",
        "eq_fail": "FAIL",
        "eq_note": (
            "threshold = {tols} × max |grad|: one step's gradients, each rank's slice of one global batch against "
            "one process on all of it; see docs/measure.md"
        ),
        "measure_no_warmup": (
            "--warmup 0: DDP's first iterations (its lazy set-up, and the bucket rebuild at the second) are inside "
            "the timed steps"
        ),
        "allreduce_title": "all-reduce, {n} ranks, {backend} on {device} (busbw = algbw × 2(n−1)/n; GB/s = 1e9 B/s)",
        "allreduce_fit": (
            "fit t = α + β·S: α = {alpha} µs, β = {beta} s/B (busbw asymptote {busbw}); worst fit error {worst}"
        ),
        "allreduce_extrapolated": (
            "the busbw asymptote {busbw} is the line's extrapolation: the best measured, {peak} at {size}, is under "
            "half of it, so no size was large enough to set it; measure larger sizes (predict --calibration reads the "
            "measured points, not the asymptote)"
        ),
        "calibration_written": "calibration written to {path}",
        "calibration_partial": (
            'partial calibration written to {path}: the run was cut short after {n} sizes ("partial": true); '
            "predict reads beyond its largest size as that size's bandwidth — measure the rest before predicting"
        ),
        "calibration_kept": "{path} keeps the calibration it held",
        "band_note": (
            "E lo–hi: where 80 % of published runs fell for model families the calibration had not seen (on sixteen "
            "sets of tables found later, 15–96 % fell inside; docs/predict.md)"
        ),
        "validate_summary": (
            "{points} points in {configs} configurations: median abs error {median}, 90th percentile {p90}, max {max}"
        ),
        "constant_baseline_note": "a constant E (the median measured E) would err by {e} median",
        "band_coverage_note": "{share} of measurements inside the predicted 80 % band",
        "interval_coverage_note": "{share} of the held-out measurements inside the fit's {pct} prediction interval",
        "baseline_only_note": "{configs} configuration(s) with only their baseline row: nothing to predict",
        "baseline_only_note_one": "1 configuration with only its baseline row: nothing to predict",
        "too_few_sizes_note": "{configs} configurations with fewer than {n} device counts: not fitted",
        "too_few_sizes_note_one": "1 configuration with fewer than {n} device counts: not fitted",
        "skip_reason_note": "{n} of them without {what}: {cfgs}",
        "skip_unknown_system": "; the catalog, which would fill it, lacks the system {names}",
        "skip_ambiguous_system": "; the catalog holds several systems of that name ({keys}): a GPU column picks one",
        "no_gpu_named": "no GPU named",
        "no_precision_given": "a blank cell",
        "skip:units_per_sample": "units per sample (the step time needs them)",
        "skip:per_device_batch": "a per-device batch (the step time needs it)",
        "skip:params_millions": "a parameter count",
        "skip:gpus_per_node": "GPUs per node",
        "skip:intra_bw_gbs": "the intra-node bandwidth",
        "skip:inter_bw_gbs": "the network bandwidth",
        "unknown_gpu_note": (
            "{n} configurations name a GPU the catalog lacks ({gpus}): the synchronisation wait takes "
            "{hbm:g} TB/s for its memory bandwidth"
        ),
        "skipped_note": (
            "skipped {configs} configurations ({rows} rows) missing what a prediction needs (units per sample or "
            "per-device batch for the step time, parameters, GPUs per node, or the bandwidth of a link they use)"
        ),
        "skipped_note_one": (
            "skipped 1 configuration ({rows} rows) missing what a prediction needs (units per sample or per-device "
            "batch for the step time, parameters, GPUs per node, or the bandwidth of a link it uses)"
        ),
        "nothing_to_check_predict": (
            "nothing to check: all {configs} configurations lack what a prediction needs (units per sample or "
            "per-device batch, parameters, GPUs per node, or the bandwidth of a link they use)"
        ),
        "nothing_to_check_fit": "nothing to check: fitting needs a configuration with 4 or more device counts",
        "nothing_to_check_baselines": (
            "nothing to check: its {configs} configurations hold only their baseline row, so there is no other size "
            "to predict"
        ),
        "unknown_precision_note": (
            "{n} configurations give a precision no format name reads ({labels}): their gradients count as fp32, "
            "4 bytes (FP32, TF32, AMP, FP16, BF16, FP8 read)"
        ),
        "unknown_precision_note_one": (
            "1 configuration gives a precision no format name reads ({labels}): its gradients count as fp32, "
            "4 bytes (FP32, TF32, AMP, FP16, BF16, FP8 read)"
        ),
        "unknown_gpu_note_one": (
            "1 configuration names a GPU the catalog lacks ({gpus}): the synchronisation wait takes "
            "{hbm:g} TB/s for its memory bandwidth"
        ),
        "nothing_to_check_mixed": (
            "nothing to check in {total} configurations: what a prediction needs (units per sample or per-device "
            "batch, parameters, GPUs per node, or the bandwidth of a link used) is missing in {configs}, and there "
            "is only a baseline row in {alone}"
        ),
        "nothing_to_check_predict_one": (
            "nothing to check: the one configuration lacks what a prediction needs (units per sample or "
            "per-device batch, parameters, GPUs per node, or the bandwidth of a link it uses)"
        ),
        "nothing_to_check_baselines_one": (
            "nothing to check: its one configuration holds only its baseline row, so there is no other size to predict"
        ),
        "units_in": "throughputs in {unit}",
        "h:per_device_throughput": "per device",
        "h:efficiency": "E",
        "h:ideal_throughput": "ideal",
        "h:actual_throughput": "actual",
        "h:speedup": "speedup",
        "h:lost_throughput": "lost",
        "h:effective_devices": "effective d",
        "compute_s": "compute per step (ms)",
        "allreduce_s": "gradient all-reduce (ms)",
        "exposed_comm_s": "exposed after overlap (ms)",
        "sync_wait_s": "synchronisation wait (ms)",
        "input_stall_s": "waiting for input (ms)",
        "step_s": "step time (ms)",
        "bottleneck": "bottleneck",
        "link": "all-reduce limited by",
        "algorithm": "algorithm",
        "ring": "ring",
        "tree": "tree",
        "hierarchical": "hierarchical",
        "fit_law": "fitted law: {law} (leave-one-out RMSE {score}) — chosen by {criterion}",
        "not_available": "n/a",
        "measured_sizes": "measured sizes",
        "serve_at": "dpscale: the page is at {url}  (Ctrl-C stops it)",
        "serve_open": "dpscale: note: {host} is reachable from other machines; the page has no login and no "
        "encryption: anyone who reaches it can use it (--host 127.0.0.1 keeps it to this machine)",
        "fit_runner_up": "runner-up: {law} (leave-one-out RMSE {score})",
        "fit_relative": "E relative to the smallest measured size, d0 = {d0}; uncertainty: parametric bootstrap, "
        "{n} refits, run-to-run noise σ = {noise} %{source}",
        "fit_noise_repeats": " (with {dof} degrees of freedom from repeated runs)",
        "fit_plot_title": "fit: {law} ({pct} band)",
        "fit_parameters": "parameters ({pct} interval):",
        "fit_seconds": "in seconds: compute {c}, gradient bytes ÷ bandwidth {b}, α {a}",
        "fit_measured": "measured:",
        "fit_predicted": "predicted ({pct} prediction interval for one run):",
        "fit_band": "lo–hi: the {pct} prediction interval for one run",
        "fit_peak": "throughput peaks at {d} devices {rng} (the {law} law)",
        "fit_no_peak": "throughput under the {law} law keeps rising: no peak up to {cap} devices",
        "fit_no_peak_interval": (
            "throughput under the {law} law keeps rising: no peak up to {cap} devices; yet its {pct} interval "
            "lets it peak anywhere in {rng} devices (∞: no peak)"
        ),
        "fit_devices_for": "devices for {target} {unit}:",
        "fit_unreachable": " (unreachable)",
        "fit_not_reached": " (not reached within {cap} devices; the law still rises there)",
        "fit_never_below": " (E stays at or above it up to {cap} devices)",
        "target": "target",
        "fit_min_eff": "largest size with E ≥ {e}:",
        "predict_not_reached": " (not reached within {cap} devices; the throughput still rises there)",
        "predict_whole_nodes": " (of sizes up to one node, then whole nodes)",
        "predict_split_sizes": " (of the sizes the global batch splits over)",
        "fit_of_law": " (the {law} law)",
        "h:compute_s": "compute ms",
        "h:allreduce_s": "all-reduce ms",
        "h:exposed_comm_s": "exposed ms",
        "h:sync_wait_s": "sync wait ms",
        "h:input_stall_s": "input ms",
        "h:step_s": "step ms",
        "predicted": "predicted E",
        "measured": "measured E",
        "measured_points": "measured",
        "plot_band": "{pct} band",
        "plot_band_predict": "80 % band (published runs)",
        "error": "|error|",
        "signed_error": "signed error",
        "cfg": "configuration",
        "intra-node link": "intra-node link",
        "network": "network",
        "latency": "latency",
        "none (one device)": "none (one device)",
        "synchronisation wait": "synchronisation wait",
        "input pipeline": "input pipeline",
        "throughput": "throughput",
        "h:throughput_lo": "throughput lo",
        "h:throughput_hi": "throughput hi",
        "h:efficiency_lo": "E lo",
        "h:efficiency_hi": "E hi",
        "h:efficiency_vs_baseline": "E vs d0",
        "efficiency_vs_baseline": "E against the measured baseline size d0",
        "h:per_device_batch": "batch/device",
        "per_device_batch": "micro-batch per device (the global batch / (devices × accumulation steps))",
        "h:efficiency_min": "E min",
        "h:efficiency_max": "E max",
        "h:fitted_efficiency": "fitted E",
        "h:spread": "spread",
        "h:step_ms": "step ms",
        "h:compute_ms": "compute ms",
        "h:exposed_comm": "sync overhead",
        "h:overlap": "overlap",
        "h:launch_s": "launch s",
        "h:bytes": "bytes",
        "h:time_us": "time µs",
        "h:algbw_gbs": "algbw GB/s",
        "h:busbw_gbs": "busbw GB/s",
        "h:iters": "iterations",
        # -- companion calculators (batch, pipeline, memory, plan) --
        "stage": "ZeRO stage",
        "strategy": "strategy",
        "model_state_bytes_per_device": "model states per device",
        "parameter_bytes": "parameters",
        "gradient_bytes": "gradients",
        "optimizer_bytes": "optimizer states",
        "activation_bytes_per_device": "activations per device",
        "total_bytes_per_device": "total per device",
        "device_memory_bytes": "device memory",
        "headroom_bytes": "headroom (− = short)",
        "h:stage": "ZeRO",
        "h:model_state_bytes_per_device": "model states",
        "h:activation_bytes_per_device": "activations",
        "h:total_bytes_per_device": "total",
        "h:headroom_bytes": "headroom",
        "mem_title": "Memory per device: {params} parameters, {devices} devices, {precision} precision, {optimizer}",
        "mem_title_one": "Memory per device: {params} parameters, one device, {precision} precision, {optimizer}",
        "mem_title_tp": (
            "; tensor-parallel {t}: each data-parallel replica spans {t} GPUs ({gpus} GPUs in all), the figures are "
            "per GPU"
        ),
        # (a parameter count in English: notes.params_said, the library's own; Spanish words it below)
        "mem_act_note": (
            "activations: {model}, micro-batch {b}, sequence {s}, recompute {r} (Korthikanti et al.; "
            "{bits}-bit, all layers, embeddings left out) — ZeRO does not shard them"
        ),
        "model_hf_derived": (
            "{file}: a Hugging Face config ({type}): its {n} parameters are counted from its shape ({form}), not read "
            "from a checkpoint; its sequence is max_position_embeddings, {s} tokens (--seq-len sets the one trained at)"
        ),
        # with --seq-len: the run's sequence is the one typed ({c}: the config's field, said by model_hf_field*)
        "model_hf_derived_seq": (
            "{file}: a Hugging Face config ({type}): its {n} parameters are counted from its shape ({form}), not read "
            "from a checkpoint; its sequence is --seq-len's, {s} tokens (the config's is {c})"
        ),
        "model_hf_field": "max_position_embeddings, {c}",
        "model_hf_field_rope": "rope_scaling's original_max_position_embeddings, {c}",
        "model_hf_field_phi3": "original_max_position_embeddings, {c}",
        # the form each model_type's count takes (catalog.hf.FORMS); mistral's and mixtral's are llama's
        "model_hf_form_llama": (
            "Llama's form: no biases, a SwiGLU MLP, RMSNorm, the output layer tied or not as it says"
        ),
        "model_hf_form_qwen2": (
            "Qwen2's: Llama's form with biases on q, k and v, the output layer tied or not as it says"
        ),
        "model_hf_form_gemma": (
            "Gemma's: Llama's form with heads head_dim wide, a GeGLU MLP, the output layer tied or not as it says"
        ),
        "model_hf_form_gemma2": (
            "Gemma 2's: Gemma's form with four RMSNorms a layer, the output layer tied or not as it says"
        ),
        "model_hf_form_phi3": (
            "Phi-3's: Llama's form with q, k, v fused and the MLP's gate and up fused, the output layer tied or not as "
            "it says"
        ),
        "model_hf_derived_rope": (
            "{file}: a Hugging Face config ({type}): its {n} parameters are counted from its shape ({form}), not read "
            "from a checkpoint; its sequence is rope_scaling's original_max_position_embeddings, {s} tokens, the "
            "length it was pre-trained at (max_position_embeddings, {c}, is the context its RoPE scaling extends it "
            "to; --seq-len sets another)"
        ),
        # (Phi3Config keeps the length beside rope_scaling: Phi-3.5 mini's 4,096)
        "model_hf_derived_phi3": (
            "{file}: a Hugging Face config ({type}): its {n} parameters are counted from its shape ({form}), not read "
            "from a checkpoint; its sequence is original_max_position_embeddings, {s} tokens, the length it was "
            "pre-trained at (max_position_embeddings, {c}, is the context its RoPE scaling extends it to; --seq-len "
            "sets another)"
        ),
        "mem_moe": (
            "{model} is a mixture of experts: its model states count every expert, its activations one MLP a token "
            "as a dense layer's — a token routed to k experts keeps k MLPs' (and the router's), more than this"
        ),
        "mem_no_act": "{model} is not a transformer preset: activations not counted",
        "mem_no_act_params": (
            "model states only: activations are not counted (they need a transformer --model preset's layers; "
            "--params then sets its size)"
        ),
        "mem_none_fits": "nothing fits on {where}, not even ZeRO-3: the activations alone fill it — {fix}",
        "mem_none_fits_devices": (
            "nothing fits on {where}, not even ZeRO-3: it fits from {n} data-parallel devices (ZeRO-3 shards the "
            "model states over them), {others}; or add tensor/pipeline parallelism"
        ),
        "mem_none_fits_devices_act": (
            "nothing fits on {where}, not even ZeRO-3: it fits from {n} data-parallel devices (ZeRO-3 shards the "
            "model states over them, not the activations), {others}; or {fix}"
        ),
        # ZeRO-2's and ZeRO-1's fewest devices there ({others} above), stages of one count said together
        "mem_stages_from": "{stages} from {n}",
        "mem_stages_never": "{stages} never",
        # what would shrink the activations, each said only where it is left to do (a micro-batch of 1 cannot shrink)
        "mem_fix_batch": "shrink the micro-batch",
        # the largest micro-batch that fits: the one stage asked for, or each stage's ({each}: '; '-joined groups)
        "mem_largest_batch": "the largest micro-batch with which {strategy} fits on {where}: {b}{next}",
        "mem_largest_next": " (micro-batch {n} needs {need})",
        "mem_no_batch": "no micro-batch fits {strategy} on {where}: micro-batch 1 already needs {need}",
        "mem_largest_batches": "the largest micro-batch that fits on {where}: {each}",
        "mem_largest_each": "{b} with {stages}",
        "mem_largest_none": "none with {stages}",
        "mem_batch_or_more": "{b} or more",
        "mem_fix_recompute": "recompute activations",
        "mem_fix_recompute_full": "recompute them fully (--recompute full)",
        "mem_fix_split": "add tensor/pipeline parallelism",
        "mem_least": "least-sharded strategy that fits on {where}: {strategy}",
        "mem_tight": (
            "{strategy} leaves only {room}, under 5 % of the device: nvidia-smi already shows less than the size "
            "sold (an 80 GiB H100 as 81,559 MiB) and the CUDA context and fragmentation take more — do not count "
            "on it without measuring"
        ),
        "mem_ddp_copy_tight": (
            "under torch.autocast, DDP fits only with gradient_as_bucket_view=True: PyTorch's default bucket copy "
            "({copy_a}, fp32 there) would leave {left_a}"
        ),
        "mem_short": "nothing ({x} short)",
        "mem_ddp_copy_tight_any": (
            "DDP fits only with gradient_as_bucket_view=True: PyTorch's default bucket copy ({copy}) would leave {left}"
        ),
        "mem_ddp_copy_tight_both": (
            "DDP fits only with gradient_as_bucket_view=True: PyTorch's default bucket copy ({copy}) would leave "
            "{left}, and under torch.autocast ({copy_a}, fp32 there) {left_a}"
        ),
        "mem_logits": (
            "left out too: the output layer's logits, {n} values a device (sequence × micro-batch × vocabulary{tp}) "
            "— {held} as activations, {peak} while an unfused cross-entropy runs (it keeps an fp32 log-softmax for "
            "backward{copy}); a fused or chunked loss avoids that"
        ),
        "mem_logits_tp": " ÷ {t}, split by tensor parallelism",
        "mem_logits_copy": ", and an fp32 copy of the 16-bit logits",
        "mem_act_no_dropout": (
            "{model} has no attention dropout and a {mlp} MLP: Korthikanti's constants are GPT-3's layers, whose "
            "attention keeps a dropout mask and output beside the scores (5as/h of the 34 + 5as/h per sbh), "
            "{none}; with --recompute selective (FlashAttention keeps no "
            "scores) it understates by about 10–20 %: the {mlp} MLP keeps four f-wide tensors, (2 + 8f/h)·sbh "
            "against GPT's 19sbh — leave that margin"
        ),
        # mem_act_no_dropout's {none}: the table's count without recompute against a Llama layer's (gpt_over_swiglu)
        # (each says its own 'so': '(…per sbh), so … understates' drew the understatement from GPT's extra tensors)
        "mem_act_over": "so without recompute this overstates {model}",
        "mem_act_under": (
            "yet at {s} tokens that mask and output weigh less than the {mlp} MLP's extra tensors, so without "
            "recompute this understates {model} too, by {pct}"
        ),
        "mem_fits": "{strategy} fits on {where}",
        "mem_fits_least": "{strategy} fits on {where}, the least-sharded strategy that does",
        "mem_not_fits": "{strategy} does not fit on {where}",
        "mem_stages": (
            "stage 0 = DDP; 1 shards optimizer states (≈ ZeroRedundancyOptimizer); "
            "2 also gradients (≈ FSDP SHARD_GRAD_OP); "
            "3 also parameters (≈ FSDP FULL_SHARD, ~1.5× DDP traffic; `dpscale predict --zero 3` predicts its E); "
            "CUDA context and fragmentation need a few GB more"
        ),
        "mem_ddp_buckets": (
            "stage 0 is the ZeRO paper's data parallelism: PyTorch DDP also keeps its gradient buckets, {g} more "
            "per device, unless gradient_as_bucket_view=True"
        ),
        "mem_ddp_buckets_autocast": (
            "under torch.autocast the parameters and gradients stay fp32, so those buckets take {g} (the {b} bytes "
            "a parameter are then fp32 parameters, gradients and {states}: --precision amp counts them so)"
        ),
        "mem_zero3_gathered": (
            "ZeRO-3 also holds the layer it runs whole, gathered beside its shard: {model}'s largest ({n} "
            "parameters{tp}) takes {g} of parameters and gradients, which the table's (P + G + K)Ψ/N leaves out and "
            "DeepSpeed's estimate_zero3_model_states_mem_needs adds (4 bytes × its largest layer); FSDP holds a whole "
            "wrapped unit, and prefetches the next{short}"
        ),
        "mem_zero3_gathered_tp": " ÷ {t}, split by tensor parallelism",
        "mem_zero3_gathered_short": " — more than ZeRO-3's {room} of headroom here",
        "mem_states_adam": "Adam's two moments",
        "mem_states_sgd": "SGD's momentum",
        "stages": "pipeline stages p",
        "microbatches": "micro-batches m",
        "bubble_fraction": "bubble fraction (of total time)",
        "bubble_overhead": "bubble over ideal time",
        "pipeline_efficiency": "pipeline efficiency",
        "in_flight_microbatches": "micro-batches in flight (activations held)",
        "dp_efficiency": "data-parallel E",
        "combined_efficiency": "combined E (pipeline × data-parallel)",
        "dp_replicas": "data-parallel replicas",
        "h:microbatches": "m",
        "h:bubble_fraction": "bubble/total",
        "h:bubble_overhead": "bubble/ideal",
        "h:pipeline_efficiency": "E pipeline",
        "h:in_flight_microbatches": "in flight",
        "h:dp_efficiency": "E dp",
        "h:combined_efficiency": "E combined",
        "h:dp_replicas": "replicas",
        "pipe_asked": "the m asked for",
        "pipe_title": "Pipeline: {schedule}, p = {p} stages",
        "pipe_title_chunks": "Pipeline: {schedule}, p = {p} stages, v = {v} chunks per device",
        "pipe_norm": (
            "bubble fraction = bubble / total time = r/(1 + r), with r = bubble / ideal time; "
            "in flight = micro-batches whose activations the first stage holds at once"
        ),
        "global_batch": "global batch",
        "learning_rate": "learning rate",
        "steps_per_epoch": "steps per epoch",
        "warmup_steps": "warm-up steps",
        "steps_factor": "steps vs minimum (1 + B_noise/B)",
        "samples_factor": "samples vs minimum (1 + B/B_noise)",
        "steps_to_target": "steps to target",
        "samples_to_target": "samples to target",
        "hardware_speedup": "hardware speedup d·E",
        "time_to_target_speedup": "time-to-target speedup",
        "ideal_speedup": "ideal speedup d",
        "speedup_axis": "speedup over one device (×)",  # the batch chart's axis: ideal, d·E and time-to-target
        "h:global_batch": "batch",
        "h:learning_rate": "LR",
        "h:steps_per_epoch": "steps/epoch",
        "h:warmup_steps": "warm-up",
        "h:steps_factor": "steps ×",
        "h:samples_factor": "samples ×",
        "h:steps_to_target": "steps",
        "h:samples_to_target": "samples",
        "h:hardware_speedup": "d·E",
        "h:time_to_target_speedup": "to target",
        "batch_title": "Batch: micro-batch {b} × {k} accumulation steps × {d}",
        "batch_title_one": "Batch: micro-batch {b} × 1 accumulation step × {d}",
        "batch_title_devices": "devices",  # a sweep: one row a size
        "batch_title_n_devices": "{n} devices",  # one size: its count ('× devices' read as a number left out)
        "batch_title_1_device": "1 device",
        "batch_rule_linear": (
            "linear rule (LR × B/B0; suits SGD with momentum, Goyal et al. 2017); for Adam/AdamW use "
            "--optimizer adam (square-root rule, Malladi et al. 2022)"
        ),
        "batch_rule_sqrt": (
            "square-root rule (LR × √(B/B0); suits Adam/RMSprop, Malladi et al. 2022); for SGD use "
            "--optimizer sgd (linear rule with warm-up, Goyal et al. 2017)"
        ),
        "batch_rule_linear_asked": (
            "linear rule, as --rule asks (LR × B/B0); Adam/AdamW usually takes the square-root rule (Malladi et al. "
            "2022) — the linear one suits SGD with momentum (Goyal et al. 2017)"
        ),
        "batch_rule_sqrt_asked": (
            "square-root rule, as --rule asks (LR × √(B/B0)); SGD with momentum usually takes the linear rule with "
            "warm-up (Goyal et al. 2017) — the square-root one suits Adam/RMSprop (Malladi et al. 2022)"
        ),
        "batch_warmup": "warm-up: ramp the LR linearly from the base over {w} epochs (Goyal et al.)",
        "batch_past_goyal": (
            "past a batch of {max} samples the linear rule was not shown to hold (Goyal et al.); expect to need "
            "LARS/LAMB or a lower LR"
        ),
        "batch_noise": (
            "steps × / samples ×: steps and samples to the same loss against their least (McCandlish et al. 2018), "
            "1 + B_noise/B and 1 + B/B_noise; at the critical batch B = B_noise = {n} both are 2× — below it a larger "
            "batch cuts steps for few extra samples, above it mostly adds samples"
        ),
        "batch_far_past": (
            "global batch {b} is {x}× B_noise (warning above {f}×): {s} the minimum samples for the same "
            "loss — extra devices mostly buy throughput, not progress"
        ),
        "batch_far_from_base": (
            "--base-batch {b0} and the global batch {b} differ {x}×, as a language model's sequence length does: "
            "both count samples (sequences: tokens ÷ sequence length; Llama 2's 4 M tokens of 4,096 are 1,024) — one "
            "in tokens against one in sequences moves the learning rate by that factor (its square root under the "
            "square-root rule)"
        ),
        "batch_past_dataset": (
            "one step an epoch from {d} devices on: the global batch ({b}) covers the whole dataset — check "
            "--dataset-size and the batch"
        ),
        "batch_tt": (
            "time-to-target speedup = E(d)·(1 + β)/(1 + β/d), β = B_noise / per-device batch: "
            "the speedup in wall-clock time to the same loss, at most d·E"
        ),
        "hours": "time to train",
        "days": "days",
        "device_hours": "device-hours",
        "cost": "cost",
        "marginal_speedup": "marginal speedup per added device",
        "deadline": "deadline",
        "budget": "budget",
        "knee": "knee",
        "h:hours": "time",
        "h:device_hours": "device-h",
        "h:marginal_speedup": "ΔS/Δd",
        "nodes": "nodes",
        "plan_node_price": (
            "priced per node: {p} a node-hour for {g} devices, {pd} a device-hour on a full node; a partial node is "
            "billed whole"
        ),
        "plan_node_partial": (
            "sizes that fill no whole number of {g}-device nodes, billed for the idle devices too: {sizes}"
        ),
        "plan_node_size": "{d} on {n} nodes ({idle} idle)",
        "plan_title": "Plan: time and cost per cluster size",
        "plan_under_one_sample": (
            "fewer {what} ({n} over {ep} epochs) than the {d} devices, not one a device: the count is typed whole, "
            "not in millions (1.28e6 for 1.28 million); the plan is as given"
        ),
        "plan_worked": (
            "Worked example: 1.28M {count} × 90 epochs at 2,000 {unit} per device, E = 0.9, "
            "2.5 per device-hour, deadline 24 h"
        ),
        "worked_filled": "the worked example filled in {flags}, which were not given: give them for your case",
        "plan_worked_partial": (
            "Worked example with your devices/epochs: 1.28M {count} at 2,000 {unit} per device, E = 0.9, "
            "2.5 per device-hour, deadline 24 h (give --samples and --throughput for your run)"
        ),
        "plan_no_e": "E = 1 assumed (perfect scaling): give --efficiency, --law or --fit for real numbers",
        "plan_cheapest": "cheapest size meeting the {t} deadline: {pick}",
        "plan_cheapest_tie": " (the fastest of {n} sizes that cost the same)",
        "plan_no_deadline": "no size meets the {t} deadline; the fastest is {d} devices at {h}",
        "plan_past_deadline": "the table rounds these times to the {t} deadline they miss: {sizes}",
        "plan_past_budget": "the table rounds these costs to the budget of {b} they exceed: {sizes}",
        "plan_fastest": "fastest size within the budget of {b}: {pick}",
        "plan_no_budget": "no size stays within the budget of {b}",
        "plan_knee": (
            "knee: {pick} — every device beyond it adds under {x} of a device's speedup "
            "(marginal ΔS/Δd between neighbouring sizes)"
        ),
        "plan_no_knee": (
            "no knee in this range: up to the largest size, added devices still add at least {x} of a device's speedup"
        ),
        "plan_knee_first": "(the smallest size given: the knee may lie below it)",
        "plan_slower": (
            "past the throughput's peak: {sizes} devices finish later than a smaller size given, at more "
            "device-hours (the fastest here: {d})"
        ),
        "plan_slower_dip": (
            "a dip in the throughput, not its peak: {sizes} devices finish later than a smaller size given, at more "
            "device-hours, and larger sizes are faster again (the fastest here: {d})"
        ),
        "plan_and_more": "{n} more",
        "plan_fit_below": "sizes below {d0} devices left out: the fitted E is relative to the smallest measured run",
        "plan_fit_speedup": (
            "speedup = d·E with E relative to d0 = {d0}: over one device at the {d0}-device run's rate per device "
            "({v}), not a measured single device, which may run faster"
        ),
        "plan_file_d0": (
            "the file's E is relative to {d0} devices: --throughput must be the per-device rate measured at {d0}"
        ),
        "plan_file_v": "per-device throughput {v} from --efficiency-file (--throughput sets another)",
        "plan_file_held": (
            "E above 1 at {sizes} devices in --efficiency-file (up to {emax}) is within a repeat's spread, not "
            "superlinear (measure notes an E above {spread}): planned as 1"
        ),
        "plan_file_v_tokens": (
            "per-device throughput {v} {unit} from --efficiency-file: its {own} samples/s × {s} tokens a sample "
            "(--throughput sets another)"
        ),
        "plan_file_sequences": (
            "the file's samples are sequences of {s} tokens: --samples counts sequences; for a count of tokens, "
            "--unit tokens/s plans in tokens"
        ),
        "plan_file_v_other": (
            "--throughput {v} replaces {own}, the one-device rate the file's E is relative to: a rate measured on "
            "several devices already holds their E, which the table would count twice"
        ),
        "plan_file_warning": "{file} warns: {w}",
        "stdin_name": "standard input",  # an input file given as '-' (files.STDIN_NAME), in titles and errors
        "stdin_the": "standard input",  # the same after a preposition or as a subject ('la …' in Spanish)
        "plan_fit_range": (
            "at {d} devices the fit's {pct} interval of E is {lo}–{hi}: {span} — the table uses the point"
        ),
        "plan_file_range": (
            "at {d} devices the file's {pct} band of E is {lo}–{hi}: {span} — the table uses the point"
        ),
    },
    "es": {
        "devices": "dispositivos",
        "per_device_throughput": "rendimiento por dispositivo",
        "efficiency": "eficiencia de escalado E",
        "ideal_throughput": "rendimiento ideal d·v",
        "actual_throughput": "rendimiento real d·v·E",
        "speedup": "aceleración d·E",
        "lost_throughput": "perdido por sobrecoste paralelo",
        "effective_devices": "dispositivos efectivos d·E",
        "devices_exact": "dispositivos necesarios (exacto)",
        "samples/s": "muestras/s",
        "count_samples": "muestras",
        "count_other": "unidades del rendimiento en {unit}",
        "note": "nota",
        "web_title": "dpscale — escalado con paralelismo de datos",
        "web_tagline": "Si replico mi modelo en d aceleradores, ¿qué rendimiento y aceleración obtengo de verdad?",
        "web_calc": "Calculadora",
        "web_predict": "Predecir E(d)",
        "web_run": "Calcular",
        "web_result_rows": "Resultado: {n} filas",
        "web_result": "Resultado listo",
        "web_stale": "Los datos cambiaron desde este cálculo: pulse «{web_run}» para actualizarlo",
        "web_language": "Idioma",
        "web_no_answer": "dpscale: el servidor no respondió",
        "web_bad_answer": "dpscale: el servidor respondió {status} sin resultado",
        "web_calc_hint": (
            "Indique tres de d, v, E (o una ley) y A; se despeja la cuarta. d admite 64, «8,16,32» u 8..1024x2."
        ),
        "web_devices": "Dispositivos d",
        "web_throughput": "Rendimiento por dispositivo v (muestras/s, o la unidad indicada)",
        "web_plan_throughput": "Rendimiento por dispositivo v (muestras/s, o la unidad indicada)",
        "web_unit": "Unidad del rendimiento (vacío: muestras/s; tokens/s, imágenes/s …)",
        "web_efficiency": "Eficiencia de escalado E",
        "web_actual": "Rendimiento real A (muestras/s, o la unidad indicada)",
        "web_speedup": "o aceleración S sobre un dispositivo",
        "web_tabs": "Herramientas de dpscale",
        "web_chart": "eficiencia de escalado E frente a dispositivos d de {lo} a {hi} (escala logarítmica)",
        "web_chart_band": "; sombreado: de E inf a E sup",
        "web_chart_runs": "; puntos: E medida en {n} tamaños",
        "web_chart_x": "dispositivos d (escala logarítmica)",
        "web_law": "Ley de E(d)",
        "web_law_none": "E tal cual",
        "web_opt_mixed": "mixta",
        "web_recompute": "Recómputo de activaciones (con un modelo transformer)",
        "web_opt_none": "ninguno",
        "web_opt_selective": "selectivo (atención)",
        "web_opt_full": "completo (se guarda la entrada de cada capa)",
        "web_opt_0": "0 (DDP)",
        "web_sigma": "σ de la USL",
        "web_kappa": "κ de la USL",
        "web_serial": "Fracción serie de Amdahl",
        "web_predict_hint": (
            "E(d) a partir del modelo, el lote, la precisión y el clúster; un rendimiento medido por dispositivo (en "
            "uno, o en los de un nodo) fija el tiempo de cómputo (sin él, se estima a partir de los FLOPs)."
        ),
        "web_model": "Modelo predefinido",
        "web_params": "Parámetros (sustituyen a los del modelo)",
        "web_seq_len": "Longitud de secuencia (tokens; con parámetros y sin rendimiento medido)",
        "web_precision": "Precisión",
        "web_batch": "Lote por dispositivo",
        "web_global_batch": (
            "Lote global (en lugar del lote por dispositivo: fijo en todos los tamaños, escalado fuerte)"
        ),
        "web_grad_accum": "Pasos de acumulación de gradientes",
        "web_system": "Sistema",
        "web_own_gpus_per_node": "GPU por nodo (vacío: las del sistema)",
        "web_own_intra_bw": "GB/s por GPU dentro del nodo, en un sentido (vacío: los del sistema)",
        "web_own_inter_bw": "Red por nodo: GB/s, o con su unidad, 400GbE, 1600Gb/s (vacío: la del sistema)",
        "web_own_gpu": "GPU (vacío: la del sistema)",
        "web_pred_throughput": "Rendimiento medido por dispositivo (muestras/s)",
        "web_baseline_devices": "…medido en este número de dispositivos (vacío: uno)",
        "web_take": "E(d) de la última predicción o ajuste",
        "web_plan_no_e": (
            "se supone E = 1 (escalado perfecto): indique «{web_efficiency}», «{web_law}» o el botón «{web_take}» "
            "para cifras reales"
        ),
        "web_plan_worked_partial": (
            "Ejemplo resuelto con sus dispositivos/épocas: 1,28 M de {count} a 2.000 {unit} por dispositivo; E = 0,9; "
            "2,5 por hora-dispositivo; plazo 24 h (indique «{web_plan_samples}» y «{web_plan_throughput}» para su caso)"
        ),
        "web_constant_note": (
            "E se mantiene en {e} desde dos dispositivos (uno solo es su propia referencia: E = 1); en la práctica E "
            "suele caer al añadir dispositivos — indique E por tamaño en «{web_efficiency}», una ley en «{web_law}» "
            "(usl o amdahl) o use las pestañas «{web_fit}» / «{web_predict}»"
        ),
        "web_one_node_measured": (
            "cada tamaño medido cabe en un nodo de {g} dispositivos: ninguna ejecución cruzó la red, así que la E con "
            "{sizes} dispositivos, entre nodos, es una suposición de la ley — mida en dos nodos, o deje que la "
            "pestaña «{web_predict}» con un «{web_system}» modele la red"
        ),
        "web_batch_rule_linear": (
            "regla lineal (LR × B/B0; adecuada para SGD con momento, Goyal et al. 2017); para Adam/AdamW elija adam "
            "en «{web_optimizer}» (regla de la raíz cuadrada, Malladi et al. 2022)"
        ),
        "web_batch_rule_sqrt": (
            "regla de la raíz cuadrada (LR × √(B/B0); adecuada para Adam/RMSprop, Malladi et al. 2022); para SGD "
            "elija sgd en «{web_optimizer}» (regla lineal con calentamiento, Goyal et al. 2017)"
        ),
        "web_batch_far_from_base": (
            "«{web_base_batch}» {b0} y el lote global {b} difieren {x}×, como una longitud de secuencia de un modelo "
            "de lenguaje: ambos cuentan muestras (secuencias: tokens ÷ longitud de secuencia; los 4 M de tokens de "
            "Llama 2, de 4.096, son 1.024) — uno en tokens frente a otro en secuencias mueve la tasa de aprendizaje "
            "en ese factor (su raíz cuadrada con la regla de la raíz cuadrada)"
        ),
        "web_batch_past_dataset": (
            "un paso por época desde {d} dispositivos: el lote global ({b}) cubre todo el conjunto de datos — revise "
            "«{web_samples}» y el lote"
        ),
        "web_mem_no_act_params": (
            "solo estados del modelo: las activaciones no se cuentan (necesitan las capas de un transformer del "
            "catálogo en «{web_model}»; «{web_params}» da entonces su tamaño)"
        ),
        "web_mem_stages": (
            "etapa 0 = DDP; 1 reparte los estados del optimizador (≈ ZeroRedundancyOptimizer); 2 también los "
            "gradientes (≈ FSDP SHARD_GRAD_OP); 3 también los parámetros (≈ FSDP FULL_SHARD, ~1,5× el tráfico de DDP;"
            " la pestaña «{web_predict}» con «{web_zero}» 3 predice su E); el contexto CUDA y la fragmentación piden "
            "unos GB más"
        ),
        "web_mem_ddp_buckets_autocast": (
            "con torch.autocast los parámetros y los gradientes siguen en fp32, así que esos buckets ocupan {g} (los "
            "{b} bytes por parámetro son entonces parámetros, gradientes y {states} en fp32: «{web_precision}» amp "
            "los cuenta así)"
        ),
        "web_mem_act_no_dropout": (
            "{model} no tiene dropout de atención y su MLP es {mlp}: las constantes de Korthikanti son las capas de "
            "GPT-3, cuya atención guarda una máscara y una salida de dropout junto a las puntuaciones (5as/h de los "
            "34 + 5as/h por sbh), {none}; con «{web_recompute}» {web_opt_selective} "
            "(FlashAttention no guarda las puntuaciones) lo subestima en torno a un 10–20 %: el MLP {mlp} guarda "
            "cuatro tensores de ancho f, (2 + 8f/h)·sbh frente a los 19sbh de GPT — deje ese margen"
        ),
        "web_pipe_no_dp_e": (
            "se supone E = 1 para el paralelismo de datos entre las {n} réplicas (escalado perfecto): indique "
            "«{web_dp_efficiency}», la E con {n} réplicas de las pestañas «{web_predict}» o «{web_fit}», para "
            "cifras reales"
        ),
        "web_pipe_dp_e_held": (
            "«{web_dp_efficiency}» {e} se mantiene en todas las m del barrido, pero E depende de m: las réplicas "
            "hacen el all-reduce una vez cada m microlotes («{web_grad_accum}» m en la pestaña «{web_predict}»), así "
            "que la E de cada m es su propia predicción"
        ),
        "web_pipe_one_replica": (
            "una sola réplica del paralelismo de datos es su propia referencia, así que su E = 1 por definición; "
            "«{web_dp_efficiency}» {e} vale desde dos réplicas"
        ),
        "web_laws_pooled": (
            "los intervalos de predicción combinan por igual las leyes {laws}: los tamaños medidos no descartan "
            "{others} (su desajuste no se distingue del de la ley {law} dentro del ruido), así que qué ley vale más "
            "allá de ellos es parte de la incertidumbre; lo mismo vale para los intervalos del máximo y de los "
            "dispositivos necesarios; los valores centrales y los parámetros son de la ley {law}; «{web_fit_law}» "
            "{law} da los intervalos, más estrechos, de una sola ley"
        ),
        "web_fit_why_forced": "usted («{web_fit_law}» {law})",
        "web_fit_band": "inf–sup: intervalo de predicción del {pct} para una ejecución",
        "web_fit_misses": (
            "la ley {law} no pasa por la E medida con {d} dispositivos ({measured_said}; la ley: {law_said}) — su "
            "forma no sigue los datos; pruebe otra «{web_fit_law}», o mida más tamaños"
        ),
        "web_runs_fall": (
            "el rendimiento medido cae de {x1} con {d1} dispositivos a {x2} con {d2}: más allá de {d1} dispositivos "
            "estas ejecuciones no escalan, diga lo que diga la ley (la ley {law} no tiene un máximo de rendimiento "
            "que lo muestre) — revíselas, o vea «{web_fit_law}» usl"
        ),
        "web_gpu_unknown": (
            "GPU desconocida: el coste de sincronización supone {hbm} TB/s de memoria (clase A100); elija una en "
            "«{web_own_gpu}»"
        ),
        "web_inter_per_nic": (
            "«{web_own_inter_bw}» es la del nodo, todas sus NIC juntas: si {bw} GB/s son los de una NIC y el nodo "
            "tiene {g} (una por GPU, como los nodos DGX y HGX), la del nodo es de {node} GB/s"
        ),
        "web_inter_per_nic_known": (
            "«{web_own_inter_bw}» es la del nodo, todas sus NIC juntas: si {bw} GB/s son los de una NIC, las {nics} "
            "NIC a las que llegan las GPU de la ejecución en cada nodo {system} dan {node} GB/s"
        ),
        "web_gpu_swapped": (
            "«{web_own_gpu}» {gpu} en lugar de la {own} del {system}: se usan su ancho de banda de memoria, su "
            "llenado del anillo (en toda GPU salvo Hopper y Blackwell, los buckets medianos del all-reduce van por "
            "debajo del enlace) y, en una estimación por FLOPs, su pico, con los enlaces del {system} — un sistema "
            "con esa GPU puede tener otros"
        ),
        "web_intra_table_replaced": (
            "«{web_own_intra_bw}» {typed} sustituyó las cifras por número de GPU de la malla del nodo {system} "
            "({figures} GB/s con {counts} GPU: un anillo sobre menos de sus GPU tiene menos enlaces) por una sola de "
            "{typed} GB/s para todos los números; deje «{web_own_intra_bw}» en blanco para las de la malla"
        ),
        "web_inter_share_replaced": (
            "«{web_own_inter_bw}» {typed} es la red de las {g} GPU de cada nodo, en lugar de los {own} GB/s a los que "
            "llegan de los {node} del nodo {system} ({used} de sus {nics} NIC: NCCL une cada GPU a la más cercana); "
            "deje «{web_own_inter_bw}» en blanco para esa parte"
        ),
        "web_nics_reached": (
            "con {g} de las {whole} GPU de cada nodo {system}, la ejecución llega a {used} de sus {nics} NIC (NCCL "
            "une cada GPU a la más cercana): la red es de {inter} GB/s por nodo; «{web_own_inter_bw}» la fija"
        ),
        "web_nics_unknown": (
            "con {g} de las {whole} GPU de cada nodo {system}, se cuenta toda la red del nodo, {inter} GB/s, aunque "
            "sus GPU quizá lleguen solo a algunas NIC: indique la red a la que llegan en «{web_own_inter_bw}»"
        ),
        "web_intra_bidirectional": (
            "«{web_own_intra_bw}» {typed} es el doble de los {own} del {system}: los fabricantes dan NVLink sumando "
            "los dos sentidos (H100: 900 GB/s, 450 en cada uno), y «{web_own_intra_bw}» es el de un sentido"
        ),
        "web_inter_bits_as_bytes": (
            "«{web_own_inter_bw}» {typed} es 8 veces los {own} GB/s del {system}: las redes se venden en Gb/s, y "
            "{typed} Gb/s son {own} GB/s ({flag} lo lee así); «{web_own_inter_bw}» va en bytes"
        ),
        "web_ddp_memory": (
            "DDP simple necesita {need} GB por GPU solo para los estados del modelo (Adam con estados fp32, {per} "
            "bytes por parámetro; 8 con todos en bf16: la pestaña «{web_memory}» con «{web_precision}» bf16), más que"
            " los {mem} GB{gib} de la {gpu}: repártalos — «{web_zero}» 1–3 predice ZeRO/FSDP, la pestaña "
            "«{web_memory}» con «{web_precision}» {web_opt_mp} lo dimensiona"
        ),
        "web_zero_memory": (
            "{stage} necesita {need} GB por GPU para los estados del modelo con {d} dispositivos (Adam), más que los "
            "{mem} GB{gib} de la {gpu}: con menos dispositivos necesita más; la pestaña «{web_memory}» con "
            "«{web_precision}» {web_opt_mp} lo dimensiona"
        ),
        "web_activation_memory": (
            "un lote de {b} secuencias de {s} guarda {sel} GB de activaciones por GPU aun sin las puntuaciones de "
            "atención (FlashAttention o recómputo selectivo; {act} GB con ellas; Korthikanti et al.), más que los "
            "{left} GB que dejan los estados del modelo de los {held} GB de la {gpu} con {d} dispositivos: E es la "
            "del paso tal como se da, que necesitaría recómputo completo (cerca de un tercio más de cómputo), "
            "paralelismo de tensor o de pipeline, o un lote o una secuencia menores; la pestaña «{web_memory}» con "
            "«{web_precision}» {web_opt_mp} lo dimensiona"
        ),
        "web_cpu_decode": (
            "{n} dispositivos de un nodo necesitarían {need} imágenes/s; decodificar JPEG en sus {cores} núcleos de "
            "CPU da como mucho unas {cap} ({rate} por núcleo donde las ejecuciones publicadas dejaron de escalar), y "
            "E caería por debajo de esta predicción — salvo que las imágenes se decodifiquen en la GPU (DALI); el "
            "rendimiento medido de la carga de datos va en «{web_input_rate}»"
        ),
        "web_intra_node_total": (
            "«{web_own_intra_bw}» {typed} es {k} veces los {own} del {system}: los fabricantes dan el NVLink de un "
            "nodo sumando sus {g} GPU, a menudo también los dos sentidos (DGX H100: 7,2 TB/s, 8 × 900), y "
            "«{web_own_intra_bw}» es el de una GPU, en un sentido; E se calcula con lo dado"
        ),
        "web_params_off_preset": (
            "«{web_params}» {typed} es 1/{x} de los {count} parámetros del {model}: «{web_params}» es un número de "
            "parámetros (7e9 para 7 mil millones), no millones; E se calcula con lo dado"
        ),
        "web_params_over_preset": (
            "«{web_params}» {typed} es {x}× los {count} parámetros del {model}, cuyas capas se mantienen para el "
            "nuevo número: un modelo del catálogo de ese tamaño lo describe mejor, si lo hay; si el número es un "
            "error, «{web_params}» es un número de parámetros (7e9 para 7 mil millones); E se calcula con lo dado"
        ),
        "web_input_per_gpu": (
            "«{web_input_rate}» {rate} muestras/s por nodo alimenta {feeds} de sus {g} GPU al ritmo de {v} muestras/s "
            "que cada una da por sí sola: «{web_input_rate}» es el ritmo del nodo, todos sus procesos de carga juntos; "
            "si {rate} es el de una GPU (un DataLoader medido en un proceso), el del nodo es {node}; E se calcula con "
            "lo dado"
        ),
        "web_beyond_peak": (
            "la referencia medida implica {tflops} TFLOP/s por dispositivo, más que el pico de {peak} TFLOP/s de la "
            "{gpu}: compruebe la unidad (muestras/s, no tokens/s) y «{web_seq_len}»; E se calcula con lo dado"
        ),
        "web_beyond_peak_tokens": (
            "la referencia medida implica {tflops} TFLOP/s por dispositivo, más que el pico de {peak} TFLOP/s de la "
            "{gpu}: «{web_pred_throughput}» se leyó en tokens/s por dispositivo (la unidad pedida) — compruebe que es "
            "el de un dispositivo, no el del clúster, y el modelo; E se calcula con lo dado"
        ),
        "web_fp8_mfu": (
            "fracción por defecto en fp8: {base} (la de bf16) × {mid} (el punto medio de las ganancias de {lo}–{hi}× "
            "sobre bf16 que publicó torchao para el entrenamiento float8 en 8–512 GPU) ÷ {ratio} (el pico fp8 sobre "
            "el de bf16) = {pct} %: las conversiones y las capas que siguen en bf16 alejan fp8 de su pico; "
            "«{web_mfu}» la fija"
        ),
        "web_cnn_mfu": (
            "la fracción de un modelo CNN es el punto medio de lo que alcanzan las ejecuciones publicadas de "
            "ResNet-50 de la calibración: el {t_lo}–{t_hi} % del pico de los tensor cores (TF32, AMP), el "
            "{f_lo}–{f_hi} % del pico fp32 de la V100 (ejecuciones de otros con lotes menores, 50–57 %) — ±{t_pm} % y"
            " ±{f_pm} % a su alrededor; un «{web_pred_throughput}» fija el cómputo, o «{web_mfu}»"
        ),
        "web_cnn_mfu_efficientnet": (
            "la fracción de un modelo CNN es el punto medio de lo que alcanzan las ejecuciones publicadas de "
            "ResNet-50 de la calibración (el {t_lo}–{t_hi} % del pico de los tensor cores, el {f_lo}–{f_hi} % del pico "
            "fp32 de la V100), y las ejecuciones publicadas del propio EfficientNet alcanzan mucho menos: el "
            "{e_lo}–{e_hi} % del pico de los tensor cores en la V100 y la A100, el {g_lo}–{g_hi} % del pico fp32 de la "
            "V100 — {x_lo}–{x_hi}× la fracción usada aquí (las filas de DeepLearningExamples en validation/; sus "
            "convoluciones depthwise hacen pocos FLOPs por byte de memoria); un «{web_pred_throughput}» fija el "
            "cómputo, o «{web_mfu}»"
        ),
        "web_cnn_mfu_unchecked": (
            "la fracción de un modelo CNN es el punto medio de lo que alcanzan las ejecuciones publicadas de ResNet-50 "
            "de la calibración en GPU Volta y Ampere, el {t_lo}–{t_hi} % del pico de los tensor cores (TF32, AMP) y el "
            "{f_lo}–{f_hi} % del pico fp32 de la V100; la calibración no tuvo ningún acelerador {arch}, y no se sabe "
            "si su ±{pm} % vale allí: las ejecuciones publicadas de ResNet-50 en la H100 (las pruebas de rendimiento "
            "de Lambda, validation/holdout_more9.csv) alcanzaron el {amp} % del pico de los tensor cores con AMP, {x}× "
            "la fracción de arriba, {speed}× la velocidad de la A100 de la misma tabla con {peak_x}× su pico de tensor "
            "cores y {hbm_x}× su ancho de banda de memoria — el paso de una CNN espera a la memoria más que a los "
            "tensor cores — y el {fp32} % del pico fp32 en FP32 (convoluciones TF32); un «{web_pred_throughput}» fija "
            "el cómputo, o «{web_mfu}»"
        ),
        "web_fp32_conv_tf32": (
            "PyTorch ejecuta por defecto las convoluciones de un modelo fp32 en los tensor cores TF32 de la {gpu} "
            "(torch.backends.cudnn.allow_tf32): aquí se cuentan al pico fp32, {fp32} TFLOP/s; «{web_precision}» tf32 "
            "las cuenta a {tf32}"
        ),
        "web_predict_batch_default": (
            "sin «{web_batch}»: se suponen {b} muestras por dispositivo — el rendimiento o el tiempo de paso medidos "
            "deben ser con ese lote (con un lote mayor E es más alta: más cómputo para ocultar cada all-reduce)"
        ),
        "web_predict_sizes_dropped": (
            "sin «{web_devices}»: los tamaños por defecto, {default}, sin {sizes}, entre los que «{web_global_batch}» "
            "{g} no se reparte en microlotes enteros (dispositivos × «{web_grad_accum}» {k})"
        ),
        "web_predict_precision_default": (
            "sin «{web_precision}»: se supone fp32, así que la estimación del cómputo lee el pico fp32 de la GPU — el"
            " entrenamiento en precisión mixta es «{web_precision}» amp (autocast, gradientes fp32) o bf16 (pesos y "
            "gradientes de 16 bits)"
        ),
        "web_zero_units_estimated": (
            "ningún modelo predefinido da las capas: cada unidad repartida es una de las {layers} capas estimadas a "
            "partir del número de parámetros (N ≈ 12·L·h² con anchura h ≈ 128·L, como en GPT-3 y Llama), de {mib} MiB"
            " de gradientes; la fija --bucket-mb, en la línea de órdenes"
        ),
        "web_take_predict": "E(d) de la última predicción ({n} tamaños, {ends})",
        "web_take_fit": "E(d) del último ajuste ({n} tamaños, {ends})",
        "web_take_predict_one": "E(d) de la última predicción (un tamaño, {ends})",
        "web_take_fit_one": "E(d) del último ajuste (un tamaño, {ends})",
        "web_take_long_predict": "E(d): la última predicción tiene {n} tamaños, más de los {max} que toma un plan",
        "web_take_long_fit": "E(d): el último ajuste tiene {n} tamaños, más de los {max} que toma un plan",
        "web_taken_band_predict": (
            "E(d) es el valor puntual de la predicción en cada tamaño; su banda, E {lo}–{hi} con {d} dispositivos, "
            "no está en estos tiempos y costes (la respuesta de la predicción la da, con sus notas)"
        ),
        "web_taken_band_fit": (
            "E(d) es el valor puntual del ajuste en cada tamaño; su intervalo, E {lo}–{hi} con {d} dispositivos, "
            "no está en estos tiempos y costes (la respuesta del ajuste lo da, con sus avisos)"
        ),
        "web_taken_tokens": (
            "rendimiento por dispositivo {v} tokens/s: las {own} muestras/s de la predicción × {s} tokens por "
            "muestra (la longitud de secuencia), así que «{samples}» cuenta tokens; con «{unit}» vacío se planifica "
            "en secuencias"
        ),
        "web_taken_sequences": (
            "las muestras de la predicción son secuencias de {s} tokens: «{samples}» cuenta secuencias, a sus {own} "
            "muestras/s; para contar tokens, «{unit}» tokens/s planifica en tokens ({v} tokens/s)"
        ),
        "web_input_rate": "Carga de datos, muestras/s por nodo (si se midió)",
        "web_mfu": "MFU, para una estimación por FLOPs (deje vacío el rendimiento medido)",
        "web_fit": "Ajustar mis ejecuciones",
        "web_fit_hint": (
            "Ajusta E(d) a sus ejecuciones medidas (una por línea: dispositivos:rendimiento de toda la ejecución, o "
            "dos columnas pegadas de un CSV o una hoja de cálculo; repita un tamaño para medir el ruido) y extrapola "
            "con intervalos de predicción."
        ),
        "web_points": "Ejecuciones medidas, dispositivos:rendimiento",
        "web_gpus_per_node": "Dispositivos por nodo (ahí pone el codo del all-reduce)",
        "web_at": "Tamaños que predecir (por defecto: los medidos, 2×, 4×)",
        "web_fit_law": "Ley (auto: por el error dejando uno fuera)",
        "web_batch_tab": "Lote y tasa de aprendizaje",
        "web_batch_hint": (
            "Lote global = microlote × pasos de acumulación × dispositivos; la tasa de aprendizaje escalada desde "
            "una referencia (regla lineal para SGD, raíz cuadrada para Adam); pasos por época; con una escala de "
            "ruido, el lote crítico."
        ),
        "web_micro_batch": "Microlote por dispositivo",
        "web_base_lr": "Tasa de aprendizaje de referencia",
        "web_base_batch": "Lote global de referencia",
        "web_optimizer": "Optimizador",
        "web_samples": "Muestras por época",
        "web_plan_samples": "Muestras por época (o lo que cuente la unidad: tokens con tokens/s)",
        "web_noise_scale": "Escala de ruido del gradiente B_ruido (muestras)",
        "web_memory": "Memoria",
        "web_memory_hint": (
            "Memoria por dispositivo de los estados del modelo con DDP y las etapas de ZeRO/FSDP (más las "
            "activaciones de los transformers predefinidos) frente a la memoria de la GPU: si cabe, y el menor "
            "reparto con el que cabe."
        ),
        "web_zero": "Etapa de ZeRO",
        "web_zero_all": "las cuatro",
        "web_gpu": "GPU",
        "web_mem_seq_len": "Longitud de secuencia (transformers predefinidos: activaciones)",
        "web_pipeline": "Burbuja de pipeline",
        "web_pipeline_hint": (
            "Parte ociosa del paso de un pipeline (burbuja / tiempo total) según la planificación, los microlotes "
            "en vuelo y la eficiencia con paralelismo de datos encima."
        ),
        "web_stages": "Etapas de pipeline p",
        "web_microbatches": "Microlotes m",
        "web_schedule": "Planificación",
        "web_chunks": "Fragmentos por dispositivo (interleaved)",
        "web_pp_devices": "Dispositivos en total (múltiplo de p)",
        "web_dp_efficiency": "E del paralelismo de datos",
        "web_plan": "Tiempo y coste",
        "web_plan_hint": (
            "Tiempo de entrenamiento, horas-dispositivo y coste por tamaño de clúster; el tamaño más barato que "
            "cumple el plazo, el más rápido dentro del presupuesto y el codo donde más dispositivos dejan de "
            "compensar. E puede ser un número, uno por tamaño, una ley o la curva de la última respuesta de "
            "Predecir o Ajustar (el botón de abajo)."
        ),
        "web_epochs": "Épocas",
        "web_price": "Precio por hora-dispositivo",
        "web_price_node": "Precio por hora-nodo (en lugar del precio por hora-dispositivo)",
        "web_plan_gpus_per_node": "Dispositivos por nodo (con el precio por hora-nodo)",
        "web_deadline": "Plazo (24h, 90m, 2d)",
        "web_budget": "Presupuesto",
        "worked_example": "Ejemplo resuelto: 64 dispositivos × 2.000 {unit} con E = 0,9",
        "or": "o",
        "solved": "incógnita despejada",
        "constant_note": (
            "E se mantiene en {e} desde dos dispositivos (uno solo es su propia referencia: E = 1); "
            "en la práctica E suele caer al añadir "
            "dispositivos — indique E por tamaño, una ley (--law usl|amdahl) o use `dpscale fit` / "
            "`dpscale predict`"
        ),
        "single_note": ("una E de un tamaño de clúster no vale para otro; E suele caer al crecer d"),
        "pipe_no_dp_e": (
            "se supone E = 1 para el paralelismo de datos entre las {n} réplicas (escalado perfecto): indique "
            "--dp-efficiency, la E con {n} réplicas de `dpscale predict` o `dpscale fit`, para cifras reales"
        ),
        "pipe_dp_e_held": (
            "--dp-efficiency {e} se mantiene en todas las m del barrido, pero E depende de m: las réplicas hacen el "
            "all-reduce una vez cada m microlotes (--grad-accum m de predict), así que la E de cada m es su propia "
            "predicción"
        ),
        "pipe_one_replica": (
            "una sola réplica del paralelismo de datos es su propia referencia, así que su E = 1 por definición; "
            "--dp-efficiency {e} vale desde dos réplicas"
        ),
        "one_device_note": (
            "un dispositivo solo es su propia referencia, así que ahí E = 1 por definición; E = {e} vale desde dos"
        ),
        "law_note": "E(d) según {law}",
        "past_peak_note": (
            "el rendimiento alcanza su máximo en d* = √((1−σ)/κ) ≈ {d} dispositivos: pasado ese punto, más "
            "dispositivos rinden menos"
        ),
        "predict_units_note": "E relativa a un dispositivo; rendimiento en muestras/s",
        "predict_units_tokens_note": (
            "E relativa a un dispositivo; rendimiento en tokens/s: muestras/s × {s} (la longitud de secuencia)"
        ),
        "predict_tokens_note": "tokens/s: muestras/s × {s} (la longitud de secuencia): {t} con {d} dispositivos",
        "predict_precision_default": (
            "sin --precision: se supone fp32, así que la estimación del cómputo lee el pico fp32 de la GPU — el "
            "entrenamiento en precisión mixta es --precision amp (autocast, gradientes fp32) o bf16 (pesos y "
            "gradientes de 16 bits)"
        ),
        "predict_batch_default": (
            "sin --batch: se suponen {b} muestras por dispositivo — el rendimiento o el tiempo de paso medidos deben "
            "ser con ese lote (con un lote mayor E es más alta: más cómputo para ocultar cada all-reduce)"
        ),
        "predict_sizes_dropped": (
            "sin --devices: los tamaños por defecto, {default}, sin {sizes}, entre los que --global-batch {g} no se "
            "reparte en microlotes enteros (dispositivos × --grad-accum {k})"
        ),
        "wait_note": (
            "espera de sincronización: cada paso acaba en una barrera y espera al más lento de los d dispositivos "
            "— el mayor de d sorteos del tiempo de cómputo y de sincronización, que crece con d"
        ),
        "measure_bar_train": "entrenamiento",
        "measure_bar_allreduce": "all-reduce",
        "measure_bar_equivalence": "equivalencia",
        "measure_title": (
            "medido: {workload}, lote {batch}/proceso, {steps} pasos × {repeats} repeticiones, {backend} en {device}, "
            "{threads} hilos/proceso"
        ),
        "measure_median": (
            "rendimiento = mediana de {repeats} repeticiones (dispersión = (máx − mín)/mediana); E relativa a d={d0}; "
            "E mín–máx: la repetición más lenta frente a la más rápida de la referencia, la más rápida frente a su "
            "más lenta (con d={d0}, cada repetición frente a la mediana)"
        ),
        "measure_d0_again": (
            "d={d0} ya estaba en --out: la d={d0} de esta ejecución se mide contra ese registro anterior (E {e}), "
            "la única referencia del archivo, como `dpscale fit` lee ambas: ejecuciones de un mismo tamaño"
        ),
        "measure_speedup_d0": (
            "la aceleración = d·E cuenta un escalado perfecto hasta d={d0}, que no se midió frente a un dispositivo"
        ),
        "measure_terms": (
            "cómputo = los mismos pasos bajo DDP no_sync; coste de sincronización = (paso − cómputo)/paso: las "
            "copias de gradientes a los buckets de DDP (también con d = 1) más el all-reduce que el backward no "
            "ocultó; solapamiento = parte de un all-reduce de gradientes aislado oculta tras el backward (una cota "
            "inferior: las copias cuentan como expuestas)"
        ),
        "measure_launch": "arranque = spawn → grupo de procesos listo; no cuenta en el rendimiento",
        "measure_drift": (
            "las réplicas acabaron distintas con {sizes} dispositivos (las sumas de control de los pesos difieren "
            "hasta {drift}): DDP no las mantuvo idénticas, así que esos pasos no fueron entrenamiento en paralelo de "
            "datos y su E no es la de ese entrenamiento"
        ),
        "measure_superlinear": (
            "E por encima de {spread} con {sizes} dispositivos (hasta {emax}), más que la dispersión de una "
            "repetición sobre 1: cada proceso fue más rápido que la referencia sola — efectos de caché, o una "
            "referencia frenada por otra carga o más hilos; plan --efficiency-file no planifica con ella"
        ),
        "measure_compute_grew": (
            "el cómputo por paso creció {x} de {d0} a {d} procesos ({c0} → {c1} ms, medido sin comunicación): los "
            "procesos se frenan entre sí (núcleos compartidos, ancho de banda de memoria, otra carga), y esa parte de "
            "la pérdida de E no es el all-reduce"
        ),
        "measure_sharded": (
            "repartido: {stage} ({how}); sus procesos no pueden dar pasos por separado, así que solo se miden pasos "
            "sincronizados — cómputo, coste de sincronización y solapamiento no se miden"
        ),
        "measure_zero1": (
            "DDP con el ZeroRedundancyOptimizer de torch: el all-reduce de DDP, y luego cada proceso actualiza su "
            "parte y la difunde — unas 1,5 veces el tráfico de DDP, no el reduce-scatter y all-gather que modela "
            "`dpscale predict --zero 1`"
        ),
        "measure_zero2": (
            "fully_shard de FSDP2 en cada módulo hijo; parámetros guardados hasta el final del backward; compárelo "
            "con `dpscale predict --zero 2 --bucket-mb` los gradientes de una capa (sus unidades por defecto son "
            "los buckets de DeepSpeed)"
        ),
        "measure_zero3": (
            "fully_shard de FSDP2 en cada módulo hijo; parámetros repartidos de nuevo tras el forward; compárelo con "
            "`dpscale predict --zero 3`"
        ),
        "eq_title": "equivalencia DDP: {d} procesos × lote {b} frente a un proceso con lote {db} ({what})",
        "eq_head": "  dtype     máx |Δgrad|  máx |grad|     umbral  resultado",
        "eq_pass": "pasa",
        "eq_fail": "FALLA",
        "eq_note": (
            "umbral = {tols} × máx |grad|: los gradientes de un paso, el trozo de un lote global de cada proceso "
            "frente a un solo proceso con todo el lote; vea docs/measure.md"
        ),
        "measure_no_warmup": (
            "--warmup 0: las primeras iteraciones de DDP (su preparación diferida y la reconstrucción de buckets en "
            "la segunda) caen dentro de los pasos medidos"
        ),
        "allreduce_title": "all-reduce, {n} procesos, {backend} en {device} (busbw = algbw × 2(n−1)/n; GB/s = 1e9 B/s)",
        "allreduce_fit": (
            "ajuste t = α + β·S: α = {alpha} µs, β = {beta} s/B (asíntota de busbw {busbw}); peor error del "
            "ajuste {worst}"
        ),
        "allreduce_extrapolated": (
            "la asíntota de busbw {busbw} es una extrapolación de la recta: el mejor valor medido, {peak} con {size}, "
            "no llega a la mitad, así que ningún tamaño fue lo bastante grande para fijarla; mida tamaños mayores "
            "(predict --calibration lee los puntos medidos, no la asíntota)"
        ),
        "calibration_written": "calibración escrita en {path}",
        "calibration_partial": (
            'calibración parcial escrita en {path}: la ejecución se cortó tras {n} tamaños ("partial": true); '
            "predict lee más allá de su mayor tamaño el ancho de banda de ese tamaño — mida el resto antes de predecir"
        ),
        "calibration_kept": "{path} conserva la calibración que tenía",
        "band_note": (
            "E inf–sup: donde cayó el 80 % de las ejecuciones publicadas de familias de modelos que la calibración "
            "no había visto (en dieciséis conjuntos de tablas posteriores cayó dentro el 15–96 %; docs/predict.md)"
        ),
        "validate_summary": (
            "{points} puntos en {configs} configuraciones: error absoluto mediano {median}, percentil 90 {p90}, "
            "máximo {max}"
        ),
        "constant_baseline_note": "una E constante (la mediana de las E medidas) erraría en {e} de mediana",
        "band_coverage_note": "el {share} de las mediciones cae dentro de la banda del 80 % predicha",
        "interval_coverage_note": (
            "el {share} de las mediciones reservadas cae dentro del intervalo de predicción del {pct} del ajuste"
        ),
        "baseline_only_note": "{configs} configuraciones con solo su fila de referencia: nada que predecir",
        "baseline_only_note_one": "1 configuración con solo su fila de referencia: nada que predecir",
        "too_few_sizes_note": "{configs} configuraciones con menos de {n} tamaños: no se ajustaron",
        "too_few_sizes_note_one": "1 configuración con menos de {n} tamaños: no se ajustó",
        "skip_reason_note": "{n} de ellas sin {what}: {cfgs}",
        "skip_unknown_system": "; el catálogo, que lo completaría, no tiene el sistema {names}",
        "skip_ambiguous_system": (
            "; el catálogo tiene varios sistemas con ese nombre ({keys}): una columna de GPU elige uno"
        ),
        "no_gpu_named": "ninguna GPU nombrada",
        "no_precision_given": "una celda vacía",
        "skip:units_per_sample": "unidades por muestra (el tiempo de paso las necesita)",
        "skip:per_device_batch": "lote por dispositivo (el tiempo de paso lo necesita)",
        "skip:params_millions": "número de parámetros",
        "skip:gpus_per_node": "GPU por nodo",
        "skip:intra_bw_gbs": "ancho de banda dentro del nodo",
        "skip:inter_bw_gbs": "ancho de banda de red",
        "unknown_gpu_note": (
            "{n} configuraciones nombran una GPU que el catálogo no tiene ({gpus}): la espera de sincronización "
            "toma {hbm:g} TB/s como su ancho de banda de memoria"
        ),
        "skipped_note": (
            "se omiten {configs} configuraciones ({rows} filas) a las que les falta algo que la predicción necesita "
            "(unidades por muestra o lote por dispositivo para el tiempo de paso, parámetros, GPU por nodo, o el "
            "ancho de banda de un enlace que usan)"
        ),
        "skipped_note_one": (
            "se omite 1 configuración ({rows} filas) a la que le falta algo que la predicción necesita (unidades "
            "por muestra o lote por dispositivo para el tiempo de paso, parámetros, GPU por nodo, o el ancho de banda "
            "de un enlace que usa)"
        ),
        "nothing_to_check_predict": (
            "nada que comprobar: a las {configs} configuraciones les falta algo que la predicción necesita "
            "(unidades por muestra o lote por dispositivo, parámetros, GPU por nodo, o el ancho de banda de un "
            "enlace que usan)"
        ),
        "nothing_to_check_fit": "nada que comprobar: el ajuste necesita una configuración con 4 o más tamaños",
        "nothing_to_check_baselines": (
            "nada que comprobar: sus {configs} configuraciones solo tienen la fila de referencia, así que no hay otro "
            "tamaño que predecir"
        ),
        "unknown_precision_note": (
            "{n} configuraciones dan una precisión en la que no se lee ningún formato ({labels}): sus gradientes "
            "cuentan como fp32, 4 bytes (se leen FP32, TF32, AMP, FP16, BF16, FP8)"
        ),
        "unknown_precision_note_one": (
            "1 configuración da una precisión en la que no se lee ningún formato ({labels}): sus gradientes cuentan "
            "como fp32, 4 bytes (se leen FP32, TF32, AMP, FP16, BF16, FP8)"
        ),
        "unknown_gpu_note_one": (
            "1 configuración nombra una GPU que el catálogo no tiene ({gpus}): la espera de sincronización "
            "toma {hbm:g} TB/s como su ancho de banda de memoria"
        ),
        "nothing_to_check_mixed": (
            "nada que comprobar en {total} configuraciones: falta algo que la predicción necesita (unidades por "
            "muestra o lote por dispositivo, parámetros, GPU por nodo, o el ancho de banda de un enlace que usan) en "
            "{configs}, y solo hay fila de referencia en {alone}"
        ),
        "nothing_to_check_predict_one": (
            "nada que comprobar: a la única configuración le falta algo que la predicción necesita (unidades por "
            "muestra o lote por dispositivo, parámetros, GPU por nodo, o el ancho de banda de un enlace que usa)"
        ),
        "nothing_to_check_baselines_one": (
            "nada que comprobar: su única configuración solo tiene la fila de referencia, así que no hay otro tamaño "
            "que predecir"
        ),
        "units_in": "rendimientos en {unit}",
        "h:per_device_throughput": "por dispositivo",
        "h:efficiency": "E",
        "h:ideal_throughput": "ideal",
        "h:actual_throughput": "real",
        "h:speedup": "aceleración",
        "h:lost_throughput": "perdido",
        "h:effective_devices": "d efectivos",
        "compute_s": "cómputo por paso (ms)",
        "allreduce_s": "all-reduce de gradientes (ms)",
        "exposed_comm_s": "expuesto tras solapar (ms)",
        "sync_wait_s": "espera de sincronización (ms)",
        "input_stall_s": "espera de datos de entrada (ms)",
        "step_s": "tiempo de paso (ms)",
        "bottleneck": "cuello de botella",
        "link": "all-reduce limitado por",
        "algorithm": "algoritmo",
        "ring": "anillo",
        "tree": "árbol",
        "hierarchical": "jerárquico",
        "fit_law": "ley ajustada: {law} (RMSE dejando uno fuera {score}) — elegida por {criterion}",
        "not_available": "n/d",
        "measured_sizes": "tamaños medidos",
        "unknown_command": "orden desconocida {command}; se admite: {valid}",
        "cannot_write": "no se pudo escribir la salida ({why})",
        "interrupted": "interrumpido",
        "command_first": "'{command}' tras las opciones; se admite: la orden primero: dpscale {command} [OPCIONES]",
        "warning": "aviso",
        "measure_threads_from_out": (
            "{n} hilos por proceso, como los registros anteriores de este montaje en --out, para que E compare lo "
            "comparable (--threads lo cambia)"
        ),
        "measure_no_baseline": (
            "ningún registro anterior de --out tiene este montaje ({why}): E es relativa a este tamaño"
        ),
        "measure_second_baseline": (
            "--out ya tiene este montaje con {sizes} dispositivos, medidos antes que este tamaño menor: su E allí es "
            "relativa a su propio tamaño menor, no a {d} (`dpscale fit` lee sus rendimientos: no le afecta)"
        ),
        "measure_threads_over": (
            "; {d} procesos × {t} hilos superan los {c} núcleos, así que este tamaño mide la sobresuscripción — mida "
            "los tamaños en una sola ejecución (-d 1,{d}) en un archivo nuevo para una E justa"
        ),
        "plot_params": "{n} parámetros",
        "plot_per_node": "{g} GPU/nodo",
        "plot_batch": "lote {b}",
        "plot_global_batch": "lote global {b}",
        "measure_oversubscribed": (
            "el tamaño {d} supera los {cores} núcleos de CPU; los procesos comparten núcleos, así que el resultado "
            "mide la sobresuscripción, no el escalado del hardware"
        ),
        "measure_threads_oversubscribed": (
            "{d} procesos × {t} hilos (--threads) superan los {cores} núcleos de CPU; los procesos comparten "
            "núcleos, así que el resultado mide la sobresuscripción, no el escalado del hardware"
        ),
        "serve_at": "dpscale: la página está en {url}  (Ctrl-C la detiene)",
        "serve_open": "dpscale: nota: {host} es accesible desde otras máquinas; la página no tiene inicio de "
        "sesión ni cifrado: quien llegue a ella puede usarla (--host 127.0.0.1 la deja en esta máquina)",
        "fit_runner_up": "segunda mejor ley: {law} (RMSE dejando uno fuera {score})",
        "fit_relative": "E relativa al menor tamaño medido, d0 = {d0}; incertidumbre: bootstrap paramétrico, "
        "{n} reajustes, ruido entre ejecuciones σ = {noise} %{source}",
        "fit_noise_repeats": " (con {dof} grados de libertad de ejecuciones repetidas)",
        "fit_plot_title": "ajuste: {law} (banda del {pct})",
        "fit_parameters": "parámetros (intervalo del {pct}):",
        "fit_seconds": "en segundos: cómputo {c}, bytes de gradiente ÷ ancho de banda {b}, α {a}",
        "fit_measured": "medido:",
        "fit_predicted": "predicho (intervalo de predicción del {pct} para una ejecución):",
        "fit_band": "inf–sup (_lo–_hi en CSV y JSON): intervalo de predicción del {pct} para una ejecución",
        "fit_peak": "el rendimiento alcanza su máximo con {d} dispositivos {rng} (la ley {law})",
        "fit_no_peak": "el rendimiento con la ley {law} sigue creciendo: sin máximo hasta {cap} dispositivos",
        "fit_no_peak_interval": (
            "el rendimiento con la ley {law} sigue creciendo: sin máximo hasta {cap} dispositivos; pero su intervalo "
            "del {pct} admite un máximo en cualquier punto de {rng} dispositivos (∞: ninguno)"
        ),
        "fit_devices_for": "dispositivos para {target} {unit}:",
        "fit_unreachable": " (inalcanzable)",
        "fit_not_reached": " (no se alcanza con {cap} dispositivos; la ley aún crece allí)",
        "fit_never_below": " (E se mantiene igual o por encima hasta {cap} dispositivos)",
        "target": "objetivo",
        "fit_min_eff": "mayor tamaño con E ≥ {e}:",
        "predict_not_reached": " (no se alcanza con {cap} dispositivos; el rendimiento aún crece allí)",
        "predict_whole_nodes": " (entre los tamaños de hasta un nodo y, después, nodos completos)",
        "predict_split_sizes": " (entre los tamaños en los que se reparte el lote global)",
        "fit_of_law": " (la ley {law})",
        "h:compute_s": "cómputo ms",
        "h:allreduce_s": "all-reduce ms",
        "h:exposed_comm_s": "expuesto ms",
        "h:sync_wait_s": "espera ms",
        "h:input_stall_s": "entrada ms",
        "h:step_s": "paso ms",
        "predicted": "E predicha",
        "measured": "E medida",
        "measured_points": "medido",
        "plot_band": "banda del {pct}",
        "plot_band_predict": "banda del 80 % (ejecuciones publicadas)",
        "error_frame": "{name}: se recibió {got}; se admite: {allowed}",
        "whole_from_to": "un número entero de",
        "cols_missing": "falta la columna {cols}",  # a header's columns, in agreement with their number
        "cols_missing_many": "faltan las columnas {cols}",
        "cols_twice": "columna {cols} repetida",
        "cols_twice_many": "columnas {cols} repetidas",
        "see_help": "vea --help",
        "w:mixed": "mixta",
        "w:selective": "selectivo",
        "w:full": "completo",
        "w:none": "ninguno",
        "w:transfer": "transferencia",  # the fitted laws' parameters (sources/fit_laws.py)
        "w:latency": "latencia",
        "w:serial_fraction": "fracción serie",  # as calc's law_amdahl note says it
        "w:sigma": "σ",  # the USL's parameters as the notes write them (σ contention, κ coherency)
        "w:kappa": "κ",
        # what each fitted parameter is (sources/fit_laws.py's Law.what), beside its interval
        "w:gradient bytes ÷ link bandwidth, in compute times": "bytes de gradiente ÷ ancho de banda del enlace, en "
        "tiempos de cómputo",
        "w:latency per all-reduce step, in compute times": "latencia por paso del all-reduce, en tiempos de cómputo",
        "w:contention σ": "contención σ",
        "w:coherency κ": "coherencia κ",
        "w:serial fraction": "fracción serie",
        "interval_sep": "; ",  # [0; 0,042]: a decimal comma would read '[0, 0,042]' as three numbers
        "error": "|error|",
        "signed_error": "error con signo",
        "cfg": "configuración",
        "synchronisation wait": "espera de sincronización",
        "input pipeline": "carga de datos",
        "throughput": "rendimiento",
        "h:throughput_lo": "rendimiento inf",  # the pair E inf / E sup beside it uses
        "h:throughput_hi": "rendimiento sup",
        "h:efficiency_lo": "E inf",
        "h:efficiency_hi": "E sup",
        "h:efficiency_vs_baseline": "E frente a d0",
        "efficiency_vs_baseline": "E respecto al tamaño de referencia medido d0",
        "h:per_device_batch": "lote/disp.",
        "per_device_batch": "microlote por dispositivo (el lote global / (dispositivos × pasos de acumulación))",
        "h:efficiency_min": "E mín",
        "h:efficiency_max": "E máx",
        "h:fitted_efficiency": "E ajustada",
        "h:spread": "dispersión",
        "h:step_ms": "paso ms",
        "h:compute_ms": "cómputo ms",
        "h:exposed_comm": "coste de sincr.",
        "h:overlap": "solapamiento",
        "h:launch_s": "arranque s",
        "h:bytes": "bytes",
        "h:time_us": "tiempo µs",
        "h:algbw_gbs": "algbw GB/s",
        "h:busbw_gbs": "busbw GB/s",
        "h:iters": "iteraciones",
        "intra-node link": "enlace intranodo",
        "network": "red",
        "latency": "latencia",
        "none (one device)": "ninguno (un dispositivo)",
        # -- calculadoras complementarias (batch, pipeline, memory, plan) --
        "stage": "etapa ZeRO",
        "strategy": "estrategia",
        "model_state_bytes_per_device": "estados del modelo por dispositivo",
        "parameter_bytes": "parámetros",
        "gradient_bytes": "gradientes",
        "optimizer_bytes": "estados del optimizador",
        "activation_bytes_per_device": "activaciones por dispositivo",
        "total_bytes_per_device": "total por dispositivo",
        "device_memory_bytes": "memoria del dispositivo",
        "headroom_bytes": "margen (− = falta)",
        "h:stage": "ZeRO",
        "h:model_state_bytes_per_device": "estados",
        "h:activation_bytes_per_device": "activaciones",
        "h:total_bytes_per_device": "total",
        "h:headroom_bytes": "margen",
        "mem_title_one": (
            "Memoria por dispositivo: {params} parámetros, un dispositivo, precisión {precision}, {optimizer}"
        ),
        "mem_title": (
            "Memoria por dispositivo: {params} parámetros, {devices} dispositivos, precisión {precision}, {optimizer}"
        ),
        "mem_title_tp": (
            "; paralelismo de tensor de grado {t}: cada réplica del paralelismo de datos ocupa {t} GPU ({gpus} GPU "
            "en total), las cifras son por GPU"
        ),
        "mem_billion": "{x} mil millones de",  # 7 mil millones de parámetros; 100.000 parámetros
        "mem_million": "{x} millones de",
        "mem_trillion": "{x} billones de",  # el billón español: 10^12
        "mem_trillion_one": "1 billón de",
        "mem_billion_one": "mil millones de",  # not '1 mil millones'
        "mem_million_one": "1 millón de",
        "mem_act_note": (
            "activaciones: {model}, microlote {b}, secuencia {s}, recómputo: {r} (Korthikanti et al.; "
            "{bits} bits, todas las capas, sin embeddings) — ZeRO no las reparte"
        ),
        "model_hf_derived": (
            "{file}: una configuración de Hugging Face ({type}): sus {n} parámetros se cuentan a partir de su forma "
            "({form}), no se leen de un checkpoint; su secuencia es max_position_embeddings, {s} tokens (--seq-len "
            "fija la del entrenamiento)"
        ),
        "model_hf_derived_seq": (
            "{file}: una configuración de Hugging Face ({type}): sus {n} parámetros se cuentan a partir de su forma "
            "({form}), no se leen de un checkpoint; su secuencia es la de --seq-len, {s} tokens (la de la "
            "configuración es {c})"
        ),
        "model_hf_field": "max_position_embeddings, {c}",
        "model_hf_field_rope": "original_max_position_embeddings de rope_scaling, {c}",
        "model_hf_field_phi3": "original_max_position_embeddings, {c}",
        "model_hf_form_llama": (
            "la de Llama: sin sesgos, un MLP SwiGLU, RMSNorm, la capa de salida atada o no según indica"
        ),
        "model_hf_form_qwen2": (
            "la de Qwen2: la de Llama con sesgos en q, k y v, la capa de salida atada o no según indica"
        ),
        "model_hf_form_gemma": (
            "la de Gemma: la de Llama con cabezas de head_dim de ancho, un MLP GeGLU, la capa de salida atada o no "
            "según indica"
        ),
        "model_hf_form_gemma2": (
            "la de Gemma 2: la de Gemma con cuatro RMSNorm por capa, la capa de salida atada o no según indica"
        ),
        "model_hf_form_phi3": (
            "la de Phi-3: la de Llama con q, k, v fusionadas y la compuerta y la subida del MLP fusionadas, la capa "
            "de salida atada o no según indica"
        ),
        "model_hf_derived_rope": (
            "{file}: una configuración de Hugging Face ({type}): sus {n} parámetros se cuentan a partir de su forma "
            "({form}), no se leen de un checkpoint; su secuencia es original_max_position_embeddings de rope_scaling, "
            "{s} tokens, la longitud con la que se preentrenó (max_position_embeddings, {c}, es el contexto al que lo "
            "extiende su escalado RoPE; --seq-len fija otra)"
        ),
        "model_hf_derived_phi3": (
            "{file}: una configuración de Hugging Face ({type}): sus {n} parámetros se cuentan a partir de su forma "
            "({form}), no se leen de un checkpoint; su secuencia es original_max_position_embeddings, {s} tokens, la "
            "longitud con la que se preentrenó (max_position_embeddings, {c}, es el contexto al que lo extiende su "
            "escalado RoPE; --seq-len fija otra)"
        ),
        "mem_moe": (
            "{model} es una mezcla de expertos: sus estados del modelo cuentan todos los expertos, sus activaciones "
            "un MLP por token, como una capa densa — un token enviado a k expertos guarda las de k MLP (y las del "
            "router), más que esto"
        ),
        "mem_no_act": "{model} no es un transformer del catálogo: activaciones no contadas",
        "mem_no_act_params": (
            "solo estados del modelo: las activaciones no se cuentan (necesitan las capas de un transformer del "
            "catálogo en --model; --params da entonces su tamaño)"
        ),
        "mem_none_fits": "nada cabe en {where}, ni siquiera ZeRO-3: las activaciones solas lo llenan — {fix}",
        "mem_none_fits_devices": (
            "nada cabe en {where}, ni siquiera ZeRO-3: cabe a partir de {n} dispositivos con paralelismo de datos "
            "(ZeRO-3 reparte entre ellos los estados del modelo), {others}; o añada paralelismo de tensor o de "
            "pipeline"
        ),
        "mem_none_fits_devices_act": (
            "nada cabe en {where}, ni siquiera ZeRO-3: cabe a partir de {n} dispositivos con paralelismo de datos "
            "(ZeRO-3 reparte entre ellos los estados del modelo, no las activaciones), {others}; o {fix}"
        ),
        "mem_stages_from": "{stages} a partir de {n}",
        "mem_stages_never": "{stages} nunca",
        "mem_fix_batch": "reduzca el microlote",
        "mem_largest_batch": "el mayor microlote con el que {strategy} cabe en {where}: {b}{next}",
        "mem_largest_next": " (un microlote de {n} necesita {need})",
        "mem_no_batch": "ningún microlote cabe con {strategy} en {where}: uno de 1 ya necesita {need}",
        "mem_largest_batches": "el mayor microlote que cabe en {where}: {each}",
        "mem_largest_each": "{b} con {stages}",
        "mem_largest_none": "ninguno con {stages}",
        "mem_batch_or_more": "{b} o más",
        "mem_fix_recompute": "recalcule las activaciones",
        "mem_fix_recompute_full": "recalcúlelas por completo (--recompute full)",
        "mem_fix_split": "añada paralelismo de tensor o de pipeline",
        "mem_least": "estrategia menos repartida que cabe en {where}: {strategy}",
        "mem_tight": (
            "{strategy} deja solo {room}, menos del 5 % del dispositivo: nvidia-smi ya muestra menos que el tamaño "
            "vendido (una H100 de 80 GiB como 81.559 MiB) y el contexto CUDA y la fragmentación toman más — no "
            "cuente con ello sin medirlo"
        ),
        "mem_ddp_copy_tight": (
            "con torch.autocast, DDP cabe solo con gradient_as_bucket_view=True: la copia de buckets que PyTorch "
            "hace por defecto ({copy_a}, fp32 ahí) dejaría {left_a}"
        ),
        "mem_short": "sin memoria (faltarían {x})",
        "mem_ddp_copy_tight_any": (
            "DDP cabe solo con gradient_as_bucket_view=True: la copia de buckets que PyTorch hace por defecto "
            "({copy}) dejaría {left}"
        ),
        "mem_ddp_copy_tight_both": (
            "DDP cabe solo con gradient_as_bucket_view=True: la copia de buckets que PyTorch hace por defecto "
            "({copy}) dejaría {left}, y con torch.autocast ({copy_a}, fp32 ahí) {left_a}"
        ),
        "mem_logits": (
            "también quedan fuera los logits de la capa de salida, {n} valores por dispositivo (secuencia × "
            "microlote × vocabulario{tp}): {held} como activaciones, {peak} mientras corre una entropía cruzada sin "
            "fusionar (guarda un log-softmax fp32 para el backward{copy}); una pérdida fusionada o por trozos lo "
            "evita"
        ),
        "mem_logits_tp": " ÷ {t}, repartido por el paralelismo de tensor",
        "mem_logits_copy": " y una copia fp32 de los logits de 16 bits",
        "mem_act_no_dropout": (
            "{model} no tiene dropout de atención y su MLP es {mlp}: las constantes de Korthikanti son las capas "
            "de GPT-3, cuya atención guarda una máscara y una salida de dropout junto a las puntuaciones (5as/h de "
            "los 34 + 5as/h por sbh), {none}; con --recompute selective "
            "(FlashAttention no guarda las puntuaciones) lo subestima en torno a un 10–20 %: el MLP {mlp} guarda "
            "cuatro "
            "tensores de ancho f, (2 + 8f/h)·sbh frente a los 19sbh de GPT — deje ese margen"
        ),
        "mem_act_over": "así que sin recómputo esto sobrestima {model}",
        "mem_act_under": (
            "pero con {s} tokens esa máscara y esa salida pesan menos que los tensores que el MLP {mlp} añade, así "
            "que sin recómputo esto también subestima {model}, en un {pct}"
        ),
        "mem_fits": "{strategy} cabe en {where}",
        "mem_fits_least": "{strategy} cabe en {where}, y es la estrategia menos repartida que cabe",
        "mem_not_fits": "{strategy} no cabe en {where}",
        "mem_stages": (
            "etapa 0 = DDP; 1 reparte los estados del optimizador (≈ ZeroRedundancyOptimizer); "
            "2 también los gradientes (≈ FSDP SHARD_GRAD_OP); "
            "3 también los parámetros (≈ FSDP FULL_SHARD, ~1,5× el tráfico de DDP; `dpscale predict --zero 3` "
            "predice su E); el contexto CUDA y la fragmentación piden unos GB más"
        ),
        "mem_ddp_buckets": (
            "la etapa 0 es el paralelismo de datos del artículo de ZeRO: DDP de PyTorch guarda además sus buckets "
            "de gradientes, {g} más por dispositivo, salvo con gradient_as_bucket_view=True"
        ),
        "mem_ddp_buckets_autocast": (
            "con torch.autocast los parámetros y los gradientes siguen en fp32, así que esos buckets ocupan {g} "
            "(los {b} bytes por parámetro son entonces parámetros, gradientes y {states} en fp32: --precision amp "
            "los cuenta así)"
        ),
        "mem_zero3_gathered": (
            "ZeRO-3 guarda además entera la capa que ejecuta, reunida junto a su fragmento: la mayor de {model} ({n} "
            "parámetros{tp}) ocupa {g} de parámetros y gradientes, que el (P + G + K)Ψ/N de la tabla deja fuera y "
            "que estimate_zero3_model_states_mem_needs de DeepSpeed suma (4 bytes × su mayor capa); FSDP guarda una "
            "unidad envuelta entera y precarga la siguiente{short}"
        ),
        "mem_zero3_gathered_tp": " ÷ {t}, repartido por el paralelismo de tensor",
        "mem_zero3_gathered_short": " — más que los {room} de margen de ZeRO-3 aquí",
        "mem_states_adam": "los dos momentos de Adam",
        "mem_states_sgd": "el momento de SGD",
        "stages": "etapas de pipeline p",
        "microbatches": "microlotes m",
        "bubble_fraction": "fracción de burbuja (del tiempo total)",
        "bubble_overhead": "burbuja sobre tiempo ideal",
        "pipeline_efficiency": "eficiencia del pipeline",
        "in_flight_microbatches": "microlotes en vuelo (activaciones retenidas)",
        "dp_efficiency": "E del paralelismo de datos",
        "combined_efficiency": "E combinada (pipeline × datos)",
        "dp_replicas": "réplicas del paralelismo de datos",
        "h:microbatches": "m",
        "h:bubble_fraction": "burbuja/total",
        "h:bubble_overhead": "burbuja/ideal",
        "h:pipeline_efficiency": "E pipeline",
        "h:in_flight_microbatches": "en vuelo",
        "h:dp_efficiency": "E datos",
        "h:combined_efficiency": "E combinada",
        "h:dp_replicas": "réplicas",
        "pipe_asked": "el m pedido",
        "pipe_title": "Pipeline: {schedule}, p = {p} etapas",
        "pipe_title_chunks": "Pipeline: {schedule}, p = {p} etapas, v = {v} fragmentos por dispositivo",
        "pipe_norm": (
            "fracción de burbuja = burbuja / tiempo total = r/(1 + r), con r = burbuja / tiempo ideal; "
            "en vuelo = microlotes cuyas activaciones retiene a la vez la primera etapa"
        ),
        "global_batch": "lote global",
        "learning_rate": "tasa de aprendizaje",
        "steps_per_epoch": "pasos por época",
        "warmup_steps": "pasos de calentamiento",
        "steps_factor": "pasos frente al mínimo (1 + B_ruido/B)",
        "samples_factor": "muestras frente al mínimo (1 + B/B_ruido)",
        "steps_to_target": "pasos hasta el objetivo",
        "samples_to_target": "muestras hasta el objetivo",
        "hardware_speedup": "aceleración del hardware d·E",
        "time_to_target_speedup": "aceleración hasta el objetivo",
        "ideal_speedup": "aceleración ideal d",
        "speedup_axis": "aceleración sobre un dispositivo (×)",
        "h:global_batch": "lote",
        "h:learning_rate": "LR",
        "h:steps_per_epoch": "pasos/época",
        "h:warmup_steps": "calentam.",
        "h:steps_factor": "pasos ×",
        "h:samples_factor": "muestras ×",
        "h:steps_to_target": "pasos",
        "h:samples_to_target": "muestras",
        "h:hardware_speedup": "d·E",
        "h:time_to_target_speedup": "al objetivo",
        "batch_title": "Lote: microlote {b} × {k} pasos de acumulación × {d}",
        "batch_title_one": "Lote: microlote {b} × 1 paso de acumulación × {d}",
        "batch_title_devices": "dispositivos",
        "batch_title_n_devices": "{n} dispositivos",
        "batch_title_1_device": "1 dispositivo",
        "batch_rule_linear": (
            "regla lineal (LR × B/B0; adecuada para SGD con momento, Goyal et al. 2017); para Adam/AdamW use "
            "--optimizer adam (regla de la raíz cuadrada, Malladi et al. 2022)"
        ),
        "batch_rule_sqrt": (
            "regla de la raíz cuadrada (LR × √(B/B0); adecuada para Adam/RMSprop, Malladi et al. 2022); "
            "para SGD use --optimizer sgd (regla lineal con calentamiento, Goyal et al. 2017)"
        ),
        "batch_rule_linear_asked": (
            "regla lineal, como pide --rule (LR × B/B0); Adam/AdamW suele llevar la regla de la raíz cuadrada "
            "(Malladi et al. 2022) — la lineal es para SGD con momento (Goyal et al. 2017)"
        ),
        "batch_rule_sqrt_asked": (
            "regla de la raíz cuadrada, como pide --rule (LR × √(B/B0)); SGD con momento suele llevar la regla "
            "lineal con calentamiento (Goyal et al. 2017) — la de la raíz cuadrada es para Adam/RMSprop "
            "(Malladi et al. 2022)"
        ),
        "batch_warmup": "calentamiento: suba la LR linealmente desde la base durante {w} épocas (Goyal et al.)",
        "batch_past_goyal": (
            "por encima de un lote de {max} muestras no se demostró que la regla lineal funcione (Goyal et al.); "
            "probablemente necesite LARS/LAMB o una LR menor"
        ),
        "batch_noise": (
            "pasos × / muestras ×: pasos y muestras hasta la misma pérdida frente a sus mínimos (McCandlish et al. "
            "2018), 1 + B_ruido/B y 1 + B/B_ruido; en el lote crítico B = B_ruido = {n} ambos valen 2× — por debajo, "
            "un lote mayor recorta pasos con pocas muestras de más; por encima, sobre todo añade muestras"
        ),
        "batch_far_past": (
            "el lote global {b} es {x}× B_ruido (aviso por encima de {f}×): {s} las muestras mínimas para la "
            "misma pérdida — más dispositivos dan sobre todo rendimiento, no progreso"
        ),
        "batch_far_from_base": (
            "--base-batch {b0} y el lote global {b} difieren {x}×, como una longitud de secuencia de un modelo de "
            "lenguaje: ambos cuentan muestras (secuencias: tokens ÷ longitud de secuencia; los 4 M de tokens de "
            "Llama 2, de 4.096, son 1.024) — uno en tokens frente a otro en secuencias mueve la tasa de aprendizaje "
            "en ese factor (su raíz cuadrada con la regla de la raíz cuadrada)"
        ),
        "batch_past_dataset": (
            "un paso por época desde {d} dispositivos: el lote global ({b}) cubre todo el conjunto de datos — "
            "revise --dataset-size y el lote"
        ),
        "batch_tt": (
            "aceleración hasta el objetivo = E(d)·(1 + β)/(1 + β/d), β = B_ruido / lote por dispositivo: "
            "la aceleración en tiempo de reloj hasta la misma pérdida, como mucho d·E"
        ),
        "hours": "tiempo de entrenamiento",
        "days": "días",
        "device_hours": "horas-dispositivo",
        "cost": "coste",
        "marginal_speedup": "aceleración marginal por dispositivo añadido",
        "deadline": "plazo",
        "budget": "presupuesto",
        "knee": "codo",
        "h:hours": "tiempo",
        "h:device_hours": "horas-disp.",
        "h:marginal_speedup": "ΔS/Δd",
        "nodes": "nodos",
        "plan_node_price": (
            "precio por nodo: {p} la hora-nodo por {g} dispositivos, {pd} la hora-dispositivo con el nodo lleno; un "
            "nodo a medias se factura entero"
        ),
        "plan_node_partial": (
            "tamaños que no llenan un número entero de nodos de {g} dispositivos, facturados también por los "
            "dispositivos ociosos: {sizes}"
        ),
        "plan_node_size": "{d} en {n} nodos ({idle} ociosos)",
        "plan_title": "Plan: tiempo y coste por tamaño de clúster",
        "plan_under_one_sample": (
            "menos {what} ({n} en {ep} épocas) que los {d} dispositivos, ni 1 por dispositivo: el número se "
            "escribe entero, no en millones (1.28e6 para 1,28 millones); el plan se calcula con lo dado"
        ),
        "worked_filled": "el ejemplo resuelto completó {flags}, que no se dieron: délos para su caso",
        "plan_worked_partial": (
            "Ejemplo resuelto con sus dispositivos/épocas: 1,28 M de {count} a 2.000 {unit} por dispositivo; "
            "E = 0,9; 2,5 por hora-dispositivo; plazo 24 h (dé --samples y --throughput para su caso)"
        ),
        "plan_worked": (
            "Ejemplo resuelto: 1,28 M de {count} × 90 épocas a 2.000 {unit} por dispositivo; E = 0,9; "
            "2,5 por hora-dispositivo; plazo 24 h"
        ),
        "plan_no_e": "se supone E = 1 (escalado perfecto): indique --efficiency, --law o --fit para cifras reales",
        "plan_cheapest": "tamaño más barato que cumple el plazo de {t}: {pick}",
        "plan_cheapest_tie": " (el más rápido de {n} tamaños que cuestan lo mismo)",
        "plan_no_deadline": "ningún tamaño cumple el plazo de {t}; el más rápido es el de {d} dispositivos, con {h}",
        "plan_past_deadline": "la tabla redondea estos tiempos al plazo de {t}, que no cumplen: {sizes}",
        "plan_past_budget": "la tabla redondea estos costes al presupuesto de {b}, que superan: {sizes}",
        "plan_fastest": "tamaño más rápido dentro del presupuesto de {b}: {pick}",
        "plan_slower": (
            "pasado el pico de rendimiento: {sizes} dispositivos terminan más tarde que un tamaño menor dado, con "
            "más horas-dispositivo (el más rápido aquí: {d})"
        ),
        "plan_slower_dip": (
            "un bache del rendimiento, no su pico: {sizes} dispositivos terminan más tarde que un tamaño menor dado, "
            "con más horas-dispositivo, y los tamaños mayores vuelven a ser más rápidos (el más rápido aquí: {d})"
        ),
        "plan_and_more": "{n} más",
        "plan_no_budget": "ningún tamaño cabe en el presupuesto de {b}",
        "plan_knee": (
            "codo: {pick} — cada dispositivo más allá añade menos de {x} de la aceleración de un dispositivo "
            "(ΔS/Δd marginal entre tamaños vecinos)"
        ),
        "plan_no_knee": (
            "sin codo en este rango: hasta el mayor tamaño, los dispositivos añadidos aún aportan al menos {x} de "
            "la aceleración de un dispositivo"
        ),
        "plan_knee_first": "(el menor tamaño dado: el codo puede estar por debajo)",
        "plan_fit_below": (
            "tamaños por debajo de {d0} dispositivos omitidos: la E ajustada es relativa a la ejecución "
            "medida más pequeña"
        ),
        "plan_fit_speedup": (
            "aceleración = d·E con E relativa a d0 = {d0}: sobre un dispositivo al rendimiento por dispositivo de la "
            "ejecución con {d0} ({v}), no sobre la medición de un único dispositivo, que puede ir más rápido"
        ),
        "plan_file_d0": (
            "la E del archivo es relativa a {d0} dispositivos: --throughput debe ser el rendimiento por "
            "dispositivo medido con {d0}"
        ),
        "plan_file_v": "rendimiento por dispositivo {v} tomado de --efficiency-file (--throughput da otro)",
        "plan_file_held": (
            "la E por encima de 1 con {sizes} dispositivos en --efficiency-file (hasta {emax}) cabe en la dispersión "
            "de una repetición, no es superlineal (measure señala una E por encima de {spread}): se planifica como 1"
        ),
        "plan_file_v_tokens": (
            "rendimiento por dispositivo {v} {unit} tomado de --efficiency-file: sus {own} muestras/s × {s} tokens "
            "por muestra (--throughput da otro)"
        ),
        "plan_file_sequences": (
            "las muestras del archivo son secuencias de {s} tokens: --samples cuenta secuencias; para contar tokens, "
            "--unit tokens/s planifica en tokens"
        ),
        "plan_file_v_other": (
            "--throughput {v} sustituye a {own}, el rendimiento de un dispositivo al que se refiere la E del "
            "archivo: un rendimiento medido en varios dispositivos ya contiene su E, que la tabla contaría dos veces"
        ),
        "plan_file_warning": "{file} advierte: {w}",
        "stdin_name": "entrada estándar",
        "stdin_the": "la entrada estándar",
        "plan_fit_range": (
            "con {d} dispositivos el intervalo del {pct} de E del ajuste es {lo}–{hi}: {span} — la tabla usa el "
            "valor central"
        ),
        "plan_file_range": (
            "con {d} dispositivos la banda del {pct} de E del archivo es {lo}–{hi}: {span} — la tabla usa el valor "
            "central"
        ),
    },
}
