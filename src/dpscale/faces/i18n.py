"""Labels and number formats in English and Spanish (the original calculator is Spanish).

Only human output is translated; JSON and CSV keep machine keys and plain numbers.
"""

from __future__ import annotations

import math

from dpscale.notes import SINGULAR_EN, singular

LANGS = ("en", "es")

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "warning": "warning",
        "measure_threads_from_out": (
            "{n} thread(s) a rank, as the earlier records of this set-up in --out, so that E compares like with like "
            "(--threads overrides)"
        ),
        "measure_no_baseline": "no earlier record in --out has this set-up ({why}): E is relative to this size",
        "measure_threads_over": (
            "; {d} ranks × {t} threads exceed the {c} cores, so this size measures oversubscription — measure the "
            "sizes in one run (-d 1,{d}) into a new file for a fair E"
        ),
        "plot_params": "{n} parameters",
        "plot_per_node": "{g} GPUs/node",
        "plot_batch": "batch {b}",
        "measure_oversubscribed": (
            "world size {d} exceeds the {cores} CPU cores; ranks share cores, so the result measures "
            "oversubscription, not the hardware's scaling"
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
        "note": "note",
        # the web page's own words
        "web_title": "dpscale — data-parallel scaling",
        "web_tagline": "If I replicate my model on d accelerators, what throughput and speedup do I really get?",
        "web_calc": "Calculator",
        "web_predict": "Predict E(d)",
        "web_run": "Calculate",
        "web_language": "Language",
        "web_no_answer": "dpscale: no answer from the server ({why})",
        "web_bad_answer": "dpscale: the server answered {status} without a result",
        "web_calc_hint": (
            "Give three of d, v, E (or a law) and A; the fourth is solved. d takes 64, 8,16,32 or 8..1024x2."
        ),
        "web_devices": "Devices d",
        "web_throughput": "Per-device throughput v (samples/s)",
        "web_efficiency": "Scaling efficiency E",
        "web_actual": "Actual throughput A (samples/s)",
        "web_law": "E(d) law",
        "web_law_none": "E as given",
        "web_sigma": "USL σ",
        "web_kappa": "USL κ",
        "web_serial": "Amdahl serial fraction",
        "web_predict_hint": (
            "E(d) from the model, batch, precision and cluster; a measured "
            "single-device throughput sets the compute time (without one, it is estimated from FLOPs)."
        ),
        "web_model": "Model preset",
        "web_params": "or parameters",
        "web_seq_len": "Sequence length (tokens; with parameters and no measured rate)",
        "web_precision": "Precision",
        "web_batch": "Per-device batch",
        "web_grad_accum": "Gradient-accumulation steps",
        "web_system": "System",
        "web_pred_throughput": "Measured throughput on one device (samples/s)",
        "web_error": "error",
        "web_input_rate": "Input pipeline, samples/s per node (if timed)",
        "web_fit": "Fit my runs",
        "web_fit_hint": (
            "Fit E(d) to your measured runs (one per line: devices:throughput of the whole run; repeat a size to "
            "measure the noise) and extrapolate with prediction intervals."
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
            "deadline, the fastest within the budget, and the knee where more devices stop paying."
        ),
        "web_epochs": "Epochs",
        "web_price": "Price per device-hour",
        "web_deadline": "Deadline (24h, 90m, 2d)",
        "web_budget": "Budget",
        "worked_example": "Worked example: 64 devices × 2,000 samples/s at E = 0.9",
        "or": "or",
        "solved": "solved for",
        "constant_note": (
            "E is held at {e} from two devices on (one device alone is its own reference: E = 1); "
            "real E usually falls as devices are added — "
            "give E per size, a law (--law usl|amdahl), or use `dpscale fit` / `dpscale predict`"
        ),
        "single_note": ("E at one cluster size does not carry to another; E usually falls as d grows"),
        "one_device_note": (
            "one device alone is its own reference, so E = 1 there by definition; E = {e} applies from two"
        ),
        "law_note": "E(d) from {law}",
        "past_peak_note": "throughput peaks at d* = √((1−σ)/κ) ≈ {d} devices: past it, more devices deliver less",
        "predict_units_note": "E relative to one device; throughput in samples/s",
        "wait_note": (
            "synchronisation wait: every step ends at a barrier, so it lasts as long as the slowest of d devices; "
            "the expected spread of compute and synchronisation grows with d (the largest of d draws)"
        ),
        "measure_title": (
            "measured: {workload}, batch {batch}/rank, {steps} steps × {repeats} repeats, {backend} on {device}, "
            "{threads} thread(s)/rank"
        ),
        "measure_median": (
            "throughput = median of {repeats} repeats (spread = (max − min)/median); E relative to d={d0}"
        ),
        "measure_terms": (
            "compute = the same steps under DDP no_sync; sync overhead = (step − compute)/step: DDP's gradient "
            "bucket copies (there even at d = 1) plus the all-reduce backward did not hide; "
            "overlap = share of a standalone gradient all-reduce hidden behind backward (a lower bound: the copies "
            "count as exposed)"
        ),
        "measure_launch": "launch = spawn → process group up, not part of the throughput",
        "eq_title": "DDP equivalence: {d} ranks × batch {b} vs one process on batch {db} ({what})",
        "eq_head": "  dtype     max |Δgrad|  max |grad|  threshold  result",
        "eq_pass": "pass",
        "eq_fail": "FAIL",
        "eq_note": "threshold = 1e-10 (float64) or 1e-5 (float32) × max(1, max |grad|); see docs/measure.md",
        "allreduce_title": "all-reduce, {n} ranks, {backend} on {device} (busbw = algbw × 2(n−1)/n; GB/s = 1e9 B/s)",
        "allreduce_fit": (
            "fit t = α + β·S: α = {alpha} µs, β = {beta} s/B (busbw asymptote {busbw}); worst fit error {worst}"
        ),
        "calibration_written": "calibration written to {path}",
        "band_note": (
            "E lo–hi: where 80 % of published measurements fell around predictions for model families "
            "the calibration had not seen; on three sets of tables gathered later, 39–69 % fell inside "
            "(docs/predict.md)"
        ),
        "validate_summary": (
            "{points} points in {configs} configurations: median abs error {median}, 90th percentile {p90}, max {max}"
        ),
        "constant_baseline_note": "a constant E (the median measured E) would err by {e} median",
        "band_coverage_note": "{share} of measurements inside the predicted 80 % band",
        "interval_coverage_note": "{share} of the held-out measurements inside the fit's {pct} prediction interval",
        "baseline_only_note": "{configs} configuration(s) with only their baseline row: nothing to predict",
        "skipped_note": (
            "skipped {configs} configurations ({rows} rows) missing what a prediction needs (units per sample or "
            "per-device batch for the step time, parameters, GPUs per node, or the bandwidth of a link they use)"
        ),
        "nothing_to_check_predict": (
            "nothing to check: all {configs} configurations lack what a prediction needs (units per sample or "
            "per-device batch, parameters, GPUs per node, or the bandwidth of a link they use)"
        ),
        "nothing_to_check_fit": "nothing to check: fitting needs a configuration with 4 or more device counts",
        "nothing_to_check_baselines": (
            "nothing to check: its {configs} configuration(s) hold only their baseline row, so there is no other size "
            "to predict"
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
        "fit_law": "fitted law: {law} (leave-one-out RMSE {score}) — chosen by {criterion}",
        "not_available": "n/a",
        "measured_sizes": "measured sizes",
        "serve_at": "dpscale: the page is at {url}  (Ctrl-C stops it)",
        "fit_runner_up": "runner-up: {law} (leave-one-out RMSE {score})",
        "fit_relative": "E relative to the smallest measured size, d0 = {d0}; uncertainty: parametric bootstrap, "
        "{n} refits, run-to-run noise σ = {noise} %{source}",
        "fit_noise_repeats": " (with {dof} degrees of freedom from repeated runs)",
        "fit_plot_title": "fit: {law} ({pct} band)",
        "fit_parameters": "parameters ({pct} interval):",
        "fit_seconds": "in seconds: compute {c}, gradient bytes ÷ bandwidth {b}, α {a}",
        "fit_measured": "measured:",
        "fit_predicted": "predicted ({pct} prediction interval for one run):",
        "fit_peak": "throughput peaks at {d} devices {rng} (the {law} law)",
        "fit_no_peak": "the {law} law keeps rising: no peak up to 1,048,576 devices",
        "fit_devices_for": "devices for {target} {unit}:",
        "fit_unreachable": " (unreachable)",
        "fit_min_eff": "largest size with E ≥ {e}:",
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
        "mem_billion": "{x} B",
        "mem_million": "{x} M",
        "mem_trillion": "{x} T",
        "mem_act_note": (
            "activations: {model}, micro-batch {b}, sequence {s}, recompute {r} (Korthikanti et al.; "
            "{bits}-bit, all layers, embeddings left out) — ZeRO does not shard them"
        ),
        "mem_no_act": "{model} is not a transformer preset: activations not counted",
        "mem_none_fits": (
            "nothing fits on {where}, not even ZeRO-3: the activations alone fill it — shrink the micro-batch, "
            "recompute activations, or add tensor/pipeline parallelism"
        ),
        "mem_none_fits_devices": (
            "nothing fits on {where}, not even ZeRO-3: it fits from {n} data-parallel devices (ZeRO-3 shards the "
            "model states over them), or add tensor/pipeline parallelism"
        ),
        "mem_none_fits_devices_act": (
            "nothing fits on {where}, not even ZeRO-3: it fits from {n} data-parallel devices (ZeRO-3 shards the "
            "model states over them, not the activations), or with fewer activations (smaller micro-batch, "
            "recompute), or add tensor/pipeline parallelism"
        ),
        "mem_least": "least-sharded strategy that fits on {where}: {strategy}",
        "mem_tight": (
            "{strategy} leaves only {room}, under 5 % of the device: nvidia-smi already shows less than the size "
            "sold (an 80 GiB H100 as 81,559 MiB) and the CUDA context and fragmentation take more — do not count "
            "on it without measuring"
        ),
        "mem_ddp_copy_tight": (
            "DDP fits only with gradient_as_bucket_view=True: PyTorch's default bucket copy ({copy}, fp32 under "
            "torch.autocast) would leave {left}"
        ),
        "mem_act_no_dropout": (
            "{model} has no attention dropout and a SwiGLU MLP: Korthikanti's constants are GPT-3's layers, whose "
            "attention keeps a dropout mask and output beside the scores (5as/h of the 34 + 5as/h per sbh), so "
            "without recompute this overstates {model}; with --recompute selective (FlashAttention keeps no "
            "scores) the count is close"
        ),
        "mem_fits": "{strategy} fits on {where}",
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
            "under torch.autocast the parameters and gradients stay fp32, so those buckets take {g} (the 16 bytes "
            "a parameter are then fp32 parameters, gradients and Adam's two moments)"
        ),
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
        "batch_title": "Batch: micro-batch {b} × {k} accumulation steps × devices",
        "batch_title_one": "Batch: micro-batch {b} × 1 accumulation step × devices",
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
            "past {max} samples the linear rule was not shown to hold (Goyal et al.); expect to need "
            "LARS/LAMB or a lower LR"
        ),
        "batch_far_past": (
            "global batch {b} is {x}× B_noise (warning above {f}×): {s} the minimum samples for the same "
            "loss — extra devices mostly buy throughput, not progress"
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
        "device_hours": "device-hours",
        "cost": "cost",
        "marginal_speedup": "marginal speedup per added device",
        "deadline": "deadline",
        "budget": "budget",
        "knee": "knee",
        "h:hours": "time",
        "h:device_hours": "device-h",
        "h:marginal_speedup": "ΔS/Δd",
        "plan_title": "Plan: time and cost per cluster size",
        "plan_worked": (
            "Worked example: 1.28M samples × 90 epochs at 2,000 samples/s per device, E = 0.9, "
            "2.5 per device-hour, deadline 24 h"
        ),
        "plan_worked_partial": (
            "Worked example with your devices/epochs: 1.28M samples at 2,000 samples/s per device, E = 0.9, "
            "2.5 per device-hour, deadline 24 h (give --samples and --throughput for your run)"
        ),
        "plan_no_e": "E = 1 assumed (perfect scaling): give --efficiency, --law or --fit for real numbers",
        "plan_cheapest": "cheapest size meeting the {t} deadline: {pick}",
        "plan_no_deadline": "no size meets the {t} deadline; the fastest is {d} devices at {h}",
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
        "plan_fit_below": "sizes below {d0} devices left out: the fitted E is relative to the smallest measured run",
        "plan_file_d0": (
            "the file's E is relative to {d0} devices: --throughput must be the per-device rate measured at {d0}"
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
        "note": "nota",
        "web_title": "dpscale — escalado con paralelismo de datos",
        "web_tagline": "Si replico mi modelo en d aceleradores, ¿qué rendimiento y aceleración obtengo de verdad?",
        "web_calc": "Calculadora",
        "web_predict": "Predecir E(d)",
        "web_run": "Calcular",
        "web_language": "Idioma",
        "web_no_answer": "dpscale: el servidor no respondió ({why})",
        "web_bad_answer": "dpscale: el servidor respondió {status} sin resultado",
        "web_calc_hint": (
            "Indique tres de d, v, E (o una ley) y A; se despeja la cuarta. d admite 64, 8,16,32 u 8..1024x2."
        ),
        "web_devices": "Dispositivos d",
        "web_throughput": "Rendimiento por dispositivo v (muestras/s)",
        "web_efficiency": "Eficiencia de escalado E",
        "web_actual": "Rendimiento real A (muestras/s)",
        "web_law": "Ley de E(d)",
        "web_law_none": "E tal cual",
        "web_sigma": "σ de la USL",
        "web_kappa": "κ de la USL",
        "web_serial": "Fracción serie de Amdahl",
        "web_predict_hint": (
            "E(d) a partir del modelo, el lote, la precisión y el clúster; un rendimiento medido "
            "en un dispositivo fija el tiempo de cómputo (sin él, se estima a partir de los FLOPs)."
        ),
        "web_model": "Modelo predefinido",
        "web_params": "o parámetros",
        "web_seq_len": "Longitud de secuencia (tokens; con parámetros y sin rendimiento medido)",
        "web_precision": "Precisión",
        "web_batch": "Lote por dispositivo",
        "web_grad_accum": "Pasos de acumulación de gradientes",
        "web_system": "Sistema",
        "web_pred_throughput": "Rendimiento medido en un dispositivo (muestras/s)",
        "web_error": "error",
        "web_input_rate": "Carga de datos, muestras/s por nodo (si se midió)",
        "web_fit": "Ajustar mis mediciones",
        "web_fit_hint": (
            "Ajusta E(d) a sus ejecuciones medidas (una por línea: dispositivos:rendimiento de toda la ejecución; "
            "repita un tamaño para medir el ruido) y extrapola con intervalos de predicción."
        ),
        "web_points": "Ejecuciones medidas, dispositivos:rendimiento",
        "web_gpus_per_node": "Dispositivos por nodo (ahí pone el codo del all-reduce)",
        "web_at": "Tamaños que predecir (por defecto: los medidos, 2×, 4×)",
        "web_fit_law": "Ley (auto: por el error dejando uno fuera)",
        "web_batch_tab": "Lote y tasa de aprendizaje",
        "web_batch_hint": (
            "Lote global = micro-lote × pasos de acumulación × dispositivos; la tasa de aprendizaje escalada desde "
            "una referencia (regla lineal para SGD, raíz cuadrada para Adam); pasos por época; con una escala de "
            "ruido, el lote crítico."
        ),
        "web_micro_batch": "Micro-lote por dispositivo",
        "web_base_lr": "Tasa de aprendizaje de referencia",
        "web_base_batch": "Lote global de referencia",
        "web_optimizer": "Optimizador",
        "web_samples": "Muestras por época",
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
            "Parte ociosa del paso de un pipeline (burbuja / tiempo total) según la planificación, los micro-lotes "
            "en vuelo y la eficiencia con paralelismo de datos encima."
        ),
        "web_stages": "Etapas de pipeline p",
        "web_microbatches": "Micro-lotes m",
        "web_schedule": "Planificación",
        "web_chunks": "Fragmentos por dispositivo (interleaved)",
        "web_pp_devices": "Dispositivos en total (múltiplo de p)",
        "web_dp_efficiency": "E del paralelismo de datos",
        "web_plan": "Tiempo y coste",
        "web_plan_hint": (
            "Tiempo de entrenamiento, horas-dispositivo y coste por tamaño de clúster; el tamaño más barato que "
            "cumple el plazo, el más rápido dentro del presupuesto y el codo donde más dispositivos dejan de compensar."
        ),
        "web_epochs": "Épocas",
        "web_price": "Precio por hora-dispositivo",
        "web_deadline": "Plazo (24h, 90m, 2d)",
        "web_budget": "Presupuesto",
        "worked_example": "Ejemplo resuelto: 64 dispositivos × 2.000 muestras/s con E = 0,9",
        "or": "o",
        "solved": "incógnita despejada",
        "constant_note": (
            "E se mantiene en {e} desde dos dispositivos (uno solo es su propia referencia: E = 1); "
            "en la práctica E suele caer al añadir "
            "dispositivos — indique E por tamaño, una ley (--law usl|amdahl) o use `dpscale fit` / "
            "`dpscale predict`"
        ),
        "single_note": ("una E de un tamaño de clúster no vale para otro; E suele caer al crecer d"),
        "one_device_note": (
            "un dispositivo solo es su propia referencia, así que ahí E = 1 por definición; E = {e} vale desde dos"
        ),
        "law_note": "E(d) según {law}",
        "past_peak_note": (
            "el rendimiento alcanza su máximo en d* = √((1−σ)/κ) ≈ {d} dispositivos: pasado ese punto, más "
            "dispositivos rinden menos"
        ),
        "predict_units_note": "E relativa a un dispositivo; rendimiento en muestras/s",
        "wait_note": (
            "espera de sincronización: cada paso acaba en una barrera y dura lo que el más lento de los d "
            "dispositivos; la dispersión esperada del cómputo y de la sincronización crece con d (el mayor de d "
            "sorteos)"
        ),
        "measure_title": (
            "medido: {workload}, lote {batch}/proceso, {steps} pasos × {repeats} repeticiones, {backend} en {device}, "
            "{threads} hilo(s)/proceso"
        ),
        "measure_median": (
            "rendimiento = mediana de {repeats} repeticiones (dispersión = (máx − mín)/mediana); E relativa a d={d0}"
        ),
        "measure_terms": (
            "cómputo = los mismos pasos bajo DDP no_sync; coste de sincronización = (paso − cómputo)/paso: las "
            "copias de gradientes a los buckets de DDP (también con d = 1) más el all-reduce que el backward no "
            "ocultó; solapamiento = parte de un all-reduce de gradientes aislado oculta tras el backward (una cota "
            "inferior: las copias cuentan como expuestas)"
        ),
        "measure_launch": "arranque = spawn → grupo de procesos listo; no cuenta en el rendimiento",
        "eq_title": "equivalencia DDP: {d} procesos × lote {b} frente a un proceso con lote {db} ({what})",
        "eq_head": "  dtype     máx |Δgrad|  máx |grad|     umbral  resultado",
        "eq_pass": "pasa",
        "eq_fail": "FALLA",
        "eq_note": "umbral = 1e-10 (float64) o 1e-5 (float32) × máx(1, máx |grad|); vea docs/measure.md",
        "allreduce_title": "all-reduce, {n} procesos, {backend} en {device} (busbw = algbw × 2(n−1)/n; GB/s = 1e9 B/s)",
        "allreduce_fit": (
            "ajuste t = α + β·S: α = {alpha} µs, β = {beta} s/B (asíntota de busbw {busbw}); peor error del "
            "ajuste {worst}"
        ),
        "calibration_written": "calibración escrita en {path}",
        "band_note": (
            "E inf–sup: donde cayó el 80 % de las mediciones publicadas alrededor de predicciones para familias "
            "de modelos que la calibración no había visto; en tres conjuntos de tablas reunidos después, cayó dentro "
            "el 39–69 % (docs/predict.md)"
        ),
        "validate_summary": (
            "{points} puntos en {configs} configuraciones: error absoluto mediano {median}, percentil 90 {p90}, "
            "máximo {max}"
        ),
        "constant_baseline_note": "una E constante (la mediana de las E medidas) erraría en {e} de mediana",
        "band_coverage_note": "{share} de las mediciones dentro de la banda del 80 % predicha",
        "interval_coverage_note": (
            "{share} de las mediciones reservadas dentro del intervalo de predicción del {pct} del ajuste"
        ),
        "baseline_only_note": "{configs} configuración(es) con solo su fila de referencia: nada que predecir",
        "skipped_note": (
            "se omiten {configs} configuraciones ({rows} filas) a las que falta algo que la predicción necesita "
            "(unidades por muestra o lote por dispositivo para el tiempo de paso, parámetros, GPU por nodo, o el "
            "ancho de banda de un enlace que usan)"
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
        "fit_law": "ley ajustada: {law} (RMSE dejando uno fuera {score}) — elegida por {criterion}",
        "not_available": "n/d",
        "measured_sizes": "tamaños medidos",
        "unknown_command": "orden desconocida {command}; se admite: {valid}",
        "cannot_write": "no se pudo escribir la salida ({why})",
        "command_first": "'{command}' tras las opciones; se admite: la orden primero: dpscale {command} [OPCIONES]",
        "warning": "aviso",
        "measure_threads_from_out": (
            "{n} hilo(s) por rango, como los registros anteriores de este montaje en --out, para que E compare lo "
            "comparable (--threads lo cambia)"
        ),
        "measure_no_baseline": (
            "ningún registro anterior de --out tiene este montaje ({why}): E es relativa a este tamaño"
        ),
        "measure_threads_over": (
            "; {d} rangos × {t} hilos superan los {c} núcleos, así que este tamaño mide la sobresuscripción — mida "
            "los tamaños en una sola ejecución (-d 1,{d}) en un archivo nuevo para una E justa"
        ),
        "plot_params": "{n} parámetros",
        "plot_per_node": "{g} GPU/nodo",
        "plot_batch": "lote {b}",
        "measure_oversubscribed": (
            "el tamaño {d} supera los {cores} núcleos de CPU; los rangos comparten núcleos, así que el resultado mide "
            "la sobresuscripción, no el escalado del hardware"
        ),
        "serve_at": "dpscale: la página está en {url}  (Ctrl-C la detiene)",
        "fit_runner_up": "segunda: {law} (RMSE dejando uno fuera {score})",
        "fit_relative": "E relativa al menor tamaño medido, d0 = {d0}; incertidumbre: bootstrap paramétrico, "
        "{n} reajustes, ruido entre ejecuciones σ = {noise} %{source}",
        "fit_noise_repeats": " (con {dof} grados de libertad de ejecuciones repetidas)",
        "fit_plot_title": "ajuste: {law} (banda del {pct})",
        "fit_parameters": "parámetros (intervalo del {pct}):",
        "fit_seconds": "en segundos: cómputo {c}, bytes de gradiente ÷ ancho de banda {b}, α {a}",
        "fit_measured": "medido:",
        "fit_predicted": "predicho (intervalo de predicción del {pct} para una ejecución):",
        "fit_peak": "el rendimiento alcanza su máximo con {d} dispositivos {rng} (la ley {law})",
        "fit_no_peak": "la ley {law} sigue creciendo: sin máximo hasta 1.048.576 dispositivos",
        "fit_devices_for": "dispositivos para {target} {unit}:",
        "fit_unreachable": " (inalcanzable)",
        "fit_min_eff": "mayor tamaño con E ≥ {e}:",
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
        "error_frame": "{name}: se recibió {got}; se admite: {allowed}",
        "whole_from_to": "un número entero de",
        "see_help": "vea --help",
        "w:mixed": "mixta",
        "w:selective": "selectivo",
        "w:full": "completo",
        "w:none": "ninguno",
        "w:transfer": "transferencia",  # the fitted laws' parameters (sources/fit_laws.py)
        "w:latency": "latencia",
        "w:serial_fraction": "fracción_serie",
        "interval_sep": "; ",  # [0; 0,042]: a decimal comma would read '[0, 0,042]' as three numbers
        "error": "|error|",
        "signed_error": "error con signo",
        "cfg": "configuración",
        "synchronisation wait": "espera de sincronización",
        "input pipeline": "carga de datos",
        "throughput": "rendimiento",
        "h:throughput_lo": "rendimiento mín",
        "h:throughput_hi": "rendimiento máx",
        "h:efficiency_lo": "E inf",
        "h:efficiency_hi": "E sup",
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
        "mem_billion": "{x} mil millones de",  # 7 mil millones de parámetros; 100.000 parámetros
        "mem_million": "{x} millones de",
        "mem_trillion": "{x} billones de",  # el billón español: 10^12
        "mem_trillion_one": "1 billón de",
        "mem_act_note": (
            "activaciones: {model}, micro-lote {b}, secuencia {s}, recómputo: {r} (Korthikanti et al.; "
            "{bits} bits, todas las capas, sin embeddings) — ZeRO no las reparte"
        ),
        "mem_no_act": "{model} no es un transformer del catálogo: activaciones no contadas",
        "mem_none_fits": (
            "nada cabe en {where}, ni siquiera ZeRO-3: las activaciones solas lo llenan — reduzca el micro-lote, "
            "recalcule las activaciones o añada paralelismo de tensor o de pipeline"
        ),
        "mem_none_fits_devices": (
            "nada cabe en {where}, ni siquiera ZeRO-3: cabe desde {n} dispositivos de datos en paralelo (ZeRO-3 "
            "reparte entre ellos los estados del modelo), o añada paralelismo de tensor o de pipeline"
        ),
        "mem_none_fits_devices_act": (
            "nada cabe en {where}, ni siquiera ZeRO-3: cabe desde {n} dispositivos de datos en paralelo (ZeRO-3 "
            "reparte entre ellos los estados del modelo, no las activaciones), o con menos activaciones "
            "(micro-lote menor, recómputo), o añada paralelismo de tensor o de pipeline"
        ),
        "mem_least": "estrategia menos repartida que cabe en {where}: {strategy}",
        "mem_tight": (
            "{strategy} deja solo {room}, menos del 5 % del dispositivo: nvidia-smi ya muestra menos que el tamaño "
            "vendido (una H100 de 80 GiB como 81.559 MiB) y el contexto CUDA y la fragmentación toman más — no "
            "cuente con ello sin medirlo"
        ),
        "mem_ddp_copy_tight": (
            "DDP cabe solo con gradient_as_bucket_view=True: la copia de buckets que PyTorch hace por defecto "
            "({copy}, fp32 con torch.autocast) dejaría {left}"
        ),
        "mem_act_no_dropout": (
            "{model} no tiene dropout de atención y su MLP es SwiGLU: las constantes de Korthikanti son las capas "
            "de GPT-3, cuya atención guarda una máscara y una salida de dropout junto a las puntuaciones (5as/h de "
            "los 34 + 5as/h por sbh), así que sin recómputo esto sobrestima {model}; con --recompute selective "
            "(FlashAttention no guarda las puntuaciones) la cuenta se acerca"
        ),
        "mem_fits": "{strategy} cabe en {where}",
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
            "(los 16 bytes por parámetro son entonces parámetros, gradientes y los dos momentos de Adam en fp32)"
        ),
        "stages": "etapas de pipeline p",
        "microbatches": "micro-lotes m",
        "bubble_fraction": "fracción de burbuja (del tiempo total)",
        "bubble_overhead": "burbuja sobre tiempo ideal",
        "pipeline_efficiency": "eficiencia del pipeline",
        "in_flight_microbatches": "micro-lotes en vuelo (activaciones retenidas)",
        "dp_efficiency": "E de datos en paralelo",
        "combined_efficiency": "E combinada (pipeline × datos)",
        "dp_replicas": "réplicas de datos en paralelo",
        "h:microbatches": "m",
        "h:bubble_fraction": "burbuja/total",
        "h:bubble_overhead": "burbuja/ideal",
        "h:pipeline_efficiency": "E pipeline",
        "h:in_flight_microbatches": "en vuelo",
        "h:dp_efficiency": "E datos",
        "h:combined_efficiency": "E combinada",
        "h:dp_replicas": "réplicas",
        "pipe_title": "Pipeline: {schedule}, p = {p} etapas",
        "pipe_title_chunks": "Pipeline: {schedule}, p = {p} etapas, v = {v} fragmentos por dispositivo",
        "pipe_norm": (
            "fracción de burbuja = burbuja / tiempo total = r/(1 + r), con r = burbuja / tiempo ideal; "
            "en vuelo = micro-lotes cuyas activaciones retiene a la vez la primera etapa"
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
        "batch_title": "Lote: micro-lote {b} × {k} pasos de acumulación × dispositivos",
        "batch_title_one": "Lote: micro-lote {b} × 1 paso de acumulación × dispositivos",
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
            "por encima de {max} muestras no se demostró que la regla lineal funcione (Goyal et al.); "
            "probablemente necesite LARS/LAMB o una LR menor"
        ),
        "batch_far_past": (
            "el lote global {b} es {x}× B_ruido (aviso por encima de {f}×): {s} las muestras mínimas para la "
            "misma pérdida — más dispositivos dan sobre todo rendimiento, no progreso"
        ),
        "batch_past_dataset": (
            "un paso por época desde {d} dispositivos: el lote global ({b}) cubre todo el conjunto de datos — "
            "revise --dataset-size y el lote"
        ),
        "batch_tt": (
            "aceleración hasta el objetivo = E(d)·(1 + β)/(1 + β/d), β = B_ruido / lote por dispositivo: "
            "la aceleración en tiempo real hasta la misma pérdida, como mucho d·E"
        ),
        "hours": "tiempo de entrenamiento",
        "device_hours": "horas-dispositivo",
        "cost": "coste",
        "marginal_speedup": "aceleración marginal por dispositivo añadido",
        "deadline": "plazo",
        "budget": "presupuesto",
        "knee": "codo",
        "h:hours": "tiempo",
        "h:device_hours": "horas-disp.",
        "h:marginal_speedup": "ΔS/Δd",
        "plan_title": "Plan: tiempo y coste por tamaño de clúster",
        "plan_worked_partial": (
            "Ejemplo resuelto con sus dispositivos/épocas: 1,28 M muestras a 2.000 muestras/s por dispositivo, "
            "E = 0,9, 2,5 por hora-dispositivo, plazo 24 h (dé --samples y --throughput para su caso)"
        ),
        "plan_worked": (
            "Ejemplo resuelto: 1,28 M muestras × 90 épocas a 2.000 muestras/s por dispositivo, E = 0,9, "
            "2,5 por hora-dispositivo, plazo 24 h"
        ),
        "plan_no_e": "se supone E = 1 (escalado perfecto): indique --efficiency, --law o --fit para cifras reales",
        "plan_cheapest": "tamaño más barato que cumple el plazo de {t}: {pick}",
        "plan_no_deadline": "ningún tamaño cumple el plazo de {t}; el más rápido es {d} dispositivos con {h}",
        "plan_fastest": "tamaño más rápido dentro del presupuesto de {b}: {pick}",
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
        "plan_file_d0": (
            "la E del archivo es relativa a {d0} dispositivos: --throughput debe ser el rendimiento por "
            "dispositivo medido con {d0}"
        ),
    },
}


# The library's notes (dpscale.notes.EN) in the other languages, by the same keys and fields.
NOTES: dict[str, dict[str, str]] = {
    "es": {
        "superlinear": (
            "E > 1: superlineal — el clúster superó el escalado perfecto (a menudo efectos de caché, o una "
            "referencia lenta); se informa, no se rechaza"
        ),
        "rounded_up": "hacen falta exactamente {exact:,.{places}f} dispositivos; redondeado hacia arriba a {d:,}",
        "calibration_table": (
            "all-reduce dentro del nodo según la calibración medida: su tabla busbw(tamaño) ({n} tamaños)"
        ),
        "calibration_alpha_beta": "all-reduce dentro del nodo según la calibración medida: busbw {busbw:g} GB/s",
        "gpu_unknown": (
            "GPU desconocida: el coste de sincronización supone {hbm:g} TB/s de memoria (clase A100); indique --gpu"
        ),
        "ragged_nodes": (
            "{d:,} dispositivos no llenan nodos enteros de {g} GPU: se modelan como ⌈d/{g}⌉ nodos de {g} "
            "(un último nodo incompleto suele ir más lento)"
        ),
        "unchecked_arch": (
            "ninguna medición publicada en GPU {arch} ({gpu}) ha comprobado este modelo — se calibró en sistemas "
            "DGX Volta y Ampere; E inf–sup es la banda de error medida en ellos"
        ),
        "unchecked_size": (
            "más allá de {top:,} dispositivos, el mayor tamaño publicado comprobado: ahí la espera de "
            "sincronización se extrapola"
        ),
        "unchecked_params": (
            "{m:,.4g} M de parámetros: las mediciones publicadas comprobaron {lo:g}–{hi:g} M; la espera de "
            "sincronización crece con los bytes de gradiente y se extrapola, y no consta que E inf–sup se cumpla"
        ),
        "unchecked_intra": (
            "{bw:g} GB/s por dispositivo dentro del nodo: las mediciones publicadas comprobaron NVLink a "
            "{lo:g}–{hi:g} GB/s; no consta que E inf–sup se cumpla"
        ),
        "unchecked_inter": (
            "{bw:g} GB/s por nodo entre nodos: las mediciones publicadas comprobaron InfiniBand a {lo:g}–{hi:g} GB/s; "
            "no consta que E inf–sup se cumpla"
        ),
        "ddp_memory": (
            "DDP simple necesita al menos {need:,.0f} GB por GPU solo para los estados del modelo (Adam, 16 bytes "
            "por parámetro), más que los {mem:g} GB de la {gpu}: repártalos — --zero 1–3 predice ZeRO/FSDP, "
            "`dpscale memory` lo dimensiona"
        ),
        "zero_memory": (
            "{stage} necesita {need:,.0f} GB por GPU para los estados del modelo con {d:,} dispositivos (Adam), más "
            "que los {mem:g} GB de la {gpu}: con menos dispositivos necesita más; vea `dpscale memory`"
        ),
        "zero_unchecked": (
            "{stage}: gradientes con reduce-scatter durante el backward y parámetros con all-gather antes de usarse "
            "(la precarga de FSDP), en unidades de {unit:,.4g} MiB de gradientes (--bucket-mb), con costes de "
            "anillo; ninguna medición publicada lo comprobó — la espera y E inf–sup vienen de ejecuciones DDP. Las "
            "columnas de all-reduce recogen estas colectivas"
        ),
        "one_device_inferred": (
            "un dispositivo solo rendiría {v:,.6g} muestras/s (la referencia de {d0:,} dispositivos sin su all-reduce "
            "ni su espera): E y la aceleración son relativas a él"
        ),
        "cpu_decode": (
            "{n} dispositivos de un nodo necesitarían {need:,.0f} imágenes/s; decodificar JPEG en sus {cores:g} "
            "núcleos de CPU da como mucho unas {cap:,.0f} ({rate:g} por núcleo donde las ejecuciones publicadas "
            "dejaron de escalar), y E caería por debajo de esta predicción — salvo que las imágenes se decodifiquen "
            "en la GPU (DALI); la tasa medida de la carga de datos va en --input-rate"
        ),
        "beyond_peak": (
            "la referencia medida implica {tflops:,.0f} TFLOP/s por dispositivo, más que el pico de {peak:g} TFLOP/s "
            "de la {gpu}: compruebe la unidad (muestras/s, no tokens/s) y --seq-len; E se calcula con lo dado"
        ),
        "cnn_mfu": (
            "las CNN quedan lejos de esa fracción, hacia arriba o hacia abajo: ResNet-50 publicada alcanza el "
            "{t_lo:.0f}–{t_hi:.0f} % del pico de los tensor cores (TF32, AMP) y el {f_lo:.0f}–{f_hi:.0f} % del pico "
            "fp32 de la V100; un --throughput medido fija el cómputo, o --mfu"
        ),
        "compute_estimated": (
            "cómputo estimado: {tflop:,.4g} TFLOP por micro-lote al {pct:.0f} % de {peak:g} TFLOP/s ({gpu})"
        ),
        "law_per_size": "E por tamaño: {table}",
        "pipeline_unfilled": "m = {m} < p = {p}: el pipeline nunca se llena; la fórmula cerrada es optimista",
        "pipeline_interleaved": "intercalado: Megatron-LM necesita m múltiplo de p ({p})",
        "pipeline_zb_times": (
            "las cifras sin burbuja suponen forward = backward de entrada = backward de pesos (T_F = T_B = T_W)"
        ),
        "pipeline_zb2_in_flight": (
            "ZB-H2 solo no tiene burbuja con al menos 2p − 1 = {need} micro-lotes en vuelo; con m = {m} su burbuja no "
            "es cero: se da la de ZB-H1, (p − 1)/(3m) = {zb1_pct:.1f} % del tiempo ideal, que se acerca más"
        ),
        "law_usl": "USL σ = {sigma:g}, κ = {kappa:g}",
        "law_amdahl": "Amdahl, fracción serie = {s:g}",
        "runs_duplicated": (
            "{n} ejecuciones de {d:,} dispositivos, {k} de ellas un rendimiento repetido en todas sus cifras: cuentan "
            "una vez para el ruido (¿un registro pegado dos veces?)"
        ),
        "runs_repeated": (
            "{n} ejecuciones repetidas de {d:,} dispositivos (dispersión {spread:.1f} %) promediadas a {mean:.6g}"
        ),
        "runs_conflicting": (
            "{n} ejecuciones discordantes de {d:,} dispositivos (dispersión {spread:.1f} %) promediadas a {mean:.6g}"
        ),
        "extrapolating": (
            "extrapolando a {sizes} dispositivos, más de {factor:g}× el mayor tamaño medido ({top:,}): "
            "ahí la ley es una suposición — mida más cerca antes de comprar"
        ),
        "few_sizes": (
            "solo {n} tamaños medidos: nada pone a prueba la ley, y el intervalo descansa en un ruido supuesto "
            "del {noise:g} % entre ejecuciones — mida al menos 3 tamaños"
        ),
        "few_sizes_repeats": (
            "solo {n} tamaños medidos: nada pone a prueba la ley (las ejecuciones repetidas dan el ruido, "
            "{noise:.1f} %) — mida al menos 3 tamaños"
        ),
        "exact_fit": (
            "{law} tiene tantos parámetros libres como puntos por encima de la referencia: la curva pasa "
            "exactamente por ellos, así que los residuos no dicen nada del ruido y el intervalo descansa en el "
            "{noise:g} % supuesto"
        ),
        "degenerate_all": (
            "ajuste degenerado: todos los términos de pérdida son 0 (E = 1 en todos los tamaños); ayudan más "
            "tamaños o tamaños mayores"
        ),
        "degenerate_kappa": (
            "ajuste degenerado: κ es como mucho el 0,1 % del tiempo de paso en el mayor tamaño medido, "
            "indistinguible de su límite 0 — la USL es Amdahl en estos tamaños, y cualquier máximo de rendimiento "
            "depende de una κ que no muestran"
        ),
        "degenerate_sigma": "ajuste degenerado: σ en su límite 0 — toda la pérdida es coherencia κ",
        "fit_unseen": (
            "{law}: {params} es igual en todos los tamaños medidos desde d0 = {d0:,}, así que E relativa a d0 no "
            "lo ve — no se estima (n/a) y queda dentro del tiempo de cómputo; mida un dispositivo para separarlo"
        ),
        "laws_disagree": (
            "la segunda ley ({rival}) pone E con {d:,} dispositivos en {pct:.1f} %, fuera del intervalo de {law}: ahí "
            "importa más qué ley vale que el ruido, y el intervalo no lo muestra — mida más cerca de ese tamaño"
        ),
        "laws_pooled": (
            "los intervalos de predicción toman por igual de {laws}: los tamaños medidos no descartan {others} (su "
            "desajuste cabe en el ruido del de la ley {law}), así que qué ley vale más allá de ellos es parte de la "
            "incertidumbre; el valor central, los parámetros, el máximo y los dispositivos necesarios son de la ley "
            "{law}; --law {law} da el intervalo, más estrecho, de una sola ley"
        ),
        "fit_why_forced": "usted (--law {law})",
        "fit_why_default": (
            "defecto: muy pocos tamaños para una prueba dejando uno fuera de la ley all-reduce (necesita 4)"
        ),
        "fit_why_loo": "RMSE de log E dejando uno fuera (la ley all-reduce se mantiene salvo que otra reduzca su "
        "MSE a la mitad)",
        "fit_describe": "ajuste {law} ({fitted}), E relativa a d0 = {d0:,}",
        "fit_misses": (
            "la ley {law} no pasa por la E medida con {d:,} dispositivos ({measured:.3f}; la ley: {law_e:.3f}) — su "
            "forma no sigue los datos; pruebe otra --law, o mida más tamaños"
        ),
        "fit_past_domain": (
            "{name} = {value:.4g} de la ley {law} queda fuera de su rango ({bound}, como lo admite la calculadora): "
            "el rendimiento cae al añadir dispositivos — estas ejecuciones no escalan; revíselas antes de extrapolar"
        ),
        "superlinear_points": (
            "punto(s) superlineal(es) en {sizes} dispositivos (E hasta {emax:.3f}) — superaron el escalado "
            "perfecto (efectos de caché o una referencia lenta); las leyes no pueden pasar de E = 1, así que "
            "tiran del ajuste"
        ),
    },
}


def say(note: str, lang: str = "en") -> str:
    """A library note in the user's language: dpscale.notes.Note carries the key; plain strings pass as they are."""
    template = NOTES.get(lang, {}).get(getattr(note, "key", ""))
    if not template:
        return str(note)
    import string  # only when a note is translated: keeps the calculator's start-up lean

    class Localised(string.Formatter):  # numbers the language's way (55,5556 in Spanish)
        def format_field(self, value, format_spec):
            text = super().format_field(value, format_spec)
            return localise(text, lang) if isinstance(value, (int, float)) else text

    fields = {k: localise(v, lang) if k in TEXT_NUMBERS and isinstance(v, str) else v for k, v in note.fields.items()}
    return singular(Localised().format(template, **fields), SINGULAR.get(lang, {}))


# A count of one takes the singular ('1 dispositivos' → '1 dispositivo'): the nouns the notes and errors count.
SINGULAR = {
    "en": SINGULAR_EN,
    "es": {"dispositivos": "dispositivo", "ejecuciones": "ejecución", "pasos": "paso", "tamaños": "tamaño",
           "repeticiones": "repetición", "parámetros": "parámetro", "nodos": "nodo", "grados": "grado",
           "valores": "valor", "épocas": "época", "rangos": "rango"},
}  # fmt: skip


TEXT_NUMBERS = ("table", "sizes", "fitted")  # note fields with numbers already written out ('1→0.9; 8→0.8')


# What an input allows, for the errors the pages and tables meet most (errors.fail's third part, as written
# there); a phrase without an entry stays as written. The flag names stay: they are what one types.
# A Spanish reader is told one way to write numbers, whichever English hint fired (2,000 · 2,5 · 2.000).
_ES_NUMBER_STYLE = "un número sin separador de miles y con punto decimal: 2000 para dos mil, 2.5 para dos y medio"

ALLOWED: dict[str, dict[str, str]] = {
    "es": {
        "a finite number > 0": "un número finito > 0",
        "this command's options: ": "las opciones de esta orden: ",
        "a learning rate from 1e-12 to 1e6": "una tasa de aprendizaje de 1e-12 a 1e6",
        "a sample count from 1e-9 to 1e15": "un número de muestras de 1e-9 a 1e15",
        "a batch size from 1e-9 to 2^53": "un tamaño de lote de 1e-9 a 2^53",
        "a noise scale B_noise from 1e-9 to 1e15 samples": "una escala de ruido B_ruido de 1e-9 a 1e15 muestras",
        "a number of epochs from 0 to 10,000": "un número de épocas de 0 a 10.000",
        "a global batch of at most 2^53 samples": "un lote global de como mucho 2^53 muestras",
        "the command line (not available on the web page)": "la línea de órdenes (no está en la página web)",
        "a number": "un número",
        "one number": "un solo número",
        "a number of epochs ≥ 0": "un número de épocas ≥ 0",
        "bytes per gradient element > 0": "bytes por elemento del gradiente > 0",
        "bytes with K/M/G suffixes (binary): 1KB..256MB, 1KB..256MBx4, or a list 1KB,1MB,64MB (4 B to 4 GB)": (
            "bytes con sufijos K/M/G (binarios): 1KB..256MB, 1KB..256MBx4, o una lista 1KB,1MB,64MB (de 4 B a 4 GB)"
        ),
        "a name (text)": "un nombre (texto)",
        "E = 1 at one device, its own reference (a single number is held at 1 there)": (
            "E = 1 en un dispositivo, su propia referencia (un solo número se fija en 1 allí)"
        ),
        "a step count from 1e-9 to 1e15": "un número de pasos de 1e-9 a 1e15",
        "True or False": "True o False",
        "device counts from 1 to 10,000,000 (between whole sizes too)": (
            "números de dispositivos de 1 a 10.000.000 (también entre tamaños enteros)"
        ),
        "a whole number ≥ 1": "un número entero ≥ 1",
        "a configuration id": "un identificador de configuración",
        "a readable CSV file": "un archivo CSV legible",
        "a scaling efficiency in (0, 1]": "una eficiencia de escalado en (0, 1]",
        "a scaling efficiency in (0, 1], or one per size": "una eficiencia de escalado en (0, 1], o una por tamaño",
        "a scaling efficiency in (0, 1] with a decimal point (0.9); a comma separates one value per size": (
            "una eficiencia de escalado en (0, 1] con punto decimal (0.9); la coma separa un valor por tamaño"
        ),
        "a finite throughput > 0": "un rendimiento finito > 0",
        "a finite per-device throughput > 0": "un rendimiento por dispositivo finito > 0",
        "finite numbers > 0": "números finitos > 0",
        (
            "a number with no thousands separator and a decimal point: 2000 for two thousand, 2.5 for two and a half"
        ): _ES_NUMBER_STYLE,
        "a contention σ in [0, 1)": "una contención σ en [0, 1)",
        "a number without thousands separators: 2000, not 2,000": _ES_NUMBER_STYLE,
        "a number with a decimal point: 2.5, not 2,5": _ES_NUMBER_STYLE,
        "a value (true is for switches such as no_overlap)": "un valor (true es para interruptores como no_overlap)",
        "a number or text, as typed on the command line": "un número o un texto, como en la línea de órdenes",
        "a coherency κ from 0 to 1": "una coherencia κ de 0 a 1",
        "a duration > 0 such as 24h, 90m, 2d, 1d12h, 3600s, or hours as a plain number": (
            "una duración > 0 como 24h, 90m, 2d, 1d12h, 3600s, u horas como número simple"
        ),
        "a device memory in GB as sold, a plain number from 0.1 to 4,096 (80 for an 80 GB card)": (
            "una memoria de dispositivo en GB tal como se vende, un número simple de 0,1 a 4.096 (80 para una "
            "tarjeta de 80 GB)"
        ),
        "2 or more with --schedule interleaved (1 chunk is --schedule 1f1b)": (
            "2 o más con --schedule interleaved (1 fragmento es --schedule 1f1b)"
        ),
        "a file name ending in": "un nombre de archivo terminado en",
        "a readable CSV or JSON-lines file": "un archivo CSV o JSON-lines legible",
        "at most 10,000 characters": "como mucho 10.000 caracteres",
        "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency)": (
            "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency)"
        ),
        "a whole number from 1 to 10,000,000": "un número entero de 1 a 10.000.000",
        "E in (0, 1]": "E en (0, 1]",
        "one E per size": "una E por tamaño",
        "sizes in --efficiency-file": "tamaños de --efficiency-file",
        "a path in an existing folder": "una ruta en una carpeta que exista",
        "a file this user can write": "un archivo que este usuario pueda escribir",
        "a serial fraction in [0, 1)": "una fracción serie en [0, 1)",
        "a number from 1e-9 to 1e15": "un número de 1e-9 a 1e15",
        "DEVICES:THROUGHPUT, e.g. 8:5120 (or D:X:STEP_SECONDS)": (
            "DISPOSITIVOS:RENDIMIENTO, p. ej. 8:5120 (o D:X:SEGUNDOS_POR_PASO)"
        ),
        "numbers without thousands separators (1024, not 1,024): a comma separates values": (
            "números sin separador de miles (1024, no 1,024): la coma separa valores"
        ),
        "sizes: at most ": "tamaños: como mucho ",
        "a whole number from 1 to 2^53": "un número entero de 1 a 2^53",
        "a whole number from 0 to 2^53": "un número entero de 0 a 2^53",
        "a factor F that reaches B from A in at most N steps (A, B, N = ": (
            "un factor F que lleve de A a B en como mucho N pasos (A, B, N = "
        ),
        "at least the samples/s per node the baseline measured: ": (
            "al menos las muestras/s por nodo que midió la referencia: "
        ),
        "0, 1, 2 or 3": "0, 1, 2 o 3",
        "1 unless --schedule interleaved": "1 salvo con --schedule interleaved",
        "a batch size > 0": "un tamaño de lote > 0",
        "a budget > 0": "un presupuesto > 0",
        "a device memory > 0": "una memoria de dispositivo > 0",
        "a finite number ≥ 0": "un número finito ≥ 0",
        "a gradient noise scale B_noise > 0 (samples)": "una escala de ruido del gradiente B_ruido > 0 (muestras)",
        "a latency in µs per hop, from 0 to 1,000,000": "una latencia en µs por salto, de 0 a 1.000.000",
        "a learning rate > 0": "una tasa de aprendizaje > 0",
        "a level in (0, 1), e.g. 0.9": "un nivel en (0, 1), p. ej. 0.9",
        "a marginal speed-up per device > 0": "una aceleración marginal por dispositivo > 0",
        "a marginal speed-up per device in [0, 1]": "una aceleración marginal por dispositivo en [0, 1]",
        "with --tensor-parallel > 1 (it shards over the tensor-parallel group)": (
            "con --tensor-parallel > 1 (reparte sobre el grupo de paralelismo de tensor)"
        ),
        "with --base-lr and --base-batch (the reference learning rate)": (
            "con --base-lr y --base-batch (la tasa de aprendizaje de referencia)"
        ),
        "a price whose cost in device-hours stays finite": (
            "un precio cuyo coste en horas-dispositivo siga siendo finito"
        ),
        "a micro-batch ≥ 1": "un micro-lote ≥ 1",
        "a noise scale > 0 (samples)": "una escala de ruido > 0 (muestras)",
        "a per-device batch > 0": "un lote por dispositivo > 0",
        "a price > 0": "un precio > 0",
        "a sample count > 0": "un número de muestras > 0",
        "a step count > 0": "un número de pasos > 0",
        "activation bytes ≥ 0": "bytes de activaciones ≥ 0",
        "an efficiency in (0, 1]": "una eficiencia en (0, 1]",
        "an epoch count > 0": "un número de épocas > 0",
        "at least one device count": "al menos un número de dispositivos",
        "at least one value": "al menos un valor",
        "both, or neither": "ambos, o ninguno",
        "bytes per gradient element, > 0 and ≤ 8 (fp64)": "bytes por elemento del gradiente, > 0 y ≤ 8 (fp64)",
        "one world size ≥ 2 for allreduce": "un único tamaño ≥ 2 para allreduce",
        "world sizes ≥ 2 for equivalence": "tamaños ≥ 2 para equivalence",
        "per-device samples/s at the baseline size, 1e-9 to 1e15": (
            "muestras/s por dispositivo en el tamaño de referencia, de 1e-9 a 1e15"
        ),
        "whole numbers ≥ 1": "números enteros ≥ 1",
        "µs ≥ 0": "µs ≥ 0",
        "a bandwidth in GB/s, from 0.001 to 1,000,000": "un ancho de banda en GB/s, de 0,001 a 1.000.000",
        "a bucket size in MiB, from 1/1024 (1 KiB) to 1,000,000": (
            "un tamaño de bucket en MiB, de 1/1024 (1 KiB) a 1.000.000"
        ),
        "seconds > 0 and ≤ 1,000,000": "segundos > 0 y ≤ 1.000.000",
        "a whole multiple of the stages (stages × replicas): ": (
            "un múltiplo entero de las etapas (etapas × réplicas): "
        ),
        "at most the device count: ": "como mucho el número de dispositivos: ",
        "a parameter count > 0": "un número de parámetros > 0",
        "a parameter count from 1 to 1e+15": "un número de parámetros de 1 a 1e+15",
        "per-device samples/s > 0 at the baseline size": "muestras/s por dispositivo > 0 en el tamaño de referencia",
        "seconds > 0": "segundos > 0",
        "a bandwidth in GB/s > 0": "un ancho de banda en GB/s > 0",
        "a model-FLOPs utilisation in (0, 1]": "una utilización de FLOPs del modelo en (0, 1]",
        "samples/s one node's input pipeline delivers, > 0": "muestras/s que entrega la carga de datos de un nodo, > 0",
        "samples/s one node's input pipeline delivers, from 1e-9 to 1e15": (
            "muestras/s que entrega la carga de datos de un nodo, de 1e-9 a 1e15"
        ),
        "whole numbers from 1 to 10,000,000: N, a list N1,N2,..., or a range A..B, A..BxF (geometric, F > 1), A..B+S": (
            "números enteros de 1 a 10.000.000: N, una lista N1,N2,..., o un rango A..B, A..BxF (geométrico, F > 1), "
            "A..B+S"
        ),
    },
}


# The calculator's other errors (no standard parts), whole: (English pattern, the language's template). The
# core is the part a Spanish reader meets first, so its every refusal is said in Spanish; {n} marks a number.
_SLIP = r"a larger E is a unit slip \(tokens/s against samples/s, a cluster total per device\), not cache effects"
_SLIP_ES = (
    "una E mayor es un error de unidades (tokens/s frente a muestras/s, un total del clúster por dispositivo), no "
    "un efecto de caché"
)
SAID: dict[str, tuple[tuple[str, str], ...]] = {  # groups n1, n2, t, x, e, m: quantities
    "es": (
        # the command line's own refusals (argparse, and faces/cli/common.Parser)
        (r"argument (?P<a>\S+): not allowed with argument (?P<b>\S+)", "el argumento {a} no se admite junto con {b}"),
        (r"argument (?P<a>\S+): invalid choice: (?P<v>.+) \(choose from (?P<c>.+)\)",
         "argumento {a}: opción no válida: {v} (elija entre {c})"),
        (r"argument (?P<a>\S+): expected one argument", "argumento {a}: falta su valor"),
        (r"the following arguments are required: (?P<a>.+)", "faltan los argumentos: {a}"),
        (r"unrecognized arguments: (?P<a>.+)", "argumentos no reconocidos: {a}"),
        (r"ambiguous option: (?P<a>\S+) could match (?P<b>.+)", "opción ambigua: {a} podría ser {b}"),
        (r"(?P<f>\S+) line (?P<n1>\d+): column\(s\) (?P<c>.+) twice; allowed: each (column )?once",
         "{f} línea {n1}: columna(s) {c} repetida(s); se admite: cada columna una vez"),
        # the published-data reader (sources.dataset); a cell's own refusal goes through errors.fail
        (r"(?P<f>.+?) line (?P<n1>[\d,]+), column (?P<c>'\w+'): got (?P<g>'.*'); allowed: (?P<v>'.*'), as on line "
         r"(?P<n2>[\d,]+) — one configuration is one setup",
         "{f} línea {n1}, columna {c}: se recibió {g}; se admite: {v}, como en la línea {n2}: una configuración es un "
         "único montaje"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+), column 'baseline_devices': got (?P<x>[\d,]+); allowed: (?P<t>[\d,]+), as "
         r"on line (?P<n2>[\d,]+) of configuration (?P<c>'.*') \(one baseline per configuration\)",
         "{f} línea {n1}, columna 'baseline_devices': se recibió {x}; se admite: {t}, como en la línea {n2} de la "
         "configuración {c} (una base por configuración)"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): got (?P<x>[\d,]+) fields; allowed: (?P<t>[\d,]+) as in the header",
         "{f} línea {n1}: se recibieron {x} campos; se admite: {t}, como en la cabecera"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): got (?P<x>[\d,]+) fields; allowed: (?P<t>[\d,]+) as in the header \(write "
         r"numbers without thousands separators: 1100, not 1,100\)",
         "{f} línea {n1}: se recibieron {x} campos; se admite: {t}, como en la cabecera (escriba los números sin "
         "separador de miles: 1100, no 1,100)"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): not a readable CSV row \((?P<why>.+)\)",
         "{f} línea {n1}: no es una fila CSV legible ({why})"),
        (r"(?P<flag>--params): missing; allowed: a parameter count from 1 to 1e\+15, or a (?P<m>--model) preset",
         "{flag}: falta; se admite: un número de parámetros de 1 a 1e+15, o un modelo {m}"),
        (r"--host: got (?P<g>'.*'); allowed: an address of this machine \((?P<why>.*)\)",
         "--host: se recibió {g}; se admite: una dirección de esta máquina ({why})"),
        (r"--port: got (?P<g>\S+); allowed: a free port on (?P<h>\S+)(?P<why> \(.*\))?",
         "--port: se recibió {g}; se admite: un puerto libre en {h}{why}"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \(its line 1 is not a JSON record\); allowed: a new file, or one that this "
         r"command's records were appended to",
         "{flag}: se recibió {g} (su línea 1 no es un registro JSON); se admite: un archivo nuevo, o uno al que esta "
         "orden añadió sus registros"),
        (r"--model-file: (?P<p>.+) failed to import: (?P<why>.+)", "--model-file: {p} no se pudo importar: {why}"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \(it holds (?P<k>train|equivalence) records\); allowed: a new file, or one "
         r"of (?P<m>train|equivalence) records",
         "{flag}: se recibió {g} (contiene registros de {k}); se admite: un archivo nuevo, o uno de registros de {m}"),
        (r"--model-file: (?P<p>.+) called sys\.exit\((?P<c>.*)\) while imported; allowed: a Python file defining "
         r"build_model\(\) and make_batch\(batch_size, generator\) \[and loss_fn\]",
         "--model-file: {p} llamó a sys.exit({c}) al importarse; se admite: un archivo Python que defina build_model() "
         "y make_batch(batch_size, generator) [y loss_fn]"),
        (r"--model-file: (?P<p>.+) has no (?P<what>.+); allowed: a Python file defining build_model\(\) and "
         r"make_batch\(batch_size, generator\) \[and loss_fn\]",
         "--model-file: {p} no define {what}; se admite: un archivo Python que defina build_model() y "
         "make_batch(batch_size, generator) [y loss_fn]"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): not UTF-8 text; allowed: a CSV file saved as UTF-8",
         "{f} línea {n1}: no es texto UTF-8; se admite: un CSV guardado como UTF-8"),
        (r"(?P<f>.+?) line 1: missing column\(s\) (?P<c>[^;]+)", "{f} línea 1: falta(n) la(s) columna(s) {c}"),
        (r"(?P<f>.+?): configuration (?P<c>'.*') has no baseline row \(devices == (?P<n1>[\d,]+)\)",
         "{f}: la configuración {c} no tiene fila base (devices == {n1})"),
        (r"(?P<f>.+?): no data rows", "{f}: no hay filas de datos"),
        (r"DATA.csv: configuration (?P<c>'.+') in (?P<a>\S+) and in (?P<b>\S+); allowed: once",
         "DATA.csv: la configuración {c} está en {a} y en {b}; se admite: una vez"),
        (r"(?P<f>\S+): a JSON array; allowed: JSON lines \(an object with devices and throughput on each line, as "
         r"`dpscale measure --out` writes\), `dpscale measure --json` output, or a CSV",
         "{f}: una lista JSON; se admite: líneas JSON (un objeto con devices y throughput por línea, como escribe "
         "`dpscale measure --out`), la salida de `dpscale measure --json`, o un CSV"),
        (r"--resamples × (?P<w>--at|measured sizes): (?P<n1>[\d,]+) resamples × (?P<n2>[\d,]+) sizes = (?P<t>[\d,]+) "
         r"values; allowed: at most (?P<x>[\d,]+) \(about 1 GB of working memory\) — fewer resamples or sizes",
         "--resamples × {w}: {n1} remuestreos × {n2} tamaños = {t} valores; se admite: como mucho {x} (cerca de 1 GB "
         "de memoria de trabajo) — menos remuestreos o tamaños"),
        (r"--system: missing; allowed \(from (?P<p>\S+)\): (?P<names>.+)",
         "--system: falta; se admite (de {p}): {names}"),
        (r"samples × epochs / \(throughput × d × E\): (?P<x>\S+) samples at (?P<t>\S+)/s \(d = (?P<n1>[\d,]+)\) take "
         r"(?P<h>\S+) hours; allowed: inputs whose time is finite",
         "muestras × épocas / (rendimiento × d × E): {x} muestras a {t}/s (d = {n1}) llevan {h} horas; se admite: "
         "entradas con un tiempo finito"),
        (r"(?P<a>\S+): given twice; allowed: once \(the last would silently win\)",
         "{a}: dado dos veces; se admite: una vez (el último ganaría sin avisar)"),
        (r"(?P<a>\S+): got (?P<g>''|'--'); allowed: a value(?P<h>.*)", "{a}: se recibió {g}; se admite: un valor"),
        (r"(?P<a>--actual) and (?P<b>--speedup): give one of them, not both \(A = S·v\)",
         "{a} y {b}: dé uno de los dos, no ambos (A = S·v)"),
        (r"inputs: got none; allowed: exactly three of (?P<names>.+) \(the fourth is solved\)",
         "entradas: no se recibió ninguna; se admite: exactamente tres de {names} (la cuarta se resuelve)"),
        (r"inputs: got (?P<got>.+); allowed: exactly three of (?P<names>.+) \(the fourth is solved\)",
         "entradas recibidas: {got}; se admite: exactamente tres de {names} (la cuarta se resuelve)"),
        (r"(?P<flag>\S+): got (?P<n1>[\d,]+) values for 1 device count; allowed: one value per device count — a "
         r"comma separates list items, so write numbers without thousands separators and with a decimal point",
         "{flag}: se recibieron {n1} valores para 1 número de dispositivos; se admite: un valor por número de "
         "dispositivos — la coma separa elementos de una lista: escriba los números sin separador de miles y con "
         "punto decimal"),
        (r"(?P<flag>\S+): got (?P<n1>[\d,]+) values for (?P<n2>[\d,]+) device counts; "
         r"allowed: one value, or one per device count",
         "{flag}: se recibieron {n1} valores para {n2} números de dispositivos; se admite: un valor, o uno por "
         "número de dispositivos"),
        (r"(?P<flag>\S+): (?P<n1>[\d,]+) devices given twice \((?P<a>\S+) and (?P<b>\S+)\); allowed: one E per size",
         "{flag}: {n1} dispositivos dados dos veces ({a} y {b}); se admite: una E por tamaño"),
        (r"(?P<a>--throughput): cannot be solved from (?P<b>--speedup) \(S = d·E does not involve it\); allowed: "
         r"give (?P<c>--actual)",
         "{a}: no se puede despejar de {b} (S = d·E no depende de ella); se admite: dé {c}"),
        (r"(?P<a>--efficiency) and (?P<b>--law): give one source of E, not both",
         "{a} y {b}: dé una sola fuente de E, no ambas"),
        (r"(?P<a>--serial-fraction): belongs to (?P<b>--law amdahl); for usl give (?P<c>--sigma/--kappa)",
         "{a}: pertenece a {b}; para usl dé {c}"),
        (r"(?P<a>--sigma/--kappa): belong to (?P<b>--law usl); for amdahl give (?P<c>--serial-fraction)",
         "{a}: pertenecen a {b}; para amdahl dé {c}"),
        (r"(?P<a>--law usl): needs (?P<b>--sigma) and/or (?P<c>--kappa) "
         r"\(σ in \[0, 1\), κ in \[0, 1\]; a missing one is 0\)",
         "{a}: necesita {b} y/o {c} (σ en [0, 1), κ en [0, 1]; el que falte vale 0)"),
        (r"(?P<a>--law amdahl): needs (?P<b>--serial-fraction) S \(S in \[0, 1\)\)",
         "{a}: necesita {b} S (S en [0, 1))"),
        (r"(?P<a>\S+) × (?P<b>\S+): beyond floating point; allowed: realistic magnitudes",
         "{a} × {b}: fuera del rango de coma flotante; se admite: magnitudes realistas"),
        (r"(?P<a>\S+): comes to (?P<x>\S+) on one device, where E is 1 by definition \(its actual throughput is "
         r"its per-device throughput\); allowed: two or more devices, or the same rate for both",
         "{a}: sale {x} en un dispositivo, donde E vale 1 por definición (su rendimiento real es su rendimiento por "
         "dispositivo); se admite: dos o más dispositivos, o la misma tasa en ambos"),
        (r"(?P<a>\S+): comes to (?P<x>\S+) from these inputs \(a speedup of (?P<t>\S+)× on (?P<n1>[\d,]+) devices\); "
         r"allowed: at most (?P<n2>\S+) — " + _SLIP,
         "{a}: sale {x} con estas entradas (una aceleración de {t}× en {n1} dispositivos); se admite: como mucho {n2}; "
         + _SLIP_ES),
        (r"runs: throughput (?P<x>\S+) at (?P<n1>[\d,]+) devices against (?P<t>\S+) at (?P<n2>[\d,]+) is "
         r"E = (?P<e>\S+); allowed: E up to (?P<m>\S+) — " + _SLIP,
         "ejecuciones: un rendimiento de {x} con {n1} dispositivos frente a {t} con {n2} es E = {e}; se admite: E "
         "hasta {m}; " + _SLIP_ES),
        (r"(?P<a>\S+): comes to (?P<x>\S+) from these inputs; allowed: realistic magnitudes",
         "{a}: sale {x} con estas entradas; se admite: magnitudes realistas"),
        (r"devices: (?P<x>\S+) needed; allowed: at most (?P<n1>[\d,]+) — check the target and the throughput",
         "dispositivos: harían falta {x}; se admite: como mucho {n1}; revise el objetivo y el rendimiento"),
        (r"target (?P<t>.+?): not reached within (?P<n1>[\d,]+) devices \((?P<x>.+?) there\); "
         r"allowed: a target this E\(d\) reaches at a buildable size",
         "objetivo {t}: no se alcanza con {n1} dispositivos ({x} allí); se admite: un objetivo que esta E(d) "
         "alcance con un tamaño construible"),
        (r"target (?P<t>.+?): unreachable — this E\(d\) peaks at (?P<x>.+?) with (?P<n1>[\d,]+) devices; "
         r"allowed: a target at or below the peak",
         "objetivo {t}: inalcanzable; esta E(d) llega como máximo a {x} con {n1} dispositivos; se admite: un "
         "objetivo igual o inferior al máximo"),
        # the web page's row cap
        (r"(?P<flag>--\S+): (?P<n1>[\d,]+) sizes; allowed: at most (?P<n2>[\d,]+) on the page \(the command line "
         r"takes more\)",
         "{flag}: {n1} tamaños; se admite: como mucho {n2} en la página (la línea de órdenes admite más)"),
        # the fitter's
        (r"runs: got (?P<n1>[\d,]+) run\(s\) of (?P<n2>[\d,]+); allowed: at least 2 distinct device counts",
         "mediciones: se recibieron {n1} ejecución(es) con {n2} dispositivos; se admite: al menos 2 números de "
         "dispositivos distintos"),
        # the predictor's and the catalogs' (the web page's predict form reaches these)
        (r"(?P<flag>--\S+): got (?P<got>'[^']*') \(did you mean (?P<mean>.+?)\?\); allowed: (?P<names>.+)",
         "{flag}: se recibió {got} (¿quería decir {mean}?); se admite: {names}"),
        (r"(?P<flag>--\S+): got (?P<got>'[^']*'); allowed: (?P<names>[a-z0-9.-]+(?:, [a-z0-9.-]+)+)",
         "{flag}: se recibió {got}; se admite: {names}"),
        (r"(?P<flags>.+): missing; allowed: give --system NAME or the raw cluster figures",
         "{flags}: faltan; se admite: --system NOMBRE o las cifras del clúster"),
        (r"(?P<flags>--params/--model): missing; allowed: a parameter count or a preset name",
         "{flags}: falta; se admite: un número de parámetros o el nombre de un modelo predefinido"),
        (r"(?P<a>--throughput) and (?P<b>--step-time): give one measured baseline, not both",
         "{a} y {b}: dé una sola referencia medida, no ambas"),
        (r"(?P<flags>--throughput/--step-time): missing; allowed: a measured baseline, or --model PRESET \(or "
         r"--params with --seq-len, a transformer\) with --gpu \(or a --system that names one\) to estimate "
         r"compute from FLOPs and MFU",
         "{flags}: falta; se admite: una referencia medida, o --model MODELO (o --params con --seq-len, un "
         "transformer) con --gpu (o un --system que la nombre) para estimar el cómputo a partir de FLOPs y MFU"),
        (r"(?P<a>--batch) with (?P<flags>--throughput/--step-time): a micro-batch comes to (?P<x>\S+) s of compute; "
         r"allowed: inputs that put it between (?P<n1>\S+) s and (?P<n2>\S+) s",
         "{a} con {flags}: un micro-lote sale a {x} s de cómputo; se admite: entradas que lo dejen entre {n1} s y "
         "{n2} s"),
        (r"(?P<flag>--precision): (?P<p>\S+) has no peak figure for (?P<gpu>\S+); allowed: (?P<names>.+)",
         "{flag}: {p} no tiene cifra de pico para {gpu}; se admite: {names}"),
        # the planning commands (batch, memory, pipeline, plan)
        (r"(?P<flag>--tensor-parallel): got (?P<n1>\S+); allowed: a divisor of (?P<m>\S+)'s (?P<n2>\S+) attention "
         r"heads",
         "{flag}: se recibió {n1}; se admite: un divisor de las {n2} cabezas de atención de {m}"),
        (r"(?P<a>--min-steps): needs (?P<b>--noise-scale) \(B_noise\) for steps = S_min\(1 \+ B_noise/B\)",
         "{a}: necesita {b} (B_ruido) para pasos = S_min(1 + B_ruido/B)"),
        (r"(?P<a>--budget): needs (?P<b>--price-per-device-hour) \(a budget is money; the price turns it into "
         r"hours\)",
         "{a}: necesita {b} (un presupuesto es dinero; el precio lo convierte en horas)"),
        (r"(?P<a>--gpu) and (?P<b>--gpu-memory): give one of them, not both",
         "{a} y {b}: dé uno de los dos, no ambos"),
        (r"(?P<a>--efficiency-file) and (?P<b>--efficiency/--law/--fit): give one source of E, not both",
         "{a} y {b}: dé una sola fuente de E, no ambas"),
        (r"(?P<a>--fit) and (?P<b>--throughput): the fitted runs give the per-device throughput too; give one",
         "{a} y {b}: las ejecuciones ajustadas ya dan el rendimiento por dispositivo; dé uno de los dos"),
        (r"(?P<a>--fit) and (?P<b>--efficiency/--law): give one source of E, not both",
         "{a} y {b}: dé una sola fuente de E, no ambas"),
        (r"(?P<flag>--samples): missing; allowed: a sample count > 0",
         "{flag}: falta; se admite: un número de muestras > 0"),
        (r"(?P<flag>--throughput): missing; allowed: a per-device throughput > 0 \(or (?P<b>--fit) measured runs\)",
         "{flag}: falta; se admite: un rendimiento por dispositivo > 0 (o {b} con ejecuciones medidas)"),
        (r"(?P<flag>--stages|--microbatches): missing; allowed: a whole number ≥ 1 \(give (?P<a>--stages) and "
         r"(?P<b>--microbatches)\)",
         "{flag}: falta; se admite: un número entero ≥ 1 (dé {a} y {b})"),
        (r"(?P<flag>--chunks): missing; allowed: 2 or more with (?P<s>--schedule interleaved) \(model chunks per "
         r"device\)",
         "{flag}: falta; se admite: 2 o más con {s} (fragmentos del modelo por dispositivo)"),
        (r"(?P<flag>--micro-batch): missing; allowed: a whole number ≥ 1 \(samples per device\)",
         "{flag}: falta; se admite: un número entero ≥ 1 (muestras por dispositivo)"),
        (r"(?P<flag>--base-lr|--base-batch): missing; allowed: (?P<a>--base-lr) and (?P<b>--base-batch) together "
         r"\(the reference\)",
         "{flag}: falta; se admite: {a} y {b} juntos (la referencia)"),
        (r"(?P<flag>--warmup-epochs): needs (?P<a>--base-lr) and (?P<b>--base-batch) \(the reference "
         r"learning rate\)",
         "{flag}: necesita {a} y {b} (la tasa de aprendizaje de referencia)"),
        (r"(?P<flag>--gpus-per-node): only with (?P<b>--fit) \(it shapes the fitted all-reduce law\)",
         "{flag}: solo con {b} (da forma a la ley de all-reduce ajustada)"),
        (r"(?P<flags>.+): activations need a transformer (?P<m>--model) preset \(its layers and hidden size\); "
         r"(?P<p>--params) alone has no shape, so only model states are counted — leave these out",
         "{flags}: las activaciones necesitan un transformer predefinido en {m} (sus capas y su tamaño oculto); "
         "{p} solo no tiene forma, así que solo se cuentan los estados del modelo — quítelas"),
        (r"(?P<flags>.+): activations need a transformer (?P<m>--model) preset \(its layers and hidden size\); "
         r"--model (?P<name>\S+) is not a transformer preset, so only model states are counted — leave these out",
         "{flags}: las activaciones necesitan un transformer predefinido en {m} (sus capas y su tamaño oculto); "
         "--model {name} no es un transformer predefinido, así que solo se cuentan los estados del modelo — "
         "quítelas"),
        (r"(?P<flag>--plot): needs E \((?P<a>--efficiency) or (?P<b>--law)\) to draw speedup against devices",
         "{flag}: necesita E ({a} o {b}) para dibujar la aceleración frente a los dispositivos"),
        # the page's API (faces/web/app.py)
        (r"command: got (?P<g>'.*'); allowed: (?P<names>.+)", "orden: se recibió {g}; se admite: {names}"),
        (r'body: got key (?P<g>\'.*\'); allowed: options, lang \(\{"options": \{"flag": "value"\}\}\)',
         'cuerpo: se recibió la clave {g}; se admite: options, lang ({{"options": {{"flag": "value"}}}})'),
        # fit's file reader (sources/fit_io.py); {why}: JSON's and the OS's reasons, said by REASONS
        (r"(?P<f>.+?): empty; allowed: a CSV with columns devices,throughput or JSON lines",
         "{f}: vacío; se admite: un CSV con columnas devices,throughput o líneas JSON"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): not valid JSON \((?P<why>.+)\); allowed: one JSON object per line",
         "{f} línea {n1}: no es JSON válido ({why}); se admite: un objeto JSON por línea"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): a number too long to read; allowed: one JSON object per line",
         "{f} línea {n1}: un número demasiado largo para leerlo; se admite: un objeto JSON por línea"),
        (r'(?P<f>.+?) line (?P<n1>[\d,]+): points\[(?P<j>\d+)\]: allowed: an object with "devices" and "throughput"',
         '{f} línea {n1}: points[{j}]: se admite: un objeto con "devices" y "throughput"'),
        (r'(?P<f>.+?) line (?P<n1>[\d,]+): got (?P<g>.+); allowed: an object with "devices" and "throughput"',
         '{f} línea {n1}: se recibió {g}; se admite: un objeto con "devices" y "throughput"'),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): another set-up than line (?P<n2>[\d,]+) \((?P<diff>.+)\); allowed: one "
         r"set-up per file \(the records of one model, batch, backend, device, steps and threads a rank\)",
         "{f} línea {n1}: otro montaje que la línea {n2} ({diff}); se admite: un montaje por archivo (los registros "
         "de un modelo, lote, backend, dispositivo, pasos e hilos por proceso)"),
        (r"(?P<f>.+?): not a readable CSV \((?P<why>.+)\); allowed: a header with devices,throughput",
         "{f}: no es un CSV legible ({why}); se admite: una cabecera con devices,throughput"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing column\(s\) (?P<cols>.+?); allowed: a header with "
         r"devices,throughput \(optional step_time\) — this file separates its columns with ';': save it as CSV "
         r"with commas and decimal points",
         "{f} línea {n1}: falta(n) la(s) columna(s) {cols}; se admite: una cabecera con devices,throughput "
         "(step_time opcional) — este archivo separa las columnas con ';': guárdelo como CSV con comas y punto "
         "decimal"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing column\(s\) (?P<cols>.+?); allowed: a header with "
         r"devices,throughput \(optional step_time\)",
         "{f} línea {n1}: falta(n) la(s) columna(s) {cols}; se admite: una cabecera con devices,throughput "
         "(step_time opcional)"),
        (r"RUNS: got none; allowed: a CSV / JSON-lines file of runs, or --point D:X \(repeatable\)",
         "MEDICIONES: no se recibió ninguna; se admite: un archivo CSV o de líneas JSON con las mediciones, o "
         "--point D:X (repetible)"),
        (r"(?P<f>.+?): no runs after the header; allowed: one row per run \(devices,throughput\)",
         "{f}: ninguna medición tras la cabecera; se admite: una fila por medición (devices,throughput)"),
        (r"runs: got (?P<n1>[\d,]+) distinct device counts; allowed: at most (?P<n2>[\d,]+) \(repeats of one size "
         r"are averaged, so thin the sizes, not the repeats\)",
         "mediciones: se recibieron {n1} números de dispositivos distintos; se admite: como mucho {n2} (las "
         "repeticiones de un tamaño se promedian: reduzca los tamaños, no las repeticiones)"),
        # files a command reads: a system (catalog), a calibration (predict)
        (r"(?P<flag>--\S+): got (?P<g>'.*'); allowed: a readable JSON file \((?P<why>.+)\)",
         "{flag}: se recibió {g}; se admite: un archivo JSON legible ({why})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): not UTF-8 text; allowed: a JSON file as systems.json",
         "{flag}: {f}: no es texto UTF-8; se admite: un archivo JSON como systems.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): nested too deeply; allowed: a JSON file as systems.json",
         "{flag}: {f}: anidado a demasiada profundidad; se admite: un archivo JSON como systems.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?) line (?P<n1>[\d,]+): not JSON \((?P<why>.+)\)",
         "{flag}: {f} línea {n1}: no es JSON ({why})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): allowed: an object \{'systems': \{name: \{\.\.\.\}\}\} as systems.json",
         "{flag}: {f}: se admite: un objeto {{'systems': {{nombre: {{...}}}}}} como systems.json"),
        (r"--system: got (?P<g>'.*'); allowed \(from (?P<p>.+?)\): (?P<names>.+)",
         "--system: se recibió {g}; se admite (de {p}): {names}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): got (?P<g>.+); allowed: an object as in systems.json",
         "{flag}: {f}: sistema {k}: se recibió {g}; se admite: un objeto como en systems.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): gpu (?P<g>.+?); allowed: (?P<names>.+)",
         "{flag}: {f}: sistema {k}: gpu {g}; se admite: {names}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?') needs numbers > 0 \(and below 1e300\) for (?P<keys>.+)",
         "{flag}: {f}: el sistema {k} necesita números > 0 (y por debajo de 1e300) en {keys}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): gpus_per_node (?P<g>.+?); allowed: a whole number ≥ 1",
         "{flag}: {f}: sistema {k}: gpus_per_node {g}; se admite: un número entero ≥ 1"),
        (r"--calibration: (?P<f>.+?): allowed: JSON with numbers busbw_gbs and alpha_s",
         "--calibration: {f}: se admite: JSON con los números busbw_gbs y alpha_s"),
        (r"--calibration: (?P<f>.+?): busbw_gbs (?P<e>\S+), alpha_s (?P<m>\S+); allowed: busbw_gbs as a bandwidth in "
         r"GB/s, from (?P<x>\S+) to (?P<t>\S+), alpha_s from 0 to 1 \(s\)",
         "--calibration: {f}: busbw_gbs {e}, alpha_s {m}; se admite: busbw_gbs como ancho de banda en GB/s, de {x} "
         "a {t}, alpha_s de 0 a 1 (s)"),
        (r"--calibration: (?P<f>.+?): point bytes (?P<e>\S+), busbw_gbs (?P<m>\S+); allowed: bytes from 1 to 1e15 "
         r"and busbw_gbs > 0 and ≤ (?P<x>\S+)",
         "--calibration: {f}: punto de {e} bytes, busbw_gbs {m}; se admite: bytes de 1 a 1e15 y busbw_gbs > 0 y "
         "≤ {x}"),
        # measure's set-up checks (faces/cli/measure.py, sources/measure)
        (r"--model-file: got (?P<g>'.*') \((?P<why>no such file|not a \.py file)\); allowed: a Python file defining "
         r"build_model\(\) and make_batch\(batch_size, generator\) \[and loss_fn\]",
         "--model-file: se recibió {g} ({why}); se admite: un archivo Python que defina build_model() y "
         "make_batch(batch_size, generator) [y loss_fn]"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \((?P<why>a folder|no such folder|not writable)\); allowed: a writable "
         r"file path",
         "{flag}: se recibió {g} ({why}); se admite: la ruta de un archivo en el que se pueda escribir"),
        (r"(?P<flag>--\S+): belongs to `(?P<c>[^`]+)`, not to this mode", "{flag}: pertenece a `{c}`, no a este modo"),
        (r"(?P<flag>--\S+): not used by `(?P<c>[^`]+)`", "{flag}: `{c}` no la usa"),
        (r"--grad-accum: (?P<n1>[\d,]+) micro-batches of (?P<t>\S+) s make a (?P<x>\S+) s step; allowed: an "
         r"optimizer step of at most 1e\+07 s \(four months\)",
         "--grad-accum: {n1} micro-lotes de {t} s dan un paso de {x} s; se admite: un paso del optimizador de como "
         "mucho 1e+07 s (cuatro meses)"),
        (r"--overlap-accumulation and --no-overlap: contradict each other; give one",
         "--overlap-accumulation y --no-overlap: se contradicen; indique una"),
        (r"--seq-len: --model (?P<m>\S+) is not a transformer preset \(its FLOPs are per image\); allowed: leave it "
         r"out, or a transformer --model",
         "--seq-len: --model {m} no es un modelo transformer (sus FLOP son por imagen); se admite: omitirla, o un "
         "--model transformer"),
        (r"--devices: got (?P<n1>[\d,]+); allowed: at most (?P<n2>[\d,]+) \(CUDA devices here\)",
         "--devices: se recibió {n1}; se admite: como mucho {n2} (dispositivos CUDA en esta máquina)"),
        (r"--devices: got (?P<n1>[\d,]+); allowed: at most (?P<n2>[\d,]+) ranks \((?P<x>\d+) per CPU core here\) — "
         r"more would measure the scheduler, not data parallelism; use torchrun across machines",
         "--devices: se recibió {n1}; se admite: como mucho {n2} procesos ({x} por núcleo de CPU aquí) — más "
         "medirían el planificador, no el paralelismo de datos; use torchrun entre máquinas"),
    ),
}  # fmt: skip


def _number_words(text: str, lang: str) -> str:
    """'20,000/s (speedup 9.5)' → '20.000/s (aceleración 9,5)': a quantity as the calculator said it."""
    return localise(text, lang).replace("speedup", label("speedup", lang).split()[0])


# `dpscale measure`'s failures: 'size 2: rank 1 crashed: …' in parts, each said in the language (the exception's
# own text stays as Python wrote it)
MEASURE_PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "es": (
        (r"^size (\d+): ", r"tamaño \1: "),
        (r"^(tamaño \d+: )all ranks ", r"\1todos los procesos "),
        (r"^(tamaño \d+: )rank (\d+(, \d+)+) ", r"\1procesos \2 "),
        (r"^(tamaño \d+: )rank ", r"\1proceso "),
        (r"^(tamaño \d+: (todos los procesos|procesos [\d, ]+)) made no progress for ", r"\1 no avanzaron en "),
        (r"^(tamaño \d+: [^:]*?) crashed: ", r"\1 falló: "),
        (r"^(tamaño \d+: [^:]*?) was killed by ", r"\1 murió por "),
        (r"^(tamaño \d+: [^:]*?) exited with code ", r"\1 salió con código "),
        (r" finished without a result", " terminó sin resultado"),
        (r" made no progress for ", " no avanzó en "),
        (r" s while starting \(the start-up allowance\)", " s al arrancar (margen de arranque)"),
        (r"; stopped all ranks", "; se detuvieron todos los procesos"),
        (r" \(the ranks' output: (\S+)\)", r" (salida de los procesos: \1)"),
        (r"; finished sizes are in (\S+)$", r"; los tamaños terminados están en \1"),
        (
            r"^--out: could not write (.+) \((.+)\); this size's result is shown, not saved; stopped$",
            r"--out: no se pudo escribir \1 (\2); el resultado de este tamaño se muestra, no se guardó; detenido",
        ),
    ),
}


def say_measure(text: str, lang: str) -> str:
    """A measurement's failure line in the language, part by part (MEASURE_PARTS)."""
    import re

    for pattern, repl in MEASURE_PARTS.get(lang, ()):
        text = re.sub(pattern, repl, text)
    return text


# Reasons quoted inside a refusal: the OS's strerror, JSON's parser, a path check's own words.
REASONS: dict[str, dict[str, str]] = {
    "es": {
        "No such file or directory": "no existe",
        "Is a directory": "es una carpeta",
        "Not a directory": "una parte de la ruta no es una carpeta",
        "Permission denied": "permiso denegado",
        "not UTF-8 text": "no es texto UTF-8",
        "not a file path": "no es la ruta de un archivo",
        "more than 64 MiB: not an input file": "más de 64 MiB: no es un archivo de entrada",
        "no such file": "no existe",
        "not a .py file": "no es un archivo .py",
        "a folder": "es una carpeta",
        "no such folder": "la carpeta no existe",
        "not writable": "no se puede escribir",
        "Expecting value": "se esperaba un valor",
        "Expecting property name enclosed in double quotes": "se esperaba un nombre entre comillas dobles",
        "Extra data": "datos de más",
        "Unterminated string starting at": "cadena sin cerrar",
        "Expecting ',' delimiter": "se esperaba ','",
        "Expecting ':' delimiter": "se esperaba ':'",
        "Invalid control character at": "carácter de control no válido",
    },
}


def _reason(text: str, lang: str) -> str:
    """A reason in parentheses said in the language: '(No such file or directory)' → '(no existe)'."""
    import re

    words = REASONS.get(lang, {})
    return re.sub(r"\(([^()]+)\)", lambda m: f"({words.get(m[1], m[1])})", text)


def _said(message: str, lang: str) -> str:
    """A free-form error said from SAID's templates (numbers the language's way); unmatched: as written."""
    import re

    for pattern, template in SAID.get(lang, ()):
        m = re.fullmatch(pattern, message)
        if m:
            fields = {
                k: _number_words(v, lang) if k in ("n1", "n2", "t", "x", "e", "m") else v
                for k, v in m.groupdict(default="").items()
            }
            if "why" in fields:
                fields["why"] = REASONS.get(lang, {}).get(fields["why"], fields["why"])
            if fields.get("w") == "measured sizes":  # fit's bootstrap redraws the measured sizes, predict's --at
                fields["w"] = label("measured_sizes", lang)
            if "mean" in fields:  # 'a' or 'b': the language's 'or'
                fields["mean"] = fields["mean"].replace("' or '", f"' {label('or', lang)} '")
            return singular(template.format(**fields), SINGULAR.get(lang, {}))
    return message


def say_error(exc: BaseException, lang: str = "en") -> str:
    """A library error in the user's language: 'FLAG: got X; allowed: Y' from errors.fail is said with the
    language's words (and Y translated where ALLOWED has it); the calculator's other errors from SAID; the
    rest stay as written."""
    parts = getattr(exc, "parts", None)
    if lang == "en" or lang not in ALLOWED:
        return str(exc)
    if parts is None:
        return _said(str(exc), lang)
    name, got, allowed = parts
    words = ALLOWED[lang]
    import re

    if re.fullmatch(r"-?\d+(\.\d+)?(e[+-]?\d+)?", got):  # a number the library holds (not typed text): 0,9
        got = localise(got, lang)

    m = re.fullmatch(r"a whole number from ([\d,]+) to ([\d,]+)(.*)", allowed)  # the bounds differ by flag
    if m and lang == "es":
        allowed = f"{label('whole_from_to', lang)} {localise(m[1], lang)} a {localise(m[2], lang)}{m[3]}"
    m = re.fullmatch(r"a number (> |from )(\S+) (and ≤|to) ([\d,]+)", allowed)  # a CSV cell's (sources.dataset)
    if m and lang == "es":
        low, high = ("> ", " y ≤ ") if m[1] == "> " else ("de ", " a ")
        allowed = f"{words['a number']} {low}{localise(m[2], lang)}{high}{localise(m[4], lang)}"
    if lang == "es":  # 'DATA.csv line 4, column 'x'' names the place: say its words too
        name = re.sub(r" line (\d+)(, column)?", lambda k: f" línea {k[1]}" + (", columna" if k[2] else ""), name)
    if lang == "es":  # the percent hint's numbers: (90 % = 0,9), as the language writes them
        allowed = re.sub(
            r"\((\S+) % = (\S+)\)", lambda k: f"({localise(k[1], lang)} % = {localise(k[2], lang)})", allowed
        )
    said = next((words[k] + allowed[len(k) :] for k in sorted(words, key=len, reverse=True) if allowed.startswith(k)),
                allowed)  # fmt: skip
    said = _reason(said, lang)  # 'un archivo CSV legible (No such file or directory)' → '(no existe)'
    if lang == "es":  # the page's over-long value: '30,000 characters'
        got = re.sub(r"^'([\d,]+) characters'$", lambda k: f"'{localise(k[1], lang)} caracteres'", got)
    if lang == "es":  # an efficiency file's record: 'record 2: devices 8 again'
        got = re.sub(r"^'record (\d+): (.*?)( again)?'$", lambda k: f"'registro {k[1]}: {k[2]}"
                     + (" repetido'" if k[3] else "'"), got)  # fmt: skip
    return label("error_frame", lang).format(name=name, got=got, allowed=said)


def label(key: str, lang: str = "en") -> str:
    return LABELS[lang].get(key) or LABELS["en"].get(key) or key.replace("_", " ")


def term(word: str, lang: str = "en") -> str:
    """An option value said in the language ('mixed' → 'mixta'); words it has no entry for pass as typed."""
    return LABELS[lang].get("w:" + word, word)


def header(key: str, lang: str = "en") -> str:
    """Short column heading for wide tables; falls back to the full label."""
    return LABELS[lang].get("h:" + key) or LABELS["en"].get("h:" + key) or label(key, lang)


def localise(text: str, lang: str) -> str:
    """Swap English separators (1,234.5) for Spanish ones (1.234,5)."""
    if lang != "es":
        return text
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".")


def number(x: float | int | None, kind: str = "float", lang: str = "en") -> str:
    """Format one value for people. kinds: int, rate, times, dec, eff, pct, float, ms, hours, money, bytes, text."""
    if kind == "text" or isinstance(x, str):
        return "—" if x is None else LABELS[lang].get(str(x)) or str(x)
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "—"
    if isinstance(x, float) and math.isinf(x):
        return "∞"
    if kind in ("int", "rate", "dec", "money") and abs(x) >= 1e15:  # past 2^53 whole digits are invented
        return localise(f"{x:.6g}", lang)
    if kind in ("hours", "times") and abs(x) >= 1e15:
        return localise(f"{x:.3g}" + {"hours": " h", "times": "×"}[kind], lang)
    if kind == "int":
        text = f"{x:,.0f}"
    elif kind == "rate":
        text = f"{x:,.0f}" if abs(x) >= 100 else f"{x:,.4g}"
    elif kind == "times":
        text = (f"{x:,.1f}" if abs(x) >= 10 else f"{x:.2f}") + "×"
    elif kind == "dec":
        text = f"{x:,.1f}" if abs(x) >= 10 else f"{x if abs(x) >= 0.005 else 0.0:.2f}"  # not '-0.00'
    elif kind == "eff":  # a tiny E keeps its significant digits rather than reading as 0.000
        text = f"{x:.3f} ({100 * x:.1f} %)" if x == 0 or abs(x) >= 5e-4 else f"{x:.3g} ({100 * x:.3g} %)"
    elif kind == "pct":
        text = f"{100 * x:.1f} %"
    elif kind == "fixed3":
        text = f"{x:+.3f}" if x < 0 else f"{x:.3f}"
    elif kind == "ms":
        text = f"{1e3 * x:,.1f}" if abs(x) >= 1e-3 else f"{1e3 * x:.3f}"
    elif kind == "hours":
        text = f"{x:,.1f} h" if abs(x) >= 1 else (f"{60 * x:,.1f} min" if abs(x) >= 1 / 60 else f"{3600 * x:.3g} s")
    elif kind == "money":
        text = f"{x:,.2f}"
    elif kind == "bytes":
        text = _bytes(x)
    else:
        text = f"{x:,.6g}" if abs(x) >= 1e-3 or x == 0 else f"{x:.3e}"
    return localise(text, lang)


def _bytes(x: float) -> str:
    if abs(x) >= 1e21:  # past any machine: 3 figures of PB (2e+15 B read as a byte count)
        return f"{x / 1e15:.3g} PB"
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(x) >= size:
            return f"{x / size:,.1f} {unit}"
    return f"{x:,.0f} B"
