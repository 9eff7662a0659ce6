"""The command line's help in Spanish: `dpscale COMMAND --help --lang es`.

The English texts stay where they are written (each command's `add_arguments`, `COMMANDS`, argparse's own words);
this module only maps each of them to its Spanish, so there is one source of truth and a text with no entry here
shows in English (tests/test_help_es.py checks that none lacks one). It is read only when help is printed in
Spanish: the calculator's start-up never imports it.

A key with `{}` is a template for a text built at run time (catalog names, defaults from the layers below): each
`{}` matches any text, put back as it is in the Spanish `{}`, or written the Spanish way (0,5) in a `{n}`. As in
the rest of the tool, numbers in prose are written the Spanish way (2.000; 0,9), but what one types stays as typed
(flags, metavars, option values and defaults, example command lines: 0.9, 1..1024x2, 8:5120). A `%(default)s`
placeholder, if a help ever has one, must be kept in its Spanish.
"""

from __future__ import annotations

import re
from functools import lru_cache

from dpscale.faces.i18n import localise

HELP_ES: dict[str, str] = {
    # argparse's own words (Python 3.10 to 3.13)
    "usage: ": "uso: ",
    "positional arguments": "argumentos posicionales",
    "options": "opciones",
    "show this help message and exit": "muestra esta ayuda y termina",
    # `dpscale --help` (faces/cli/__init__.py)
    "dpscale {} — data-parallel scaling: A = d·v·E, S = d·E": (
        "dpscale {} — escalado con paralelismo de datos: A = d·v·E, S = d·E"
    ),
    "usage: dpscale [COMMAND] [OPTIONS]      (no command: calc; no inputs: the worked example)": (
        "uso: dpscale [ORDEN] [OPCIONES]      (sin orden: calc; sin entradas: el ejemplo resuelto)"
    ),
    "commands:": "órdenes:",
    "`dpscale COMMAND --help` lists a command's options.": (
        "`dpscale ORDEN --help --lang es` muestra las opciones de una orden."
    ),
    # the commands' one-line descriptions (COMMANDS)
    "throughput, speedup and E for d devices; solve for any unknown; sweeps over d": (
        "rendimiento, aceleración y E con d dispositivos; despeja cualquier incógnita; barridos sobre d"
    ),
    "predict E(d) from the model, batch, precision and cluster": (
        "predice E(d) a partir del modelo, el lote, la precisión y el clúster"
    ),
    "check predictions or fits against a published-measurements CSV": (
        "contrasta predicciones o ajustes con un CSV de mediciones publicadas"
    ),
    "fit a scaling law to measured runs and extrapolate with intervals": (
        "ajusta una ley de escalado a ejecuciones medidas y extrapola con intervalos"
    ),
    "measure E for real with PyTorch DDP (also: allreduce, equivalence)": (
        "mide E de verdad con DDP de PyTorch (también: allreduce, equivalence)"
    ),
    "global batch, learning-rate scaling, critical batch": (
        "lote global, escalado de la tasa de aprendizaje, lote crítico"
    ),
    "pipeline bubble and stacked data-parallel efficiency": (
        "burbuja del pipeline y eficiencia con paralelismo de datos encima"
    ),
    "per-device memory for DDP and ZeRO/FSDP; does it fit?": "memoria por dispositivo con DDP y ZeRO/FSDP; ¿cabe?",
    "time to train, device-hours and cost per size": "tiempo de entrenamiento, horas-dispositivo y coste por tamaño",
    "the web page (calculator, predictor, fit and planners, English and Spanish) on a local port": (
        "la página web (calculadora, predictor, ajuste y planificadores, en inglés y en español) en un puerto local"
    ),
    # shared by several commands (faces/cli/common.py)
    "inputs": "entradas",
    "output": "salida",
    "print JSON (machine keys, plain numbers)": "escribe JSON (claves de máquina, números simples)",
    "print CSV (machine keys, plain numbers)": "escribe CSV (claves de máquina, números simples)",
    "also write a plot (.png, .svg or .pdf)": "escribe también un gráfico (.png, .svg o .pdf)",
    "labels and number format (es: 115.200; 57,6×); default: the locale's (LANG)": (
        "idioma de las etiquetas y formato de los números (es: 115.200; 57,6×); por defecto, el de la configuración "
        "regional (LANG)"
    ),
    "scaling efficiency E(d)": "eficiencia de escalado E(d)",
    "E in (0, 1]: one value, or one per device count": "E en (0, 1]: un valor, o uno por número de dispositivos",
    "E(d) from a scaling law": "E(d) según una ley de escalado",
    "USL contention σ in [0, 1)": "contención σ de la USL en [0, 1)",
    "USL coherency κ from 0 to 1": "coherencia κ de la USL de 0 a 1",
    "Amdahl serial fraction in [0, 1)": "fracción serie de Amdahl en [0, 1)",
    "device count: N, N1,N2,..., A..BxF or A..B+S": "número de dispositivos: N, N1,N2,..., A..BxF o A..B+S",
    "throughput unit for labels (default samples/s)": (
        "unidad de rendimiento de las etiquetas (por defecto samples/s, que la salida escribe como muestras/s)"
    ),
    "throughput unit for labels (default: the runs' own, else samples/s)": (
        "unidad de rendimiento de las etiquetas (por defecto la de las ejecuciones; si no la indican, samples/s, que "
        "la salida escribe como muestras/s)"
    ),
    "devices per node; below a --system's, that many of each node's GPUs and the NICs they reach": (
        "dispositivos por nodo; por debajo de los de un --system, esas GPU de cada nodo y las NIC a su alcance"
    ),
    # calc
    "Give three of --devices, --throughput, E (--efficiency or --law) and --actual/--speedup; the fourth is "
    "solved. With no inputs: the worked example (64 × 2,000 × 0.9).": (
        "Indique tres de --devices, --throughput, E (--efficiency o --law) y --actual/--speedup; se despeja la "
        "cuarta. Sin entradas: el ejemplo resuelto (64 × 2.000 × 0,9)."
    ),
    "measured or target cluster throughput, in --unit (one per size)": (
        "rendimiento del clúster medido u objetivo, en --unit (uno por tamaño)"
    ),
    "measured or target speedup over one device": "aceleración medida u objetivo respecto a un dispositivo",
    # predict
    "Example: dpscale predict --model bert-large --precision amp --batch 32 --throughput 150 --system dgx-a100 "
    "--devices 1..1024x2. Its --json is E per size for dpscale plan --efficiency-file (time and cost).": (
        "Ejemplo: dpscale predict --model bert-large --precision amp --batch 32 --throughput 150 --system dgx-a100 "
        "--devices 1..1024x2. Su --json da E por tamaño para dpscale plan --efficiency-file (tiempo y coste)."
    ),
    "model and batch": "modelo y lote",
    "compute time (a measured baseline is preferred)": "tiempo de cómputo (mejor con una referencia medida)",
    "cluster": "clúster",
    "device counts (default 1..1024x2)": "números de dispositivos (por defecto 1..1024x2)",
    "preset: {}": "del catálogo: {}",
    "preset: {}; with --model-file, one of its models": "del catálogo: {}; con --model-file, uno de sus modelos",
    "parameter count (overrides the preset's)": "número de parámetros (sustituye al del catálogo)",
    "fp32, tf32, amp (autocast: fp32 gradients), fp16, bf16 (16-bit weights and gradients; bf16 autocast is amp), "
    "fp8 (the GPU's fp8 peak, bf16 weights, fp32 gradients) (default fp32)": (
        "fp32, tf32, amp (autocast: gradientes fp32), fp16, bf16 (pesos y gradientes de 16 bits; bf16 con autocast "
        "es amp), fp8 (el pico fp8 de la GPU, pesos bf16, gradientes fp32) (por defecto fp32)"
    ),
    "bytes per gradient element all-reduced (overrides the precision's)": (
        "bytes por elemento del gradiente en el all-reduce (sustituye a los de la precisión)"
    ),
    "bytes per parameter all-gathered under --zero (overrides the precision's weights; 1 for a float8 all-gather)": (
        "bytes por parámetro en el all-gather con --zero (sustituye a los pesos de la precisión; 1 para un "
        "all-gather en float8)"
    ),
    "per-device micro-batch (default 32)": "microlote por dispositivo (por defecto 32)",
    "micro-batches per optimizer step (DDP's all-reduce and ZeRO-1's reduce-scatter once per step, ZeRO-2/3's in "
    "every micro-batch; default 1)": (
        "microlotes por paso del optimizador (el all-reduce de DDP y el reduce-scatter de ZeRO-1 una vez por paso, "
        "los de ZeRO-2/3 en cada microlote; por defecto 1)"
    ),
    "a global batch fixed over the sizes (strong scaling), instead of --batch: each size's micro-batch is it / "
    "(devices × --grad-accum), a whole number at every size": (
        "un lote global fijo en todos los tamaños (escalado fuerte), en lugar de --batch: el microlote de cada tamaño "
        "es ese lote / (dispositivos × --grad-accum), un número entero en cada tamaño"
    ),
    "sequence length for transformer FLOPs (default: the model's, from its preset or --model-file)": (
        "longitud de secuencia para los FLOPs de un transformer (por defecto: la del modelo, de su entrada del "
        "catálogo o de --model-file)"
    ),
    "measured per-device samples/s at the baseline size (or --unit)": (
        "muestras/s por dispositivo medidas en el tamaño de referencia (o --unit)"
    ),
    "samples/s (default) or tokens/s, a language model's (samples/s × its sequence length): the unit of "
    '--throughput, --target-throughput and the rates shown (--json/--csv rows then say it in "unit")': (
        "samples/s (por defecto) o tokens/s, los de un modelo de lenguaje (muestras/s × su longitud de secuencia): la "
        "unidad de --throughput, --target-throughput y los rendimientos mostrados (las filas de --json/--csv la "
        'indican entonces en "unit")'
    ),
    "measured seconds per optimizer step at the baseline size (JSON's step_s; the table's step ms ÷ 1,000)": (
        "segundos por paso del optimizador medidos en el tamaño de referencia (el step_s del JSON; los ms de paso de "
        "la tabla ÷ 1.000)"
    ),
    "size the baseline was measured at (default 1)": "tamaño en el que se midió la referencia (por defecto 1)",
    "the GPU (default: the system's; in its place with --system): its peak for a FLOPs estimate, its memory speed for "
    "the synchronisation wait, its ring fill for the all-reduce (on every GPU but Hopper and Blackwell, mid-size "
    "buckets run below the link); it also tells apart systems that share a name (DGX-1 with v100-16gb): {}": (
        "la GPU (por defecto, la del sistema; en su lugar con --system): su pico para estimar por FLOPs, la velocidad "
        "de su memoria para la espera de sincronización, su llenado del anillo para el all-reduce (en toda GPU salvo "
        "Hopper y Blackwell, los buckets medianos van por debajo del enlace); también distingue sistemas que "
        "comparten nombre (DGX-1 con v100-16gb): {}"
    ),
    "model-FLOPs utilisation for the estimate (default {}; CNN presets: the middle of published ResNet-50 runs, {} "
    "of a tensor- or matrix-core peak, {} of NVIDIA's fp32 cores' (fp32; any precision on Pascal); fp8: {} of its "
    "peak, a CNN preset {}, torchao's published gain over bf16)": (
        "utilización de FLOPs del modelo para la estimación (por defecto {}; modelos CNN: el punto medio de las "
        "ejecuciones publicadas de ResNet-50, {} del pico de los tensor cores o matrix cores, {} del de los núcleos "
        "fp32 de NVIDIA (fp32; cualquier precisión en Pascal); fp8: {} de su pico, un modelo CNN {}, la ganancia "
        "sobre bf16 que publicó torchao)"
    ),
    "samples/s one node's input pipeline delivers (time the data loader alone); shared by the node's GPUs": (
        "muestras/s que entrega la carga de datos de un nodo (mida el cargador de datos solo); la comparten las GPU "
        "del nodo"
    ),
    "your own systems JSON (format of the catalog's systems.json; - reads standard input)": (
        "su propio JSON de sistemas (con el formato de systems.json del catálogo; - lee la entrada estándar)"
    ),
    "intra-node GB/s per device per direction (spec; 64GB/s, 600Gb/s also read)": (
        "GB/s dentro del nodo por dispositivo y sentido (nominales; también se lee 64GB/s, 600Gb/s)"
    ),
    "inter-node GB/s per node per direction (spec, all compute NICs: bytes, so 8 × 200 Gb/s is 200; 1600Gb/s, "
    "25GbE also read)": (
        "GB/s entre nodos por nodo y sentido (nominales, todas las NIC de cómputo: bytes, así que 8 × 200 Gb/s son "
        "200; también se lee 1600Gb/s, 25GbE)"
    ),
    "DDP bucket cap in MiB (default {}; with --zero 1 or 2, DeepSpeed's 5e8 elements; with --zero 3, FSDP's unit: "
    "one transformer layer, a preset's or one estimated from --params, else {})": (
        "tamaño máximo de un bucket de DDP en MiB (por defecto {}; con --zero 1 o 2, los 5e8 elementos de "
        "DeepSpeed; con --zero 3, la unidad de FSDP: una capa de transformer, la de un modelo del catálogo o una "
        "estimada a partir de --params; si no, {})"
    ),
    "shard the model states: 0 DDP (default), ZeRO 1, 2 or 3 (≈ FSDP full shard): reduce-scatter and all-gathers "
    "replace the all-reduce; by name too: ddp, zero1, zero2, zero3, fsdp (FULL_SHARD ≈ ZeRO-3)": (
        "reparte los estados del modelo: 0 DDP (por defecto), ZeRO 1, 2 o 3 (≈ FSDP full shard): reduce-scatter y "
        "all-gather sustituyen al all-reduce; también por su nombre: ddp, zero1, zero2, zero3, fsdp (FULL_SHARD ≈ "
        "ZeRO-3)"
    ),
    "all-reduce algorithm (default auto: the fastest, as NCCL's tuner picks)": (
        "algoritmo del all-reduce (por defecto auto: el más rápido, como elige el sintonizador de NCCL)"
    ),
    "DDP first bucket in MiB (default {}; with --zero, --bucket-mb's)": (
        "primer bucket de DDP en MiB (por defecto {}; con --zero, el de --bucket-mb)"
    ),
    "all-reduce only after backward ends": "el all-reduce solo cuando acaba el backward",
    "with --grad-accum > 1, the all-reduce overlaps the last micro-batch's backward (DDP no_sync); default: it "
    "follows the accumulation, as DeepLearningExamples, Horovod and Megatron do": (
        "con --grad-accum > 1, el all-reduce se solapa con el backward del último microlote (DDP no_sync); por "
        "defecto va tras la acumulación, como en DeepLearningExamples, Horovod y Megatron"
    ),
    "µs per intra-node hop, or with its unit: 0.5ms (default: a --calibration file's, else the system's link, PCIe "
    "5.7; else {}, NCCL's NVLink figure)": (
        "µs por salto dentro del nodo, o con su unidad: 0.5ms (por defecto: la de un archivo de --calibration; si "
        "no, según el enlace del sistema, PCIe 5.7; si no, {}, la cifra de NCCL para NVLink)"
    ),
    "µs per network hop, or with its unit: 0.5ms (default {}, NCCL's figure)": (
        "µs por salto de red, o con su unidad: 0.5ms (por defecto {}, la cifra de NCCL)"
    ),
    "calib.json from `dpscale measure allreduce --out` (- reads standard input)": (
        "calib.json que escribe `dpscale measure allreduce --out` (- lee la entrada estándar)"
    ),
    # validate
    "published measurements (format: validation/published_scaling_dev.md); several files are checked as one set; - "
    "reads one from standard input": (
        "mediciones publicadas (formato: validation/published_scaling_dev.md); varios archivos se comprueban como un "
        "solo conjunto; - lee uno de la entrada estándar"
    ),
    "predict: each row from its configuration's baseline (default); fit: fit all sizes but the largest, predict "
    "the largest": (
        "predict: cada fila a partir de la referencia de su configuración (por defecto); fit: ajusta todos los "
        "tamaños menos el mayor y predice el mayor"
    ),
    # fit
    "E is relative to the smallest measured size. The law is chosen by leave-one-out error; intervals come from a "
    "parametric bootstrap. Example: dpscale fit runs.csv --at 256,1024 --gpus-per-node 8. dpscale plan --fit "
    "runs.csv --samples 1.28e6 --epochs 90 plans time and cost on the fitted law.": (
        "E es relativa al menor tamaño medido. La ley se elige por su error dejando uno fuera; los intervalos salen "
        "de un bootstrap paramétrico. Ejemplo: dpscale fit runs.csv --at 256,1024 --gpus-per-node 8. dpscale plan "
        "--fit runs.csv --samples 1.28e6 --epochs 90 planifica tiempo y coste con la ley ajustada."
    ),
    "measured runs": "ejecuciones medidas",
    "questions": "preguntas",
    "uncertainty": "incertidumbre",
    "CSV (devices,throughput[,step_time]; throughput of the whole run, not per device) or JSON lines; - reads "
    "standard input": (
        "CSV (devices,throughput[,step_time]; rendimiento de toda la ejecución, no por dispositivo) o líneas JSON; - "
        "lee la entrada estándar"
    ),
    "a run: devices:whole-run throughput (repeatable)": (
        "una ejecución: dispositivos:rendimiento total (se puede repetir)"
    ),
    "of a measure file of several set-ups, the one to fit: workload=cnn, zero=1 (repeatable)": (
        "de un archivo de measure con varios montajes, el que se ajusta: workload=cnn, zero=1 (se puede repetir)"
    ),
    "with --fit: the set-up to fit, as `dpscale fit --only`": (
        "con --fit: el montaje que se ajusta, como `dpscale fit --only`"
    ),
    "devices per node: puts the all-reduce knee there": "dispositivos por nodo: ahí pone el codo del all-reduce",
    "force a law (default: auto, by leave-one-out)": "fuerza una ley (por defecto: auto, dejando uno fuera)",
    "sizes to predict: N, N1,N2,..., A..BxF or A..B+S (default: measured, 2×, 4×)": (
        "tamaños que predecir: N, N1,N2,..., A..BxF o A..B+S (por defecto: los medidos, 2×, 4×)"
    ),
    "devices needed to reach this cluster throughput": (
        "dispositivos necesarios para alcanzar este rendimiento del clúster"
    ),
    "largest size that keeps E at or above this": "mayor tamaño que mantiene E igual o por encima de este valor",
    "smallest size reaching this cluster samples/s (or --unit)": (
        "menor tamaño que alcanza estas muestras/s del clúster (o --unit)"
    ),
    "interval level in (0, 1) (default {})": "nivel del intervalo en (0, 1) (por defecto {})",
    "bootstrap resamples (default {})": "remuestreos del bootstrap (por defecto {})",
    "random seed for the bootstrap (default {})": "semilla aleatoria del bootstrap (por defecto {})",
    # measure
    "Modes: (none) train the workload with DDP (or sharded: --zero) at each size and report throughput, E, compute "
    "vs communication; `allreduce` an nccl-tests-style bandwidth table and α–β calibration; `equivalence` check "
    "that d ranks × batch b give the gradients of one batch of d·b. Multi-node: see docs/measure.md.": (
        "Modos: (ninguno) entrena la carga de trabajo con DDP (o repartida: --zero) en cada tamaño e informa del "
        "rendimiento, de E y del "
        "cómputo frente a la comunicación; `allreduce` da una tabla de ancho de banda al estilo de nccl-tests y la "
        "calibración α–β; `equivalence` comprueba que d procesos × lote b dan los gradientes de un lote de d·b. "
        "Varios nodos: vea docs/measure.md."
    ),
    "run": "ejecución",
    "what to measure (default: train)": "qué medir (por defecto: entrenar)",
    "world sizes: N, N1,N2,..., A..B, A..BxF or A..B+S (default 1,2; modes: 2)": (
        "números de procesos: N, N1,N2,..., A..B, A..BxF o A..B+S (por defecto 1 y 2; en los modos: 2)"
    ),
    "built-in model (default mlp)": "modelo incorporado (por defecto mlp)",
    "your model: a .py with build_model(), make_batch(n, gen)": (
        "su modelo: un .py con build_model(), make_batch(n, gen)"
    ),
    "per-rank batch (default {}; equivalence {})": "lote por proceso (por defecto {}; en equivalence {})",
    "timed steps per repeat and phase (default {})": "pasos cronometrados por repetición y fase (por defecto {})",
    "synchronised steps first, untimed; then min(N, 2) under no_sync, untimed too, none with --zero (default {})": (
        "pasos sincronizados al principio, sin cronometrar; luego min(N, 2) con no_sync, tampoco cronometrados, "
        "ninguno con --zero (por defecto {})"
    ),
    "repeats per size; throughput is their median (default {})": (
        "repeticiones por tamaño; el rendimiento es su mediana (por defecto {})"
    ),
    "allreduce message sizes (default {}, ×2 steps)": (
        "tamaños de mensaje del allreduce (por defecto {}, en pasos de ×2)"
    ),
    "allreduce iterations per size (default {})": "iteraciones del allreduce por tamaño (por defecto {})",
    "train sharded: 1 ZeroRedundancyOptimizer, 2–3 FSDP2 (3 ≈ FULL_SHARD); 0 DDP; by name too: ddp, zero1, zero2, "
    "zero3, fsdp (FULL_SHARD ≈ ZeRO-3)": (
        "entrena con los estados repartidos: 1 ZeroRedundancyOptimizer, 2–3 FSDP2 (3 ≈ FULL_SHARD); 0 DDP; también "
        "por su nombre: ddp, zero1, zero2, zero3, fsdp (FULL_SHARD ≈ ZeRO-3)"
    ),
    "train: append JSONL per size as it finishes; equivalence: its record, appended; allreduce: calib.json": (
        "al entrenar: añade una línea JSONL por tamaño según acaba; equivalence: añade su registro; allreduce: "
        "calib.json"
    ),
    "seconds without progress = hung (default {})": "segundos sin progreso = colgado (por defecto {})",
    "intra-op threads per rank (default: cores ÷ largest size)": (
        "hilos intra-op por proceso (por defecto: núcleos ÷ mayor tamaño)"
    ),
    "cuda uses NCCL, cpu gloo": "cuda usa NCCL, cpu gloo",
    "rendezvous TCP port on 127.0.0.1 (default 0: any)": (
        "puerto TCP de encuentro en 127.0.0.1 (por defecto 0: cualquiera)"
    ),
    # batch
    "global batch B = micro-batch × grad-accum × devices. LR: linear rule with warm-up for SGD (Goyal et al.), "
    "square-root rule for Adam (Malladi et al.). Critical batch (McCandlish et al.): steps = S_min(1 + B_noise/B), "
    "samples = E_min(1 + B/B_noise). With no inputs: 4 devices × 32 = 128.": (
        "Lote global B = microlote × pasos de acumulación × dispositivos. Tasa de aprendizaje: regla lineal con "
        "calentamiento para SGD (Goyal et al.), regla de la raíz cuadrada para Adam (Malladi et al.). Lote crítico "
        "(McCandlish et al.): pasos = S_min(1 + B_ruido/B), muestras = E_min(1 + B/B_ruido). Sin entradas: 4 "
        "dispositivos × 32 = 128."
    ),
    "batch": "lote",
    "learning rate": "tasa de aprendizaje",
    "critical batch": "lote crítico",
    "samples per device per forward/backward": "muestras por dispositivo en cada forward/backward",
    "gradient-accumulation steps (default 1)": "pasos de acumulación de gradientes (por defecto 1)",
    "device count: N, N1,N2,..., A..BxF or A..B+S (default 1)": (
        "número de dispositivos: N, N1,N2,..., A..BxF o A..B+S (por defecto 1)"
    ),
    "learning rate tuned at --base-batch": "tasa de aprendizaje ajustada con --base-batch",
    "global batch the base learning rate was tuned at, in samples as the batch (tokens ÷ sequence length)": (
        "lote global con el que se ajustó la tasa de aprendizaje base, en muestras como el lote (tokens ÷ longitud "
        "de secuencia)"
    ),
    "sgd (linear rule; default), adam or adamw (square-root rule)": (
        "sgd (regla lineal; por defecto), adam o adamw (regla de la raíz cuadrada)"
    ),
    "linear or sqrt (default: the optimizer's)": "linear o sqrt (por defecto: la del optimizador)",
    "samples per epoch, as the batch counts them (tokens ÷ sequence length; gives steps per epoch, warm-up steps)": (
        "muestras por época, como las cuenta el lote (tokens ÷ longitud de secuencia; da los pasos por época y los de "
        "calentamiento)"
    ),
    "warm-up length (default {} with the linear rule once the batch grows past --base-batch, Goyal; else none)": (
        "épocas de calentamiento (por defecto {} con la regla lineal cuando el lote supera --base-batch, Goyal; si "
        "no, ninguna)"
    ),
    "gradient noise scale B_noise ≈ B_crit, in samples as the batch (tokens ÷ sequence length)": (
        "escala de ruido del gradiente B_ruido ≈ B_crit, en muestras como el lote (tokens ÷ longitud de secuencia)"
    ),
    "S_min: steps to the target at infinite batch": "S_min: pasos hasta el objetivo con un lote infinito",
    # pipeline
    "bubble_fraction = bubble / total time = r/(1+r), r = bubble / ideal time: (p−1)/m for GPipe and 1F1B, "
    "(p−1)/(v·m) interleaved, (p−1)/(3m) ZB-H1, 0 ZB-H2; with m < p the least step any schedule reaches, "
    "(p − m + (m−1)/v)/m interleaved, (2p − m − 1)/(3m) zero-bubble. With no inputs: GPipe, p = 4, m = 8 (3/11).": (
        "fracción de burbuja (bubble_fraction) = burbuja / tiempo total = r/(1+r), con r = burbuja / tiempo ideal: "
        "(p−1)/m con GPipe y 1F1B, (p−1)/(v·m) con interleaved, (p−1)/(3m) con ZB-H1, 0 con ZB-H2; con m < p, el "
        "paso mínimo que alcanza cualquier planificación, (p − m + (m−1)/v)/m con interleaved, (2p − m − 1)/(3m) con "
        "zero-bubble. Sin entradas: GPipe, p = 4, m = 8 (3/11)."
    ),
    "pipeline": "paralelismo de pipeline",
    "data parallelism stacked on the pipeline": "paralelismo de datos sobre el pipeline",
    "pipeline stages p": "etapas de pipeline p",
    "micro-batches per step: M, M1,M2,..., A..BxF or A..B+S": "microlotes por paso: M, M1,M2,..., A..BxF o A..B+S",
    "{} (default 1f1b; the worked example, no inputs at all, is gpipe)": (
        "{} (por defecto 1f1b; el ejemplo resuelto, sin ninguna entrada, es gpipe)"
    ),
    "chunks per device, ≥ 2 (interleaved only)": "fragmentos por dispositivo, ≥ 2 (solo interleaved)",
    "total devices, a multiple of --stages": "dispositivos en total, un múltiplo de --stages",
    "data-parallel scaling E in (0, 1] of the devices/stages replicas, not of all the devices (predict it with "
    "-d devices/stages, one stage's share of --params and of --inter-bw, and --grad-accum M; default 1)": (
        "E del paralelismo de datos, en (0, 1], de las réplicas (dispositivos/etapas), no de todos los dispositivos "
        "(predict la da con -d dispositivos/etapas, la parte de --params y de --inter-bw de una etapa y --grad-accum "
        "M; por defecto 1)"
    ),
    # memory
    "Model states per device: DDP (P+G+K)Ψ, ZeRO-1 (P+G)Ψ + KΨ/N, ZeRO-2 PΨ + (G+K)Ψ/N, ZeRO-3 / FSDP full shard "
    "(P+G+K)Ψ/N; activations (Korthikanti et al.) are not sharded. With none of --params, --model, --devices, "
    "--zero, --gpu, --gpu-memory: the ZeRO paper's 7.5B parameters on 64 devices (a note says so when other flags "
    "were typed).": (
        "Estados del modelo por dispositivo: DDP (P+G+K)Ψ, ZeRO-1 (P+G)Ψ + KΨ/N, ZeRO-2 PΨ + (G+K)Ψ/N, ZeRO-3 / "
        "FSDP full shard (P+G+K)Ψ/N; las activaciones (Korthikanti et al.) no se reparten. Sin --params, --model, "
        "--devices, --zero, --gpu ni --gpu-memory: los 7,5 mil millones de parámetros del artículo de ZeRO en 64 "
        "dispositivos (una nota lo dice si se escribieron otras opciones)."
    ),
    "model and cluster": "modelo y clúster",
    "activations (with a transformer --model)": "activaciones (con un --model transformer)",
    "device": "dispositivo",
    "parameter count, e.g. 7.5e9 (default: the --model preset's)": (
        "número de parámetros, p. ej. 7.5e9 (por defecto: el del --model del catálogo)"
    ),
    "model preset from the catalog (transformers give activations); with --model-file, one of its models": (
        "modelo predefinido del catálogo (los transformers dan activaciones); con --model-file, uno de sus modelos"
    ),
    "your own model: a JSON file in the format of the catalog's models.json (kind, params, layers, hidden, heads, "
    "seq_len, …), or a Hugging Face config.json of a Llama, Mistral, Mixtral, Qwen2, Gemma, Gemma 2 or Phi-3 "
    "model, its count derived from its shape (- reads standard input)": (
        "su propio modelo: un archivo JSON con el formato de models.json del catálogo (kind, params, layers, hidden, "
        "heads, seq_len, …), o un config.json de Hugging Face de un modelo Llama, Mistral, Mixtral, Qwen2, Gemma, "
        "Gemma 2 o Phi-3, cuyo número de parámetros se deriva de su forma (- lee la entrada estándar)"
    ),
    "data-parallel devices (default 1)": "dispositivos con paralelismo de datos (por defecto 1)",
    "0 (DDP), 1, 2 or 3 (≈ FSDP full shard), or by name: ddp, zero1, zero2, zero3, fsdp (FULL_SHARD ≈ ZeRO-3); "
    "default: all four": (
        "0 (DDP), 1, 2 o 3 (≈ FSDP full shard), o por su nombre: ddp, zero1, zero2, zero3, fsdp (FULL_SHARD ≈ "
        "ZeRO-3); por defecto: las cuatro"
    ),
    "adam (default), adamw (the same states) or sgd (with momentum)": (
        "adam (por defecto), adamw (los mismos estados) o sgd (con momento)"
    ),
    "mixed (16-bit + fp32 master, the ZeRO paper's, default), amp (torch.autocast: fp32 weights, gradients and "
    "states, 16-bit activations), fp32, bf16 (pure, no master copy), or fp8 (Megatron's: bf16 weights, fp32 "
    "gradients and master, {} bytes with Adam)": (
        "mixed (16 bits + copia maestra fp32, la del artículo de ZeRO, por defecto), amp (torch.autocast: pesos, "
        "gradientes y estados en fp32, activaciones de 16 bits), fp32, bf16 (puro, sin copia maestra), o fp8 (el de "
        "Megatron: pesos bf16, gradientes y copia maestra fp32, {} bytes con Adam)"
    ),
    "micro-batch per device (default 1); with --gpu or --gpu-memory a note gives the largest that fits": (
        "microlote por dispositivo (por defecto 1); con --gpu o --gpu-memory una nota da el mayor que cabe"
    ),
    "sequence length (default: the model's, from its preset or --model-file)": (
        "longitud de secuencia (por defecto: la del modelo, de su entrada del catálogo o de --model-file)"
    ),
    "tensor-parallel size: weights (model states) and activations split T ways (default 1)": (
        "grado de paralelismo de tensor: pesos (estados del modelo) y activaciones repartidos en T partes "
        "(por defecto 1)"
    ),
    "shard the non-tensor-parallel activations too": (
        "reparte también las activaciones que el paralelismo de tensor no reparte"
    ),
    "none, selective (attention scores recomputed; ≈ FlashAttention: flash is read as selective) or full": (
        "none, selective (se recalculan las puntuaciones de atención; ≈ FlashAttention: flash se lee como "
        "selective) o full"
    ),
    "accelerator from the catalog, e.g. a100-80gb": "acelerador del catálogo, p. ej. a100-80gb",
    "device memory in GB as sold: 80 for an 80 GB card (80 GiB); not with --gpu": (
        "memoria del dispositivo en GB tal como se vende: 80 para una tarjeta de 80 GB (80 GiB); no junto con --gpu"
    ),
    # plan
    "hours = samples × epochs / (d·v·E) / 3600; device-hours = d × hours; cost = device-hours × price, or per node "
    "of G devices ⌈d/G⌉ × hours × node price (a partial node billed whole). Knee: the "
    "size after which every added device adds under {} of a device's speed-up (--knee-threshold). With no inputs: "
    "ImageNet, 90 epochs, 2,000 samples/s, E = 0.9, 2.5/device-hour, 24 h.": (
        "horas = muestras × épocas / (d·v·E) / 3600; horas-dispositivo = d × horas; coste = horas-dispositivo × "
        "precio, o por nodo de G dispositivos ⌈d/G⌉ × horas × precio del nodo (un nodo a medias se factura entero). "
        "Codo: el tamaño a partir del cual cada dispositivo añadido aporta menos de {n} de la aceleración de "
        "un dispositivo (--knee-threshold). Sin entradas: ImageNet, 90 épocas, 2.000 muestras/s, E = 0,9, 2,5 por "
        "hora-dispositivo, 24 h."
    ),
    "training run": "entrenamiento",
    "money and time": "dinero y tiempo",
    "samples per epoch, or what --unit counts (tokens for tokens/s), e.g. 1.28e6": (
        "muestras por época, o lo que cuente --unit (tokens con tokens/s), p. ej. 1.28e6"
    ),
    "per-device throughput alone (samples/s, or --unit)": "rendimiento de un solo dispositivo (muestras/s, o --unit)",
    "epochs (default 1)": "épocas (por defecto 1)",
    "sizes: N, N1,N2,..., A..BxF or A..B+S (default 1..256x2)": (
        "tamaños: N, N1,N2,..., A..BxF o A..B+S (por defecto 1..256x2)"
    ),
    "price of one device for one hour, in any currency (costs come out in it)": (
        "precio de un dispositivo durante una hora, en cualquier moneda (los costes salen en ella)"
    ),
    "finish within T: 24h, 90m, 2d, 1d12h, or hours": "plazo máximo T: 24h, 90m, 2d, 1d12h, u horas",
    "spend at most B, in the price's currency (needs a price per device- or node-hour)": (
        "gasto máximo B, en la moneda del precio (necesita un precio por hora-dispositivo o por hora-nodo)"
    ),
    "price of one node for one hour, as clouds bill instances (with --gpus-per-node G; a partial node is billed "
    "whole), instead of --price-per-device-hour": (
        "precio de un nodo durante una hora, como facturan las nubes sus instancias (con --gpus-per-node G; un nodo "
        "a medias se factura entero), en lugar de --price-per-device-hour"
    ),
    "marginal speed-up per added device that marks the knee (default 0.5)": (
        "aceleración marginal por dispositivo añadido que marca el codo (por defecto 0.5)"
    ),
    "E(d) fitted to measured runs (CSV/JSON lines, as `dpscale fit`); v from them too; - reads standard input": (
        "E(d) ajustada a ejecuciones medidas (CSV o líneas JSON, como `dpscale fit`); v también sale de ellas; - lee "
        "la entrada estándar"
    ),
    "devices per node: with --fit, as `dpscale fit --gpus-per-node`; with --price-per-node-hour, the devices a "
    "node's price buys (plan has no --system: 8 for a DGX/HGX node)": (
        "dispositivos por nodo: con --fit, como `dpscale fit --gpus-per-node`; con --price-per-node-hour, los "
        "dispositivos que compra el precio de un nodo (plan no tiene --system: 8 para un nodo DGX/HGX)"
    ),
    "E per size from what `dpscale predict --json` (or `fit`/`measure --json`) wrote, - to pipe it in; its sizes by "
    "default": (
        "E por tamaño a partir de lo que escribió `dpscale predict --json` (o `fit`/`measure --json`), - para pasarlo "
        "por una tubería; por defecto, sus tamaños"
    ),
    # serve
    "address to listen on (default 127.0.0.1: this machine only)": (
        "dirección en la que escuchar (por defecto 127.0.0.1: solo esta máquina)"
    ),
    "port (default 8000)": "puerto (por defecto 8000)",
    "the page's first language (the page has a menu); default: each browser's own": (
        "el idioma inicial de la página (la página tiene un menú); por defecto, el de cada navegador"
    ),
}


@lru_cache(maxsize=1)
def _templates() -> tuple[tuple[re.Pattern[str], str], ...]:
    """The entries with slots, the one with the most fixed text first: 'preset: {}' (--system's) also matched
    '--model''s 'preset: {}; with --model-file, one of its models', and left its tail in English (review JH)."""
    keys = sorted((k for k in HELP_ES if "{}" in k), key=lambda k: -len(k.replace("{}", "")))
    return tuple((re.compile("(.+?)".join(map(re.escape, k.split("{}"))), re.DOTALL), HELP_ES[k]) for k in keys)


def spanish(text: str) -> str | None:
    """The Spanish of one English help text, or None where HELP_ES has no entry for it."""
    if text in HELP_ES:
        return HELP_ES[text]
    found = next(((m, es) for pattern, es in _templates() if (m := pattern.fullmatch(text))), None)
    if found is None:
        return None
    parts = iter(found[0].groups())

    def fill(slot: re.Match[str]) -> str:
        part = next(parts)
        return localise(part, "es") if slot[1] else part  # {n}: a number in prose, 0.5 → 0,5

    return re.sub(r"\{(n?)\}", fill, found[1])
