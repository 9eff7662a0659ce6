"""Spanish for the errors: what an input allows, the free-form refusals, measure's failures and the reasons
quoted inside them. Loaded only when an error is said in Spanish (faces.i18n.say_error, say_measure)."""

from __future__ import annotations

import re

from dpscale.outputs import OTHER_OUTPUT
from dpscale.sources.fit_runs import RUNS_FILE

# What an input allows, for the errors the pages and tables meet most (errors.fail's third part, as written
# there); a phrase without an entry stays as written. The flag names stay: they are what one types.
# A Spanish reader is told one way to write numbers, whichever English hint fired (2,000 · 2,5 · 2.000).
_ES_NUMBER_STYLE = "un número sin separador de miles y con punto decimal: 2000 para dos mil, 2.5 para dos y medio"

ALLOWED: dict[str, dict[str, str]] = {
    "es": {
        "a finite number > 0": "un número finito > 0",
        "mixed, amp, fp32, bf16, fp8 (fp16 training with an fp32 master is mixed here, tf32 is stored as fp32)": (
            "mixed, amp, fp32, bf16, fp8 (el entrenamiento fp16 con copia maestra fp32 es aquí mixed; tf32 se guarda "
            "como fp32)"
        ),
        "a `dpscale measure` record, one a line (a line cut short or typed by hand: fix or remove it)": (
            "un registro de `dpscale measure`, uno por línea (una línea cortada o escrita a mano: corríjala o quítela)"
        ),
        "only for a FLOPs estimate: a measured --throughput/--step-time already sets the compute": (
            "solo para una estimación por FLOPs: un --throughput/--step-time medido ya fija el cómputo"
        ),
        "1, or the size a --throughput or --step-time was measured at (a FLOPs estimate is one device's)": (
            "1, o el tamaño en que se midió un --throughput o --step-time (una estimación por FLOPs es de un "
            "dispositivo)"
        ),
        "sizes from the smallest measured run in --fit: ": "tamaños desde la ejecución medida más pequeña de --fit: ",
        "this command's options: ": "las opciones de esta orden: ",
        "a learning rate from 1e-12 to 1e6": "una tasa de aprendizaje de 1e-12 a 1e6",
        "a sample count from 1e-9 to 1e15": "un número de muestras de 1e-9 a 1e15",
        "a batch size from 1e-9 to 2^53": "un tamaño de lote de 1e-9 a 2^53",
        "a noise scale B_noise from 1e-9 to 1e15 samples": "una escala de ruido B_ruido de 1e-9 a 1e15 muestras",
        "a number of epochs from 0 to 10,000": "un número de épocas de 0 a 10.000",
        "a global batch of at most 2^53 samples": "un lote global de como mucho 2^53 muestras",
        "application/json (the body is read as JSON only under it)": (
            "application/json (el cuerpo se lee como JSON solo con él)"
        ),
        "this machine's loopback names (`serve --host` sets the address): ": (
            "los nombres de bucle local de esta máquina (`serve --host` fija la dirección): "
        ),
        "the command line (not available on the web page)": (
            "solo en la línea de órdenes (la página web no ofrece esta opción)"
        ),
        "a number": "un número",
        "one precision, not two": "una sola precisión, no dos",
        "each field once (this one is given twice)": "cada campo una sola vez (este aparece dos veces)",
        "a network's name": "el nombre de una red",
        "one number": "un solo número",
        "with --zero 1–3 only (DDP all-gathers no parameters)": (
            "solo con --zero 1–3 (DDP no hace all-gather de parámetros)"
        ),
        "bytes with K/M/G suffixes (binary): 1KB..256MB, 1KB..256MBx4, or a list 1KB,1MB,64MB (4 B to 4 GB)": (
            "bytes con sufijos K/M/G (binarios): 1KB..256MB, 1KB..256MBx4, o una lista 1KB,1MB,64MB (de 4 B a 4 GB)"
        ),
        "a name (text)": "un nombre (texto)",
        "a name, or None where it is not given": "un nombre, o None donde no se da",
        "E = 1 at one device, its own reference (a single number is held at 1 there)": (
            "E = 1 en un dispositivo, su propia referencia (un solo número se fija en 1 allí)"
        ),
        "a step count from 1e-9 to 1e15": "un número de pasos de 1e-9 a 1e15",
        "True or False": "True o False",
        "device counts from 1 to 10,000,000 (between whole sizes too)": (
            "números de dispositivos de 1 a 10.000.000 (también entre tamaños enteros)"
        ),
        "a whole number ≥ 1": "un número entero ≥ 1",
        "a whole number ≥ 2": "un número entero ≥ 2",  # --chunks under --schedule interleaved
        "a configuration id": "un identificador de configuración",
        "a readable CSV file": "un archivo CSV legible",
        "a scaling efficiency in (0, 1]": "una eficiencia de escalado en (0, 1]",
        "a scaling efficiency in (0, 1], or one per size": "una eficiencia de escalado en (0, 1], o una por tamaño",
        "one value, or one per size given in --devices": "un valor, o uno por tamaño dado en --devices",
        "a scaling efficiency in (0, 1] with a decimal point (0.9); a comma separates one value per size": (
            "una eficiencia de escalado en (0, 1] con punto decimal (0.9); la coma separa un valor por tamaño"
        ),
        "a finite throughput > 0": "un rendimiento finito > 0",
        "numbers with a decimal point (0.9); a comma separates one value per size": (
            "números con punto decimal (0.9); la coma separa un valor por tamaño"
        ),
        "a finite per-device throughput > 0": "un rendimiento por dispositivo finito > 0",
        "finite numbers > 0": "números finitos > 0",
        (
            "no point before exactly three digits, which Spanish writes for thousands (2.000 = two thousand): 2000 "
            "for two thousand, 2.5 or 2.50 for two and a half"
        ): (
            "ningún punto ante exactamente tres cifras, que en español separa los miles (2.000 = dos mil): 2000 para "
            "dos mil, 2.5 o 2.50 para dos y medio"
        ),
        "a contention σ in [0, 1)": "una contención σ en [0, 1)",
        "a number without thousands separators: 2000, not 2,000": _ES_NUMBER_STYLE,
        "a number with a decimal point: 2.5, not 2,5": _ES_NUMBER_STYLE,
        "a number in the digits 0-9, without '_' (1000, not 1_000)": (
            "un número con las cifras 0-9, sin '_' (1000, no 1_000)"
        ),
        "a value (true is for switches such as no_overlap)": "un valor (true es para interruptores como no_overlap)",
        "true or false (a switch)": "true o false (un interruptor)",
        "a number or text, as typed on the command line": "un número o un texto, como en la línea de órdenes",
        "at most 10,000 on the page (the command line takes up to 100,000)": (
            "como mucho 10.000 en la página (la línea de órdenes admite hasta 100.000)"
        ),
        "text that UTF-8 can write (no lone surrogate such as \\ud800)": (
            "un texto que UTF-8 pueda escribir (sin un sustituto suelto como \\ud800)"
        ),
        "a coherency κ from 0 to 1": "una coherencia κ de 0 a 1",
        "a duration > 0 such as 24h, 90m, 2d, 1d12h, 3600s, or hours as a plain number": (
            "una duración > 0 como 24h, 90m, 2d, 1d12h, 3600s, u horas como número simple"
        ),
        "a duration > 0 such as 24h, 90m, 2d, 1d12h, 3600s, or hours as a plain number, without thousands separators "
        "(2000h, not 2,000h)": (
            "una duración > 0 como 24h, 90m, 2d, 1d12h, 3600s, u horas como número simple, sin separador de miles y "
            "con punto decimal (2000h para dos mil horas, 1.5h para hora y media)"
        ),
        "a duration > 0 such as 24h, 90m, 2d, 1d12h, 3600s, or hours as a plain number, with a decimal point (1.5h, "
        "not 1,5h)": (
            "una duración > 0 como 24h, 90m, 2d, 1d12h, 3600s, u horas como número simple, con punto decimal (1.5h, "
            "no 1,5h)"
        ),
        "a device memory in GB as sold, a plain number from 0.1 to 4,096 (80 for an 80 GB card)": (
            "una memoria de dispositivo en GB tal como se vende, un número simple de 0,1 a 4.096 (80 para una "
            "tarjeta de 80 GB)"
        ),
        "2 or more with --schedule interleaved (1 chunk is --schedule 1f1b)": (
            "2 o más con --schedule interleaved (1 fragmento es --schedule 1f1b)"
        ),
        "a file name ending in": "un nombre de archivo terminado en",
        "a readable CSV or JSON-lines file": "un archivo CSV o de líneas JSON legible",
        "at most 10,000 characters": "como mucho 10.000 caracteres",
        "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency)": (
            "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency)"
        ),
        "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency); this file "
        "holds runs, one a line (`measure --out`): give it as --fit FILE": (
            "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency); este archivo "
            "tiene ejecuciones, una por línea (`measure --out`): páselo como --fit ARCHIVO"
        ),
        "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency); this file "
        "is a CSV of runs (`measure --csv`): give it as --fit FILE": (
            "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency); este archivo "
            "es un CSV de ejecuciones (`measure --csv`): páselo como --fit ARCHIVO"
        ),
        "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency); this is an "
        "all-reduce calibration (for predict --calibration)": (
            "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency); es una "
            "calibración del all-reduce (para predict --calibration)"
        ),
        "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency); this file's "
        "records have no efficiency (the JSON of pipeline, memory or batch gives no E per size)": (
            "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency); los registros "
            "de este archivo no tienen efficiency (el JSON de pipeline, memory o batch no da una E por tamaño)"
        ),
        "auto or ring with --zero 1–3 (its reduce-scatters and gathers are rings)": (
            "auto o ring con --zero 1–3 (sus reduce-scatter y all-gather son anillos)"
        ),
        'an object {"2": 25, "4": 100}: GPU counts below gpus_per_node, GB/s per GPU per direction': (
            'un objeto {"2": 25, "4": 100}: números de GPU menores que gpus_per_node, GB/s por GPU y sentido'
        ),
        "a unit label on one line, at most 40 characters (samples/s, tokens/s)": (
            "una unidad en una línea, como mucho 40 caracteres (samples/s, tokens/s)"
        ),
        "samples/s or tokens/s (a language model's: samples/s × its sequence length)": (
            "samples/s o tokens/s (los de un modelo de lenguaje: muestras/s × su longitud de secuencia)"
        ),
        "samples/s: this model has no tokens a sample — tokens/s is a language model's (a preset with a vocabulary, "
        "or --params with --seq-len)": (
            "samples/s: este modelo no tiene tokens por muestra — tokens/s es de un modelo de lenguaje (un modelo "
            "predefinido con vocabulario, o --params con --seq-len)"
        ),
        "the unit without its per-device part (it labels the cluster's throughputs too): ": (
            "la unidad sin su parte por dispositivo (rotula también los rendimientos del clúster): "
        ),
        "a whole number of threads a rank, 1 to 1,024": "un número entero de hilos por proceso, de 1 a 1.024",
        "devices × batch / step_time, as `dpscale measure` wrote it (the record was edited: fix or remove the line)": (
            "devices × batch / step_time, como lo escribió `dpscale measure` (el registro se editó: corríjalo o quite "
            "la línea)"
        ),
        "the host's CPU cores, a whole number from 1 to 1,000,000": (
            "los núcleos de CPU de la máquina, un número entero de 1 a 1.000.000"
        ),
        "KEY=VALUE with KEY one of workload, params, batch, backend, device, steps, threads, zero "
        "(e.g. workload=cnn)": (
            # (every key as the record writes it, quoted alike: `steps` alone was once quoted, read as stressed)
            "CLAVE=VALOR con CLAVE una de las del registro (`workload`, `params`, `batch`, `backend`, `device`, "
            "`steps`, `threads`, `zero`; p. ej. workload=cnn)"
        ),
        "one value per KEY (one set-up is fitted at a time)": "un valor por CLAVE (se ajusta un montaje cada vez)",
        "E in (0, 1]": "E en (0, 1]",
        "measured runs as devices:throughput, one or more a line (1:1000 8:7500), a JSON object a line "
        '({"devices": 8, "throughput": 7500}) or rows under a header devices,throughput': (
            "ejecuciones medidas como dispositivos:rendimiento, una o más por línea (1:1000 8:7500), un objeto JSON "
            'por línea ({"devices": 8, "throughput": 7500}) o filas bajo una cabecera devices,throughput'
        ),
        "one device count, a whole number without thousands separators (memory takes no list: run it once per count)": (
            "un número de dispositivos, entero y sin separador de miles (memory no admite listas: ejecútelo una vez "
            "por número)"
        ),
        "E in (0, 1], or up to 1.02 (a repeat's spread, planned as 1): a measured E above that (superlinear, which "
        "calc and measure report) is not planned on; fit the runs (plan --fit), whose laws stay at or below 1, or give "
        "--efficiency": (
            "E en (0, 1], o hasta 1,02 (la dispersión de una repetición, que se planifica como 1): una E medida por "
            "encima de eso (superlineal, que calc y measure informan) no se planifica; ajuste las ejecuciones (plan "
            "--fit), cuyas leyes no pasan de 1, o dé --efficiency"
        ),
        "one E per size": "una E por tamaño",
        "one throughput unit per file": "una unidad de rendimiento por archivo",
        "a file other than the command's input files, which the plot would overwrite": (
            "un archivo distinto de los archivos de entrada de la orden, que el gráfico sobrescribiría"
        ),
        "a rate per second (samples/s, tokens/s), typed or stated by the file read: plan's hours count seconds": (
            "un ritmo por segundo (samples/s, tokens/s), indicado o declarado por el archivo leído: las horas de plan "
            "cuentan segundos"
        ),
        "sizes in --efficiency-file": "tamaños de --efficiency-file",
        "a path in an existing folder": "una ruta en una carpeta que exista",
        "a file this user can write": "un archivo que este usuario pueda escribir",
        "a serial fraction in [0, 1)": "una fracción serie en [0, 1)",
        "a number from 1e-9 to 1e15": "un número de 1e-9 a 1e15",
        "one run a flag: --point 1:900 --point 2:1750 (repeat --point)": (
            "una ejecución por opción: --point 1:900 --point 2:1750 (repita --point)"
        ),
        "a number written out: 1.28e6, not 1.28M (3e11, not 300B)": (
            "un número escrito entero o en notación e: 1.28e6, no 1.28M (3e11, no 300B)"
        ),
        "a plain number: no currency sign or code": "un número solo: sin símbolo ni código de moneda",
        "DEVICES:THROUGHPUT, e.g. 8:5120 (or D:X:STEP_SECONDS)": (
            "DISPOSITIVOS:RENDIMIENTO, p. ej. 8:5120 (o D:X:SEGUNDOS_POR_PASO)"
        ),
        "numbers without thousands separators (1024, not 1,024): a comma separates values": (
            "números sin separador de miles (1024, no 1,024): la coma separa valores"
        ),
        "sizes: at most ": "tamaños: como mucho ",
        "sizes: at most 100,000": "tamaños: como mucho 100.000",
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
        "a finite budget > 0 (leave --budget out for no limit)": (
            "un presupuesto finito > 0 (quite --budget para no tener límite)"
        ),
        "a finite budget > 0 (leave 'Budget' empty for no limit)": (  # the web page's (app.PAGE_ALLOWED)
            "un presupuesto finito > 0 (deje «Presupuesto» vacío para no tener límite)"
        ),
        "a latency in µs per hop, from 0 to 1,000,000": "una latencia en µs por salto, de 0 a 1.000.000",
        "a latency in µs per hop, from 0 to 1,000,000, or with its unit: 3.4us, 3.4µs, 0.5ms": (
            "una latencia en µs por salto, de 0 a 1.000.000, o con su unidad: 3.4us, 3.4µs, 0.5ms"
        ),
        "a level in (0, 1), e.g. 0.9": "un nivel en (0, 1), p. ej. 0.9",
        "a marginal speed-up per device in [0, 1]": "una aceleración marginal por dispositivo en [0, 1]",
        "a degree that keeps the GPUs in all (devices × tensor-parallel) at most 10,000,000": (
            "un grado que deje las GPU en total (dispositivos × paralelismo de tensor) en 10.000.000 como mucho"
        ),
        "with --base-lr and --base-batch (the reference learning rate)": (
            "con --base-lr y --base-batch (la tasa de aprendizaje de referencia)"
        ),
        "a price whose cost in device-hours stays finite": (
            "un precio cuyo coste en horas-dispositivo siga siendo finito"
        ),
        "a price whose cost in node-hours stays finite": "un precio cuyo coste en horas-nodo siga siendo finito",
        "a finite price > 0": "un precio finito > 0",
        "a finite sample count > 0": "un número de muestras finito > 0",
        "an epoch count whose product with the samples stays finite": (
            "un número de épocas cuyo producto por las muestras sea finito"
        ),
        "a sample count whose time at these throughputs stays above 0 s": (
            "un número de muestras cuyo tiempo a estos rendimientos quede por encima de 0 s"
        ),
        "an epoch count whose time at these throughputs stays above 0 s": (
            "un número de épocas cuyo tiempo a estos rendimientos quede por encima de 0 s"
        ),
        "an E whose time at these sizes stays finite": "una E con la que el tiempo a estos tamaños sea finito",
        "a throughput whose time for these samples stays finite": (
            "un rendimiento con el que el tiempo de estas muestras sea finito"
        ),
        "a sample count whose time at this throughput stays finite": (
            "un número de muestras cuyo tiempo a este rendimiento sea finito"
        ),
        "an epoch count whose time at this throughput stays finite": (
            "un número de épocas cuyo tiempo a este rendimiento sea finito"
        ),
        "a sample count whose product with the epochs stays finite": (
            "un número de muestras cuyo producto por las épocas sea finito"
        ),
        "activation bytes from 0 to 1e300": "bytes de activaciones de 0 a 1e300",
        "an efficiency in (0, 1]": "una eficiencia en (0, 1]",
        "a finite epoch count > 0": "un número de épocas finito > 0",
        "at least one device count": "al menos un número de dispositivos",
        "at least one value": "al menos un valor",
        "both, or neither": "ambos, o ninguno",
        "bytes per gradient element, from 0.001 to 8 (fp64)": "bytes por elemento del gradiente, de 0,001 a 8 (fp64)",
        "bytes per parameter all-gathered, from 0.001 to 8 (fp64)": (
            "bytes por parámetro en el all-gather, de 0,001 a 8 (fp64)"
        ),
        "one world size ≥ 2 for allreduce": "un único tamaño ≥ 2 para allreduce",
        "world sizes ≥ 2 for equivalence": "tamaños ≥ 2 para equivalence",
        "per-device tokens/s at the baseline size (1e-9 to 1e15 samples/s × the sequence length): ": (
            "tokens/s por dispositivo en el tamaño de referencia (de 1e-9 a 1e15 muestras/s × la longitud de "
            "secuencia): "
        ),
        "per-device samples/s at the baseline size, 1e-9 to 1e15": (
            "muestras/s por dispositivo en el tamaño de referencia, de 1e-9 a 1e15"
        ),
        "a bandwidth in GB/s, from 0.001 to 1,000,000": "un ancho de banda en GB/s, de 0,001 a 1.000.000",
        # (the flag's, with its units: faces.cli.common.bandwidth)
        "a bandwidth in GB/s, from 0.001 to 1,000,000, or with its unit: 200Gb/s (bits, ÷ 8), 400GbE, 25GB/s": (
            "un ancho de banda en GB/s, de 0,001 a 1.000.000, o con su unidad: 200Gb/s (bits, ÷ 8), 400GbE, 25GB/s"
        ),
        "a bucket size in MiB, from 1/1024 (1 KiB) to 1,000,000": (
            "un tamaño de bucket en MiB, de 1/1024 (1 KiB) a 1.000.000"
        ),
        "seconds from 1 to 1,000,000 (a shorter watchdog trips on a healthy step's pauses)": (
            "segundos de 1 a 1.000.000 (un vigilante más corto salta con las pausas normales de un paso)"
        ),
        "a whole multiple of the stages (stages × replicas): ": (
            "un múltiplo entero de las etapas (etapas × réplicas): "
        ),
        "at most the device count: ": "como mucho el número de dispositivos: ",
        "a parameter count from 1,000 to 1e+15 (7.5e9 for 7.5 billion)": (
            "un número de parámetros de 1.000 a 1e+15 (7.5e9 para 7.500 millones)"
        ),
        "seconds > 0": "segundos > 0",
        "a bandwidth in GB/s > 0, or with its unit: 200Gb/s (bits, ÷ 8), 400GbE, 25GB/s": (
            "un ancho de banda en GB/s > 0, o con su unidad: 200Gb/s (bits, ÷ 8), 400GbE, 25GB/s"
        ),
        "a model-FLOPs utilisation from 1e-6 to 1": "una utilización de FLOPs del modelo de 1e-6 a 1",
        "samples/s one node's input pipeline delivers, from 1e-9 to 1e15": (
            "muestras/s que entrega la carga de datos de un nodo, de 1e-9 a 1e15"
        ),
        "whole numbers from 1 to 10,000,000: N, a list N1,N2,..., or a range A..B, A..BxF (geometric, F > 1), A..B+S": (
            "números enteros de 1 a 10.000.000: N, una lista N1,N2,..., o un rango A..B, A..BxF (geométrico, F > 1), "
            "A..B+S"
        ),
    },
}


# Another command's output, as every reader of a file names it (outputs.OTHER_OUTPUT), and what each reader takes:
# said by SAID's one pattern whatever the pair (review ML; predict --calibration's four since review MH)
_OTHER_ES = {
    OTHER_OUTPUT["fit"]: "una ley ajustada (`dpscale fit --json`, para plan --efficiency-file)",
    OTHER_OUTPUT["predict"]: "E predicha por tamaño (`dpscale predict --json`, para plan --efficiency-file)",
    OTHER_OUTPUT["calc"]: "la respuesta de calc (`dpscale calc --json`, para plan --efficiency-file)",
    OTHER_OUTPUT["validate"]: "las puntuaciones de una validación (`dpscale validate --json`, que ningún comando lee)",
    OTHER_OUTPUT["plan"]: "los tamaños y la E de un plan (`dpscale plan --json`, para plan --efficiency-file)",
    OTHER_OUTPUT["memory"]: "la memoria por dispositivo (`dpscale memory --json`, que ningún comando lee)",
    OTHER_OUTPUT["pipeline"]: "la burbuja de un pipeline (`dpscale pipeline --json`, que ningún comando lee)",
    OTHER_OUTPUT["batch"]: "un lote global y su tasa de aprendizaje (`dpscale batch --json`, que ningún comando lee)",
    OTHER_OUTPUT["calibration"]: (
        "una calibración del all-reduce (`dpscale measure allreduce --out`, para predict --calibration)"
    ),
    OTHER_OUTPUT["runs"]: "ejecuciones de `dpscale measure` (para fit y plan --fit)",
    OTHER_OUTPUT["system"]: "un archivo de sistemas (como systems.json, para predict --system-file)",
    OTHER_OUTPUT["model"]: (
        "un archivo de modelos (como models.json o un config.json de Hugging Face, para predict y memory --model-file)"
    ),
    # a command's --csv, by its header (outputs.output_of_header, review MT)
    OTHER_OUTPUT["calc --csv"]: (
        "la respuesta de calc en CSV (`dpscale calc --csv`; plan --efficiency-file lee su --json)"
    ),
    OTHER_OUTPUT["predict --csv"]: (
        "E predicha por tamaño en CSV (`dpscale predict --csv`; plan --efficiency-file lee su --json)"
    ),
    OTHER_OUTPUT[
        "fit --csv"
    ]: "E ajustada por tamaño en CSV (`dpscale fit --csv`; plan --efficiency-file lee su --json)",
    OTHER_OUTPUT["plan --csv"]: (
        "los tamaños y la E de un plan en CSV (`dpscale plan --csv`; plan --efficiency-file lee su --json)"
    ),
    OTHER_OUTPUT["validate --csv"]: (
        "las puntuaciones de una validación en CSV (`dpscale validate --csv`, que ningún comando lee)"
    ),
    OTHER_OUTPUT["memory --csv"]: "la memoria por dispositivo en CSV (`dpscale memory --csv`, que ningún comando lee)",
    OTHER_OUTPUT["pipeline --csv"]: (
        "la burbuja de un pipeline en CSV (`dpscale pipeline --csv`, que ningún comando lee)"
    ),
    OTHER_OUTPUT["batch --csv"]: (
        "un lote global y su tasa de aprendizaje en CSV (`dpscale batch --csv`, que ningún comando lee)"
    ),
    OTHER_OUTPUT["allreduce --csv"]: (
        "tiempos del all-reduce en CSV (`dpscale measure allreduce --csv`; predict --calibration lee su --out)"
    ),
    OTHER_OUTPUT["equivalence --csv"]: (
        "una comprobación de equivalencia en CSV (`dpscale measure equivalence --csv`, que ningún comando lee)"
    ),
}
_RUNS_ES = (
    "líneas JSON (un objeto con devices y throughput por línea, como escribe `dpscale measure --out`), la salida de "
    "`dpscale measure --json`, o un CSV con columnas devices,throughput"
)
_READS_ES = {
    "JSON with numbers busbw_gbs and alpha_s, as `dpscale measure allreduce --out` writes it": (
        "JSON con los números busbw_gbs y alpha_s, como lo escribe `dpscale measure allreduce --out`"
    ),
    f"runs — {RUNS_FILE}": f"ejecuciones — {_RUNS_ES}",
    # (the page's fit field: faces/web/app.py's RUNS_BOX)
    "runs — measured runs as devices:throughput, one or more a line (1:1000 8:7500), a JSON object a line "
    '({"devices": 8, "throughput": 7500}) or rows under a header devices,throughput': (
        "ejecuciones — ejecuciones medidas como dispositivos:rendimiento, una o más por línea (1:1000 8:7500), un "
        'objeto JSON por línea ({"devices": 8, "throughput": 7500}) o filas bajo una cabecera devices,throughput'
    ),
    "JSON from `dpscale predict`, `fit` or `measure --json` (records with devices and efficiency)": (
        "JSON de `dpscale predict`, `fit` o `measure --json` (registros con devices y efficiency)"
    ),
    "a JSON file as systems.json": "un archivo JSON como systems.json",
    "a JSON file as models.json, or a Hugging Face config.json": (
        "un archivo JSON como models.json, o un config.json de Hugging Face"
    ),
    "a published-measurements CSV — runs from `dpscale measure --out` or `--json` go to `dpscale fit FILE`": (
        "un CSV de mediciones publicadas — las ejecuciones de `dpscale measure --out` o `--json` van a `dpscale fit "
        "ARCHIVO`"
    ),
}
OTHER_SAID = {"es": {**_OTHER_ES, **_READS_ES}}  # (i18n._said's fields what and ok)


# The calculator's other errors (no standard parts), whole: (English pattern, the language's template). The
# core is the part a Spanish reader meets first, so its every refusal is said in Spanish; {n} marks a number.
_SLIP = r"a larger E is a unit slip \(tokens/s against samples/s, a cluster total per device\), not cache effects"
_SLIP_ES = (
    "una E mayor es un error de unidades (tokens/s frente a muestras/s, un total del clúster por dispositivo), no "
    "un efecto de caché"
)
SAID: dict[str, tuple[tuple[str, str], ...]] = {  # groups n1, n2, t, x, e, m: quantities
    "es": (
        # another command's output named by a reader of something else, and what that reader takes (OTHER_SAID)
        (rf"(?P<w>.+?): (?P<what>{'|'.join(map(re.escape, _OTHER_ES))}); allowed: "
         rf"(?P<ok>{'|'.join(map(re.escape, _READS_ES))})", "{w}: {what}; se admite: {ok}"),
        # two outputs appended in one file (outputs.second_document): the second's line, after what the first is
        (rf"(?P<w>.+?) line (?P<n1>\d+): a second JSON document after (?P<what>{'|'.join(map(re.escape, _OTHER_ES))}) "
         r"\(two outputs appended with >>\); allowed: one JSON document a file",
         "{w} línea {n1}: un segundo documento JSON tras {what} (dos salidas añadidas con >>); se admite: un "
         "documento JSON por archivo"),
        # the command line's own refusals (argparse, and faces/cli/common.Parser)
        (r"argument (?P<a>\S+): not allowed with argument (?P<b>\S+)", "el argumento {a} no se admite junto con {b}"),
        (r"argument (?P<a>\S+): expected one argument", "argumento {a}: falta su valor"),
        (r"argument (?P<a>\S+): ignored explicit argument (?P<v>.+)",
         "argumento {a}: no admite valor (se recibió {v})"),
        # measure's rendezvous port (sources/measure/launcher.py); serve says its own through fail()
        (r"--port: got (?P<p>\d+) \((?P<why>.+)\); allowed: a free TCP port, or 0 to pick one",
         "--port: se recibió {p} ({why}); se admite: un puerto TCP libre, o 0 para elegir uno"),
        (r"the following arguments are required: (?P<a>.+)", "faltan los argumentos: {a}"),
        (r"unrecognized arguments: (?P<a>.+) \(did you mean (?P<f>--\S+(?:, --\S+)*) or (?P<g>\S+)\?\)",
         "argumentos no reconocidos: {a} (¿quería decir {f} o {g}?)"),  # (flags: no quantity group, m, to localise)
        (r"unrecognized arguments: (?P<a>.+) \(did you mean (?P<m>\S+)\?\)",
         "argumentos no reconocidos: {a} (¿quería decir {m}?)"),
        (r"unrecognized arguments: (?P<a>.+)", "argumentos no reconocidos: {a}"),
        # batch's --global-batch: how to type the global batch as its factors (faces/cli/batch.global_batch_instead)
        (r"(?P<flag>--global-batch): not an option; the global batch is (?P<f>--micro-batch × --grad-accum × "
         r"--devices): (?P<b>-b \d+ -d \d+) gives (?P<n1>[\d,]+)",
         "{flag}: no es una opción; el lote global es {f}: {b} da {n1}"),
        (r"(?P<f>\S+) line (?P<n1>\d+): columns? (?P<cols>.+) twice; allowed: each (column )?once",
         "{f} línea {n1}: {cols_twice}; se admite: cada columna una vez"),
        # the published-data reader (sources.dataset); a cell's own refusal goes through errors.fail
        (r"(?P<f>.+?) line (?P<n1>[\d,]+), column (?P<c>'\w+'): got (?P<g>'.*'); allowed: (?P<v>'.*'), as on line "
         r"(?P<n2>[\d,]+) — one configuration is one setup",
         "{f} línea {n1}, columna {c}: se recibió {g}; se admite: {v}, como en la línea {n2}: una configuración es un "
         "único montaje"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+), column 'baseline_devices': got (?P<x>[\d,]+); allowed: (?P<t>[\d,]+), as "
         r"on line (?P<n2>[\d,]+) of configuration (?P<c>'.*') \(one baseline per configuration\)",
         "{f} línea {n1}, columna 'baseline_devices': se recibió {x}; se admite: {t}, como en la línea {n2} de la "
         "configuración {c} (una referencia por configuración)"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): got (?P<x>[\d,]+) fields; allowed: (?P<t>[\d,]+) as in the header",
         "{f} línea {n1}: se recibieron {x} campos; se admite: {t}, como en la cabecera"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): got (?P<x>[\d,]+) fields; allowed: (?P<t>[\d,]+) as in the header \(a "
         r"quote opened on this line does not close: its cell runs on over the lines after it\)",
         "{f} línea {n1}: se recibieron {x} campos; se admite: {t}, como en la cabecera (unas comillas abiertas en "
         "esta línea no se cierran: su celda sigue en las líneas siguientes)"),
        (r"(?P<f>.+?): empty; allowed: a CSV with a header row \((?P<c>.+)\)",
         "{f}: sin contenido; se admite: un CSV con una fila de cabecera ({c})"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+), column 'throughput': got (?P<x>\S+), E = (?P<e>\S+) against the "
         r"baseline's (?P<t>\S+) at (?P<n2>[\d,]+) devices? \(line (?P<l>\d+)\); allowed: E up to (?P<m>\S+) — "
         + _SLIP,
         "{f} línea {n1}, columna 'throughput': se recibió {x}, E = {e} frente a los {t} de la referencia con {n2} "
         "dispositivos (línea {l}); se admite: E hasta {m}; " + _SLIP_ES),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): got (?P<x>[\d,]+) fields; allowed: (?P<t>[\d,]+) as in the header \(write "
         r"numbers without thousands separators: 1100, not 1,100\)",
         "{f} línea {n1}: se recibieron {x} campos; se admite: {t}, como en la cabecera (escriba los números sin "
         "separador de miles: 1100, no 1,100)"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): a quote opened on this line does not close before the file ends; "
         r"allowed: quotes in pairs \(a cell in quotes ends at the next one\)",
         "{f} línea {n1}: unas comillas abiertas en esta línea no se cierran antes del final del archivo; se admite: "
         "comillas por pares (una celda entre comillas termina en las siguientes)"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): not a readable CSV row \((?P<why>.+)\)",
         "{f} línea {n1}: no es una fila CSV legible ({why})"),
        (r"(?P<flag>--params): missing; allowed: a parameter count from 1,000 to 1e\+15 \(7\.5e9 for 7\.5 billion\), "
         r"or a (?P<m>--model) preset",
         "{flag}: falta; se admite: un número de parámetros de 1.000 a 1e+15 (7.5e9 para 7.500 millones), o un "
         "modelo predefinido en {m}"),
        (r"--host: got (?P<g>'.*'); allowed: an address of this machine \((?P<why>.*)\)",
         "--host: se recibió {g}; se admite: una dirección de esta máquina ({why})"),
        (r"--port: got (?P<g>\S+); allowed: a free port on (?P<h>\S+)(?P<why> \(.*\))?",
         "--port: se recibió {g}; se admite: un puerto libre en {h}{why}"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \(it holds something other than a calibration, which would be "
         r"overwritten\); allowed: a new file, or an earlier calibration",
         "{flag}: se recibió {g} (contiene algo que no es una calibración, y se sobrescribiría); se admite: un archivo "
         "nuevo, o una calibración anterior"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \(its line (?P<n1>[\d,]+) is not a `dpscale measure` record\); allowed: a "
         r"new file, or one that this command's records were appended to",
         "{flag}: se recibió {g} (su línea {n1} no es un registro de `dpscale measure`); se admite: un archivo "
         "nuevo, o uno al que esta orden añadió sus registros"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \(line (?P<n1>[\d,]+) is not UTF-8 text\); allowed: a new file, or one "
         r"that this command's records were appended to",
         "{flag}: se recibió {g} (su línea {n1} no es texto UTF-8); se admite: un archivo nuevo, o uno al que esta "
         "orden añadió sus registros"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \((?P<why>[^()]+)\); allowed: a new file, or one that this command's "
         r"records were appended to",
         "{flag}: se recibió {g} ({why}); se admite: un archivo nuevo, o uno al que esta orden añadió sus registros"),
        (r"--model-file: (?P<p>.+) failed to import: (?P<why>.+)", "--model-file: {p} no se pudo importar: {why}"),
        (r"--model-file: (?P<p>.+) sets FIND_UNUSED_PARAMETERS = (?P<g>.+); allowed: True or False",
         "--model-file: {p} fija FIND_UNUSED_PARAMETERS = {g}; se admite: True o False"),
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
        (r"a number too large to compute with \((?P<why>.*)\); allowed: realistic magnitudes",
         "un número demasiado grande para calcular ({why}); se admite: magnitudes realistas"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): not UTF-8 text; allowed: a CSV file saved as UTF-8",
         "{f} línea {n1}: no es texto UTF-8; se admite: un CSV guardado como UTF-8"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing columns? (?P<cols>[^;(]+) \(found "
         r"(?P<found>(?:(?!; allowed: ).)*)\)",
         "{f} línea {n1}: {cols_missing} (hay: {found})"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing columns? (?P<cols>[^;(]+) \(found (?P<found>.*)\); allowed: "
         r"a published-measurements table — this file holds runs \(devices, throughput\): `dpscale fit FILE` fits "
         r"them",
         "{f} línea {n1}: {cols_missing} (hay: {found}); se admite: una tabla de mediciones publicadas — este "
         "archivo tiene ejecuciones (devices, throughput): `dpscale fit ARCHIVO` las ajusta"),
        (r"(?P<f>.+?): JSON; allowed: a published-measurements CSV — runs from `dpscale measure --out` or `--json` "
         r"go to `dpscale fit FILE`",
         "{f}: JSON; se admite: un CSV de mediciones publicadas — las ejecuciones de `dpscale measure --out` o "
         "`--json` van a `dpscale fit ARCHIVO`"),
        # (validate given JSON broken or nested 100,000 deep: where, as fit says it — review KJ)
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): not valid JSON \((?P<why>.+)\); allowed: a published-measurements CSV — "
         r"runs from `dpscale measure --out` or `--json` go to `dpscale fit FILE`",
         "{f} línea {n1}: no es JSON válido ({why}); se admite: un CSV de mediciones publicadas — las ejecuciones de "
         "`dpscale measure --out` o `--json` van a `dpscale fit ARCHIVO`"),
        (r"(?P<f>.+?): nested too deeply; allowed: a published-measurements CSV — runs from `dpscale measure --out` "
         r"or `--json` go to `dpscale fit FILE`",
         "{f}: anidado a demasiada profundidad; se admite: un CSV de mediciones publicadas — las ejecuciones de "
         "`dpscale measure --out` o `--json` van a `dpscale fit ARCHIVO`"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing columns? (?P<cols>[^;(]+) \(found (?P<found>.*)\); allowed: "
         r"columns separated by commas — this file separates them with ';'",
         "{f} línea {n1}: {cols_missing} (hay: {found}); se admite: columnas separadas por comas — este "
         "archivo las separa con ';'"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing columns? (?P<cols>[^;(]+) \(found (?P<found>.*)\); allowed: "
         r"columns separated by commas — this file separates them with tabs",
         "{f} línea {n1}: {cols_missing} (hay: {found}); se admite: columnas separadas por comas — este "
         "archivo las separa con tabuladores"),
        (r"(?P<f>.+?) line (?P<l>\d+), column 'devices': configuration (?P<c>'.*') has no baseline row; allowed: a "
         r"row with devices = baseline_devices = (?P<n1>[\d,]+)",
         "{f} línea {l}, columna 'devices': la configuración {c} no tiene fila de referencia; se admite: una fila con "
         "devices = baseline_devices = {n1}"),
        (r"(?P<f>.+?) line (?P<l>\d+), column 'devices': got (?P<n1>[\d,]+); allowed: at least (?P<n2>[\d,]+), the "
         r"baseline_devices of configuration (?P<c>'.*') \(its smallest size, which E is relative to\)",
         "{f} línea {l}, columna 'devices': se recibió {n1}; se admite: al menos {n2}, el baseline_devices de la "
         "configuración {c} (su tamaño menor, al que se refiere E)"),
        (r"(?P<f>.+?) line (?P<l>\d+), column 'throughput': got (?P<x>\S+), one micro-batch in (?P<t>\S+) s; "
         r"allowed: a rate that puts it between (?P<lo>\S+) s and (?P<hi>\S+) s of compute",
         "{f} línea {l}, columna 'throughput': se recibió {x}, un microlote en {t} s; se admite: un rendimiento "
         "que lo deje entre {lo} s y {hi} s de cómputo"),
        (r"(?P<f>.+?): no data rows", "{f}: no hay filas de datos"),
        # an input file given as '-' twice (files.STDIN_ONCE): one stream, read once
        (r"DATA.csv: got '-' twice; allowed: '-' once \(one file piped in\), the other files by path",
         "DATA.csv: se recibió '-' dos veces; se admite: '-' una vez (un archivo por tubería), los demás archivos por "
         "su ruta"),
        (r"(?P<a>--\S+) and (?P<b>--\S+): both '-'; allowed: '-' once \(one file piped in\), the other files by path",
         "{a} y {b}: los dos '-'; se admite: '-' una vez (un archivo por tubería), los demás archivos por su ruta"),
        (r"DATA.csv: configuration (?P<c>'.+') in (?P<a>\S+) line (?P<la>\d+) and in (?P<b>\S+) line (?P<lb>\d+); "
         r"allowed: once",
         "DATA.csv: la configuración {c} está en {a} línea {la} y en {b} línea {lb}; se admite: una vez"),
        (r"DATA.csv: got (?P<f>'.+') twice; allowed: each file once",
         "DATA.csv: se recibió {f} dos veces; se admite: cada archivo una vez"),
        (r"DATA.csv: got (?P<a>'.+') and (?P<b>'.+'), one file twice; allowed: each file once",
         "DATA.csv: se recibieron {a} y {b}, un mismo archivo dos veces; se admite: cada archivo una vez"),
        (r"(?P<f>\S+): a JSON array; allowed: JSON lines \(an object with devices and throughput on each line, as "
         r"`dpscale measure --out` writes\), `dpscale measure --json` output, or a CSV with columns devices,throughput",
         "{f}: una lista JSON; se admite: líneas JSON (un objeto con devices y throughput por línea, como escribe "
         "`dpscale measure --out`), la salida de `dpscale measure --json`, o un CSV con columnas devices,throughput"),
        (r"(?P<f>--point): a JSON array; allowed: measured runs as devices:throughput, one or more a line "
         r'\(1:1000 8:7500\), a JSON object a line \(\{"devices": 8, "throughput": 7500\}\) or rows under a header '
         r"devices,throughput",  # (the page's)
         "{f}: una lista JSON; se admite: ejecuciones medidas como dispositivos:rendimiento, una o más por línea "
         '(1:1000 8:7500), un objeto JSON por línea ({{"devices": 8, "throughput": 7500}}) o filas bajo una cabecera '
         "devices,throughput"),
        (r"(?P<f>--point): a JSON object among runs of another form; allowed: one form a paste — measured runs as "
         r"devices:throughput, one or more a line \(1:1000 8:7500\), a JSON object a line "
         r'\(\{"devices": 8, "throughput": 7500\}\) or rows under a header devices,throughput',  # (the page's)
         "{f}: un objeto JSON entre ejecuciones de otra forma; se admite: una forma por texto pegado — ejecuciones "
         "medidas como dispositivos:rendimiento, una o más por línea (1:1000 8:7500), un objeto JSON por línea "
         '({{"devices": 8, "throughput": 7500}}) o filas bajo una cabecera devices,throughput'),
        (r"(?P<f>--point): a JSON array"
         r"; allowed: one run a flag as devices:throughput \(--point 1:900 "
         r"--point 2:1750\), or a file, `dpscale fit FILE`: JSON lines \(an object with devices and throughput on each "
         r"line, as `dpscale measure --out` writes\), `dpscale measure --json` output, "
         r"or a CSV with columns devices,throughput",  # (the CLI's)
         "{f}: una lista JSON"
         "; se admite: una ejecución por opción como dispositivos:rendimiento (--point 1:900 --point "
         "2:1750), o un archivo, `dpscale fit ARCHIVO`: líneas JSON (un objeto con devices y throughput por línea, "
         "como escribe `dpscale measure --out`), la salida de `dpscale measure --json`, "
         "o un CSV con columnas devices,throughput"),
        (r"(?P<f>--point): a JSON object"
         r"; allowed: one run a flag as devices:throughput \(--point 1:900 "
         r"--point 2:1750\), or a file, `dpscale fit FILE`: JSON lines \(an object with devices and throughput on each "
         r"line, as `dpscale measure --out` writes\), `dpscale measure --json` output, "
         r"or a CSV with columns devices,throughput",  # (the CLI's)
         "{f}: un objeto JSON"
         "; se admite: una ejecución por opción como dispositivos:rendimiento (--point 1:900 --point "
         "2:1750), o un archivo, `dpscale fit ARCHIVO`: líneas JSON (un objeto con devices y throughput por línea, "
         "como escribe `dpscale measure --out`), la salida de `dpscale measure --json`, "
         "o un CSV con columnas devices,throughput"),
        (r"--resamples × (?P<w>--at|measured sizes): (?P<n1>[\d,]+) resamples × (?P<n2>[\d,]+) sizes = (?P<t>[\d,]+) "
         r"values; allowed: at most (?P<x>[\d,]+) \(about 1 GB of working memory\) — fewer resamples or sizes",
         "--resamples × {w}: {n1} remuestreos × {n2} tamaños = {t} valores; se admite: como mucho {x} (cerca de 1 GB "
         "de memoria de trabajo) — menos remuestreos o tamaños"),
        (r"(?P<flag>--system|--model): missing; allowed \(from (?P<p>\S+)\): (?P<names>.+)",
         "{flag}: falta; se admite (de {p}): {names}"),
        # (a JSON key the page quotes, a space in it: '--dev ices')
        (r"(?P<a>\S+|'[^']*'|\"[^\"]*\"): given twice; allowed: once \(the last would silently win\)",
         "{a}: dada dos veces; se admite: una vez (el último valor ganaría sin avisar)"),
        (r"--sequence-parallel: given with --tensor-parallel (?P<t>\d+); allowed: with --tensor-parallel > 1 \(it "
         r"shards over the tensor-parallel group\)",
         "--sequence-parallel: indicado con --tensor-parallel {t}; se admite: con --tensor-parallel > 1 (reparte "
         "sobre el grupo de paralelismo de tensor)"),
        (r"(?P<a>\S+): got (?P<g>''|'--'); allowed: a value(?P<h>.*)", "{a}: se recibió {g}; se admite: un valor{h}"),
        (r"(?P<a>--actual) and (?P<b>--speedup): give one of them, not both \(A = S·v\)",
         "{a} y {b}: dé uno de los dos, no ambos (A = S·v)"),
        (r"inputs: got (?P<got>.+); allowed: exactly three of (?P<names>.+) \(the fourth is solved\)",
         "entradas recibidas: {got}; se admite: exactamente tres de {names} (la cuarta se despeja)"),
        (r"(?P<flag>\S+): got (?P<n1>[\d,]+) values for 1 device count; allowed: one value per device count — a "
         r"comma separates list items, so write numbers without thousands separators and with a decimal point",
         "{flag}: se recibieron {n1} valores para 1 número de dispositivos; se admite: un valor por número de "
         "dispositivos — la coma separa elementos de una lista: escriba los números sin separador de miles y con "
         "punto decimal"),
        (r"(?P<flag>\S+): got (?P<n1>[\d,]+) values for 1 device count; allowed: one value, or one per device count",
         "{flag}: se recibieron {n1} valores para 1 número de dispositivos; se admite: un valor, o uno por "
         "número de dispositivos"),
        (r"(?P<flag>\S+): got (?P<n1>[\d,]+) values for (?P<n2>[\d,]+) device counts; "
         r"allowed: one value, or one per device count",
         "{flag}: se recibieron {n1} valores para {n2} números de dispositivos; se admite: un valor, o uno por "
         "número de dispositivos"),
        (r"--law constant: needs --efficiency E \(one E for every size\)",
         "--law constant: necesita --efficiency E (una E para todos los tamaños)"),
        (r"(?P<flag>\S+): belongs to --law usl or amdahl; --law constant takes E from --efficiency",
         "{flag}: pertenece a --law usl o amdahl; --law constant toma E de --efficiency"),
        (r"(?P<flag>\S+): (?P<n1>[\d,]+) devices given twice \((?P<x>\S+) and (?P<e>\S+)\); allowed: one E per size",
         "{flag}: {n1} dispositivos dados dos veces ({x} y {e}); se admite: una E por tamaño"),
        (r"(?P<a>--throughput): cannot be solved from (?P<b>--speedup) \(S = d·E does not involve it\); allowed: "
         r"give (?P<c>--actual)",
         "{a}: no se puede despejar de {b} (S = d·E no depende de ella); se admite: dé {c}"),
        (r"(?P<a>--efficiency) and (?P<b>--law|--sigma|--kappa|--serial-fraction): give one source of E, not both",
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
        (r"the web page: needs (?P<m>[\w.]+); allowed: (?P<c>pip install 'dpscale\[\w+\]')",
         "la página web: necesita {m}; se admite: {c}"),
        (r"dpscale measure's progress bar: needs (?P<m>[\w.]+); allowed: (?P<c>pip install 'dpscale\[\w+\]')",
         "la barra de progreso de dpscale measure: necesita {m}; se admite: {c}"),
        (r"(?P<a>.+?): needs (?P<m>[\w.]+); allowed: (?P<c>pip install '[^' ]+')",
         "{a}: necesita {m}; se admite: {c}"),
        (r"(?P<a>\S+) × (?P<b>\S+): beyond floating point; allowed: realistic magnitudes",
         "{a} × {b}: fuera del rango de coma flotante; se admite: magnitudes realistas"),
        (r"(?P<a>\S+): comes to (?P<x>\S+) on one device, where E is 1 by definition \(its actual throughput is "
         r"its per-device throughput\); allowed: two or more devices, or the same rate for both",
         "{a}: sale {x} en un dispositivo, donde E vale 1 por definición (su rendimiento real es su rendimiento por "
         "dispositivo); se admite: dos o más dispositivos, o el mismo rendimiento en ambos"),
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
        (r"(?P<tg>target|--actual|--speedup) (?P<t>.+?): not reached within (?P<n1>[\d,]+) devices "
         r"\((?P<x>.+?) there\); "
         r"allowed: a target this E\(d\) reaches at a buildable size",
         "{tg} {t}: no se alcanza con {n1} dispositivos ({x} allí); se admite: un objetivo que esta E(d) "
         "alcance con un tamaño construible"),
        (r"(?P<tg>target|--actual|--speedup) (?P<t>.+?): unreachable — under this E\(d\) the speedup peaks at "
         r"(?P<x>.+?) with (?P<n1>[\d,]+) "
         r"devices; allowed: a target at or below the peak",
         "{tg} {t}: inalcanzable; con esta E(d) la aceleración llega como máximo a {x} con {n1} dispositivos; "
         "se admite: un objetivo igual o inferior al máximo"),
        (r"(?P<tg>target|--actual|--speedup) (?P<t>.+?): unreachable — under this E\(d\) throughput peaks at "
         r"(?P<x>.+?) with (?P<n1>[\d,]+) "
         r"devices; "
         r"allowed: a target at or below the peak",
         "{tg} {t}: inalcanzable; con esta E(d) el rendimiento llega como máximo a {x} con {n1} dispositivos; "
         "se admite: un "
         "objetivo igual o inferior al máximo"),
        # the web page's row cap
        (r"(?P<flag>--\S+): over (?P<n1>[\d,]+) sizes; allowed: at most (?P<n2>[\d,]+) on the page \(the command "
         r"line takes up to (?P<x>[\d,]+)\)",
         "{flag}: más de {n1} tamaños; se admite: como mucho {n2} en la página (la línea de órdenes admite hasta {x})"),
        (r"(?P<flag>--\S+): (?P<n1>[\d,]+) sizes; allowed: at most (?P<n2>[\d,]+) on the page \(the command line "
         r"takes more\)",
         "{flag}: {n1} tamaños; se admite: como mucho {n2} en la página (la línea de órdenes admite más)"),
        (r"--point: (?P<n1>[\d,]+) runs; allowed: at most (?P<n2>[\d,]+) on the page \(the command line takes more\)",
         "--point: {n1} ejecuciones; se admite: como mucho {n2} en la página (la línea de órdenes admite más)"),
        (r"--resamples: (?P<n1>[\d,]+) resamples × (?P<n2>[\d,]+) sizes; allowed: at most (?P<x>[\d,]+) values on the "
         r"page \(the command line takes more\)",
         "--resamples: {n1} remuestreos × {n2} tamaños; se admite: como mucho {x} valores en la página (la línea de "
         "órdenes admite más)"),
        # the fitter's
        (r"runs: got (?P<n1>[\d,]+) runs? of size (?P<n2>[\d,]+); allowed: at least 2 distinct device counts",
         "ejecuciones: un solo número de dispositivos, {n2} ({n1} ejecuciones); se admite: al menos 2 números de "
         "dispositivos distintos"),
        # the predictor's and the catalogs' (the web page's predict form reaches these)
        (r"(?P<flag>--\S+): got (?P<got>'[^']*') \(the catalog's (?P<k>'[^']*') is the (?P<n>.+?), not the "
         r"(?P<form>\S+) part: peak and memory bandwidth differ\); allowed: (?P<names>.+)",
         "{flag}: se recibió {got} (la {k} del catálogo es la {n}, no la versión {form}: su pico y su ancho de banda "
         "de memoria difieren); se admite: {names}"),
        (r"(?P<flag>--\S+): got (?P<got>'[^']*') \(did you mean (?P<mean>.+?)\?\); allowed: (?P<names>.+)",
         "{flag}: se recibió {got} (¿quería decir {mean}?); se admite: {names}"),
        (r"(?P<flag>--\S+): got (?P<got>'[^']*'); allowed: (?P<names>[a-z0-9.-]+(?:, [a-z0-9.-]+)+)",
         "{flag}: se recibió {got}; se admite: {names}"),
        # --zero's stages with their names (errors.ZERO_ALLOWED: "0 (ddp), 1 (zero1), …"), names as typed
        (r"(?P<flag>--zero): got (?P<got>['\"].*); allowed: (?P<stages>\d \([a-z0-9, -]+\)(?:, \d \([a-z0-9, -]+\))+)",
         "{flag}: se recibió {got}; se admite: {stages}"),
        (r"mode: got (?P<got>'[^']*'); allowed: (?P<names>[a-z]+(?:, [a-z]+)+)",  # `measure foo`: its positional
         "modo: se recibió {got}; se admite: {names}"),
        (r"(?P<flags>--[\w-]+): missing; allowed: give --system NAME(?P<names> \([^)]*\))? or the raw cluster "
         r"figures",  # one: singular
         "{flags}: falta; se admite: --system NOMBRE{names} o las cifras del clúster"),
        (r"(?P<flags>.+): missing; allowed: give --system NAME(?P<names> \([^)]*\))? or the raw cluster figures",
         "{flags}: faltan; se admite: --system NOMBRE{names} o las cifras del clúster"),
        (r"(?P<flags>--params/--model): missing; allowed: a parameter count or a preset name",
         "{flags}: falta; se admite: un número de parámetros o el nombre de un modelo predefinido"),
        (r"(?P<a>--batch) and (?P<b>--global-batch): give one \(a global batch G gives each size's per-device "
         r"micro-batch, G / \(devices × --grad-accum\)\)",
         "{a} y {b}: dé uno (un lote global G da el microlote por dispositivo de cada tamaño, G / (dispositivos × "
         "--grad-accum))"),
        (r"(?P<flag>--global-batch): got (?P<got>\S+); allowed: a multiple of devices × --grad-accum at every size: "
         r"(?P<n1>\S+) × (?P<n2>\S+) does not divide it \(a micro-batch of (?P<x>\S+)\)",
         "{flag}: se recibió {got}; se admite: un múltiplo de dispositivos × --grad-accum en cada tamaño: {n1} × "
         "{n2} no lo divide (un microlote de {x})"),
        (r"(?P<a>--throughput) and (?P<b>--step-time): give one measured baseline, not both",
         "{a} y {b}: dé una sola referencia medida, no ambas"),
        (r"(?P<flags>--throughput/--step-time): missing; allowed: a measured baseline, or --model PRESET \(or "
         r"--params with --seq-len, a transformer\) with --gpu \(or a --system that names one\) to estimate "
         r"compute from FLOPs and MFU",
         "{flags}: falta; se admite: una referencia medida, o --model MODELO (o --params con --seq-len, un "
         "transformer) con --gpu (o un --system que la nombre) para estimar el cómputo a partir de FLOPs y MFU"),
        (r"(?P<a>--batch|--global-batch) with (?P<flags>--throughput/--step-time|--seq-len/--mfu): a micro-batch "
         r"comes to (?P<x>\S+) s of compute; allowed: inputs that put it between (?P<n1>\S+) s and (?P<n2>\S+) s",
         "{a} con {flags}: un microlote sale a {x} s de cómputo; se admite: entradas que lo dejen entre {n1} s y "
         "{n2} s"),
        (r"(?P<flag>--precision): (?P<p>\S+) has no peak figure for (?P<gpu>\S+); allowed: (?P<names>.+)",
         "{flag}: {p} no tiene cifra de pico para {gpu}; se admite: {names}"),
        # the planning commands (batch, memory, pipeline, plan)
        (r"(?P<flag>--tensor-parallel): got (?P<n1>\S+); allowed: a divisor of (?P<mdl>.+?)'s (?P<n2>\S+) attention "
         r"heads",
         "{flag}: se recibió {n1}; se admite: un divisor de las {n2} cabezas de atención de {mdl}"),
        (r"(?P<flag>--tensor-parallel): got (?P<n1>\S+); allowed: a divisor of (?P<mdl>.+?)'s (?P<n2>\S+) key-value "
         r"heads",
         "{flag}: se recibió {n1}; se admite: un divisor de las {n2} cabezas de clave y valor de {mdl}"),
        (r"(?P<a>--min-steps): needs (?P<b>--noise-scale) \(B_noise\) for steps = S_min\(1 \+ B_noise/B\)",
         "{a}: necesita {b} (B_ruido) para pasos = S_min(1 + B_ruido/B)"),
        (r"(?P<a>--budget): needs (?P<b>--price-per-device-hour) or "
         r"(?P<c>--price-per-node-hour) \(a budget is money; the price turns it into hours\)",
         "{a}: necesita {b} o {c} (un presupuesto es dinero; el precio lo convierte en horas)"),
        (r"(?P<a>--price-per-device-hour) and (?P<b>--price-per-node-hour): give one price, not both",
         "{a} y {b}: dé un solo precio, no ambos"),
        (r"(?P<a>--price-per-node-hour): needs (?P<b>--gpus-per-node) \(the devices a node's price buys\)",
         "{a}: necesita {b} (los dispositivos que compra el precio de un nodo)"),
        (r"(?P<a>--gpu|--min-efficiency) and (?P<b>--gpu-memory|--target-throughput): give one of them, not both",
         "{a} y {b}: dé uno de los dos, no ambos"),
        (r"(?P<a>--efficiency-file) and (?P<b>--efficiency/--law/--fit): give one source of E, not both",
         "{a} y {b}: dé una sola fuente de E, no ambas"),
        (r"(?P<a>--fit) and (?P<b>--throughput): the fitted runs give the per-device throughput too; give one",
         "{a} y {b}: las ejecuciones ajustadas ya dan el rendimiento por dispositivo; dé uno de los dos"),
        (r"(?P<a>--fit) and (?P<b>--efficiency/--law): give one source of E, not both",
         "{a} y {b}: dé una sola fuente de E, no ambas"),
        (r"(?P<flag>--unit): got (?P<got>'.*?'); allowed: (?P<u>'.*?'), the unit of (?P<f>--efficiency-file)'s "
         r"per-device throughput (?P<x>\S+) \(or give (?P<t>--throughput) in (?P<u2>.+?); predict's rates are "
         r"samples/s without --unit tokens/s: × the sequence length for tokens/s\)",
         "{flag}: se recibió {got}; se admite: {u}, la unidad del rendimiento por dispositivo {x} de {f} (o dé {t} "
         "en {u2}; los rendimientos de predict son muestras/s sin --unit tokens/s: × la longitud de secuencia para "
         "tokens/s)"),
        (r"(?P<flag>--unit): got (?P<got>'.*?'); allowed: (?P<u>'.*?'), the unit the runs in (?P<f>.+) state",
         "{flag}: se recibió {got}; se admite: {u}, la unidad que indican las ejecuciones de {f}"),
        (r"(?P<flag>--unit): not typed \(plan's default (?P<got>'.*?')\); allowed: (?P<u>'.*?'), the unit the runs in "
         r"(?P<f>.+) state",
         "{flag}: no se indicó (la de plan por defecto es {got}); se admite: {u}, la unidad que indican las "
         "ejecuciones de {f}"),
        (r"(?P<flag>--unit): not typed \(plan's default (?P<got>'.*?')\); allowed: (?P<u>'.*?'), the unit of "
         r"(?P<f>--efficiency-file)'s per-device throughput (?P<x>\S+) \(or give (?P<t>--throughput) in (?P<u2>.+?); "
         r"predict's rates are samples/s without --unit tokens/s: × the sequence length for tokens/s\)",
         "{flag}: no se indicó (la de plan por defecto es {got}); se admite: {u}, la unidad del rendimiento por "
         "dispositivo {x} de {f} (o dé {t} en {u2}; los rendimientos de predict son muestras/s sin --unit tokens/s: "
         "× la longitud de secuencia para tokens/s)"),
        (r"(?P<flag>--samples): missing; allowed: a sample count > 0",
         "{flag}: falta; se admite: un número de muestras > 0"),
        (r"(?P<flag>--throughput): missing; allowed: a per-device throughput > 0 \((?P<f>--efficiency-file) states "
         r"no one rate > 0 for its E\)",
         "{flag}: falta; se admite: un rendimiento por dispositivo > 0 ({f} no indica un único rendimiento > 0 para "
         "sus E)"),
        (r"(?P<flag>--throughput): missing; allowed: a per-device throughput > 0 \(or (?P<b>--fit) measured runs, or "
         r"(?P<f>--efficiency-file): predict's, fit's or calc's --json, which states it\)",
         "{flag}: falta; se admite: un rendimiento por dispositivo > 0 (o {b} con ejecuciones medidas, o {f}: el "
         "--json de predict, fit o calc, que lo indica)"),
        (r"(?P<flag>--throughput): missing; allowed: a per-device throughput > 0 \(or the button 'E\(d\) from the "
         r"last prediction or fit', which fills it\)",  # the web page's (faces/web/app.py's PAGE_SAID)
         "{flag}: falta; se admite: un rendimiento por dispositivo > 0 (o el botón «E(d) de la última predicción o "
         "ajuste», que lo rellena)"),
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
        (r"(?P<flag>--gpus-per-node): only with (?P<b>--fit) \(it shapes the fitted all-reduce law\) or "
         r"(?P<c>--price-per-node-hour) \(the devices a node's price buys\)",
         "{flag}: solo con {b} (da forma a la ley de all-reduce ajustada) o {c} (los dispositivos que compra el "
         "precio de un nodo)"),
        (r"(?P<flag>--gpus-per-node): only with (?P<b>--price-per-node-hour) \(the devices a node's price buys\)",
         "{flag}: solo con {b} (los dispositivos que compra el precio de un nodo)"),
        (r"(?P<flags>.+): activations need a transformer (?P<m>--model) preset \(its layers and hidden size\); "
         r"(?P<p>--params) alone has no shape, so only model states are counted — leave these out",
         "{flags}: las activaciones necesitan un transformer predefinido en {m} (sus capas y su tamaño oculto); "
         "{p} solo no tiene forma, así que solo se cuentan los estados del modelo — quite esas opciones"),
        (r"(?P<flags>.+): activations need a transformer (?P<m>--model) preset \(its layers and hidden size\); "
         r"(?P<w>--model|--model-file) (?P<name>.+?) is not a transformer preset, so only model states are counted — "
         r"leave these out",
         "{flags}: las activaciones necesitan un transformer predefinido en {m} (sus capas y su tamaño oculto); "
         "{w} {name} no es un transformer predefinido, así que solo se cuentan los estados del modelo — "
         "quite esas opciones"),
        (r"(?P<flag>--plot): needs E \((?P<a>--efficiency) or (?P<b>--law)\) to draw speedup against devices",
         "{flag}: necesita E ({a} o {b}) para dibujar la aceleración frente a los dispositivos"),
        # the page's API (faces/web/app.py)
        (r"command: got (?P<g>'.*'); allowed: (?P<names>.+)", "orden: se recibió {g}; se admite: {names}"),
        (r'body: got key (?P<g>\'.*\'); allowed: options, lang \(\{"options": \{"flag": "value"\}\}\)',
         'cuerpo: se recibió la clave {g}; se admite: options, lang ({{"options": {{"flag": "value"}}}})'),
        # the server's own refusals (faces.web.app): a path or method it does not serve, a body that is no object
        (r"(?P<m>[A-Z]+) (?P<p>.*): (?P<why>Not Found|Method Not Allowed); allowed: POST to /api/COMMAND, GET / or "
         r"/api/labels/LANG or /api/options",
         "{m} {p}: {why}; se admite: POST a /api/ORDEN, GET / o /api/labels/IDIOMA o /api/options"),
        (r'body: allowed: a JSON object \{"options": \{"flag": "value"\}, "lang": "en"\}',
         'cuerpo: se admite: un objeto JSON {{"options": {{"flag": "valor"}}, "lang": "es"}}'),
        (r"body: over (?P<n1>[\d,]+) bytes; allowed: at most (?P<n2>[\d,]+) \(a form's fields\)",
         "cuerpo: más de {n1} bytes; se admite: como mucho {n2} (los campos de un formulario)"),
        # fit's file reader (sources/fit_io.py); {why}: JSON's and the OS's reasons, said by REASONS
        (r"(?P<f>.+?): empty; allowed: JSON lines \(an object with devices and throughput on each line, as "
         r"`dpscale measure --out` writes\), `dpscale measure --json` output, or a CSV with columns devices,throughput",
         "{f}: sin contenido; se admite: líneas JSON (un objeto con devices y throughput por línea, como escribe "
         "`dpscale measure --out`), la salida de `dpscale measure --json`, o un CSV con columnas devices,throughput"),
        (r"(?P<f>.+?): an all-reduce calibration \(for predict --calibration\); allowed: runs — JSON lines \(an "
         r"object with devices and throughput on each line, as `dpscale measure --out` writes\), `dpscale measure "
         r"--json` output, or a CSV with columns devices,throughput",
         "{f}: una calibración del all-reduce (para predict --calibration); se admite: ejecuciones — líneas JSON (un "
         "objeto con devices y throughput por línea, como escribe `dpscale measure --out`), la salida de `dpscale "
         "measure --json`, o un CSV con columnas devices,throughput"),
        (r"(?P<f>--point): an all-reduce calibration \(for predict --calibration\); allowed: runs — measured runs as "
         r"devices:throughput, one or more a line \(1:1000 8:7500\), a JSON object a line "
         r'\(\{"devices": 8, "throughput": 7500\}\) or rows under a header devices,throughput',  # (the page's)
         "{f}: una calibración del all-reduce (para predict --calibration); se admite: ejecuciones — ejecuciones "
         "medidas como dispositivos:rendimiento, una o más por línea (1:1000 8:7500), un objeto JSON por línea "
         '({{"devices": 8, "throughput": 7500}}) o filas bajo una cabecera devices,throughput'),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): a JSON record \(as `dpscale measure --out` writes\) in a CSV; allowed: one "
         r"form at a time — rows under its header, or JSON lines alone",
         "{f} línea {n1}: un registro JSON (como escribe `dpscale measure --out`) en un CSV; se admite: una forma cada "
         "vez — filas bajo su cabecera, o solo líneas JSON"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): a JSON object over several lines; allowed: one JSON object per line, or "
         r"one document alone \(`dpscale measure --json` output\)",
         "{f} línea {n1}: un objeto JSON en varias líneas; se admite: un objeto JSON por línea, o un documento solo "
         "(la salida de `dpscale measure --json`)"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): not valid JSON \((?P<why>.+)\); allowed: one JSON object per line",
         "{f} línea {n1}: no es JSON válido ({why}); se admite: un objeto JSON por línea"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): a number too long to read; allowed: one JSON object per line",
         "{f} línea {n1}: un número demasiado largo para leerlo; se admite: un objeto JSON por línea"),
        (r'(?P<f>.+?) line (?P<n1>[\d,]+): points\[(?P<j>\d+)\]: allowed: an object with "devices" and "throughput"',
         '{f} línea {n1}: points[{j}]: se admite: un objeto con "devices" y "throughput"'),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): a fitted law \(`dpscale fit --json`\), not runs; allowed: runs — a fit's "
         r"JSON goes to plan's --efficiency-file",
         "{f} línea {n1}: una ley ajustada (`dpscale fit --json`), no ejecuciones; se admite: ejecuciones — el JSON de "
         "un ajuste va a --efficiency-file de plan"),
        (r'(?P<f>.+?) line (?P<n1>[\d,]+): got (?P<g>.+); allowed: an object with "devices" and "throughput"',
         '{f} línea {n1}: se recibió {g}; se admite: un objeto con "devices" y "throughput"'),
        # (a `measure --json` document's point is placed 'line 2 points[0]')
        (r"(?P<f>.+?) line (?P<n1>[\d,]+)(?P<pt> points\[\d+\])?: another set-up than line (?P<n2>[\d,]+) "
         r"\((?P<diff>.+)\); allowed: one set-up per file \(the records of one model, batch, backend, device, steps, "
         r"threads a rank and ZeRO stage\), or one picked with --only, e.g. (?P<eg>--only .+)",
         "{f} línea {n1}{pt}: un montaje distinto del de la línea {n2} ({diff}); se admite: un montaje por archivo "
         "(los registros de un modelo, lote, backend, dispositivo, pasos, hilos por proceso y etapa de ZeRO), o uno "
         "elegido con --only, p. ej. {eg}"),
        # (the page's fit field, which has no --only: one set-up's lines pasted alone, review KU)
        (r"(?P<f>.+?) line (?P<n1>[\d,]+)(?P<pt> points\[\d+\])?: another set-up than line (?P<n2>[\d,]+) "
         r"\((?P<diff>.+)\); allowed: one set-up per paste \(the records of one model, batch, backend, device, steps, "
         r"threads a rank and ZeRO stage\): paste one set-up's lines alone, e.g. those with (?P<eg>.+)",
         "{f} línea {n1}{pt}: un montaje distinto del de la línea {n2} ({diff}); se admite: un montaje por texto "
         "pegado (los registros de un modelo, lote, backend, dispositivo, pasos, hilos por proceso y etapa de ZeRO): "
         "pegue solo las líneas de un montaje, p. ej. las de {eg}"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): another set-up than line (?P<n2>[\d,]+) \((?P<diff>.+)\); allowed: one "
         r"set-up per file \(the rows of one (?P<cols>.+?); a published-measurements file: "
         r"`dpscale validate FILE --mode fit` fits each\)",
         "{f} línea {n1}: un montaje distinto del de la línea {n2} ({diff}); se admite: un montaje por archivo (las "
         "filas con los mismos valores de {cols}; un archivo de mediciones publicadas: `dpscale validate FILE --mode "
         "fit` ajusta cada configuración)"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): another set-up than line (?P<n2>[\d,]+) \((?P<diff>.+)\); allowed: one "
         r"set-up per file \(the rows of one (?P<cols>[^;]+?)\)",
         "{f} línea {n1}: un montaje distinto del de la línea {n2} ({diff}); se admite: un montaje por archivo (las "
         "filas con los mismos valores de {cols})"),
        (r"--only: got (?P<g>\S+); allowed: a set-up (?P<f>.+?) holds: (?P<there>.+)",
         "--only: se recibió {g}; se admite: un montaje que {f} contenga: {there}"),
        (r"--only: needs a RUNS file \(it picks one set-up of a `dpscale measure` file\)",
         "--only: requiere un archivo RUNS (elige un montaje de un archivo de `dpscale measure`)"),
        (r"--only: only with --fit \(it picks one set-up of a `dpscale measure` file\)",
         "--only: solo con --fit (elige un montaje de un archivo de `dpscale measure`)"),
        (r"--only: (?P<f>.+?) is a CSV; allowed: with JSON lines of `dpscale measure` records",
         "--only: {f} es un CSV; se admite: con líneas JSON de registros de `dpscale measure`"),
        (r"--only: (?P<f>.+?) names no set-up; allowed: with JSON lines of `dpscale measure` records",
         "--only: {f} no nombra ningún montaje; se admite: con líneas JSON de registros de `dpscale measure`"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing columns? (?P<cols>.+?) \(found (?P<found>.*?)\); allowed: "
         r"a header with "
         r"devices,throughput \(optional step_time\) — this file separates its columns with ';': save it as CSV "
         r"with commas and decimal points",
         "{f} línea {n1}: {cols_missing} (hay: {found}); se admite: una cabecera con "
         "devices,throughput "
         "(step_time opcional) — este archivo separa las columnas con ';': guárdelo como CSV con comas y punto "
         "decimal"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing columns? (?P<cols>.+?) \(found (?P<found>.*?)\); allowed: "
         r"a header with devices,throughput \(optional step_time\) — this file separates its columns with tabs: save "
         r"it as CSV with commas",
         "{f} línea {n1}: {cols_missing} (hay: {found}); se admite: una cabecera con "
         "devices,throughput (step_time opcional) — este archivo separa las columnas con tabuladores: guárdelo como "
         "CSV con comas"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+)(?P<pt> points\[\d+\])?: unit (?P<u>'.*?'|\".*?\") "
         r"against (?P<v>'.*?'|\".*?\") on line (?P<n2>[\d,]+); allowed: one throughput unit per file",
         "{f} línea {n1}{pt}: unidad {u} frente a {v} en la línea {n2}; se admite: una unidad de rendimiento por "
         "archivo"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+)(?P<pt> points\[\d+\])?: unit (?P<u>'.*?'|\".*?\") "
         r"against (?P<v>'.*?'|\".*?\") on line (?P<n2>[\d,]+); allowed: one throughput unit per paste",
         "{f} línea {n1}{pt}: unidad {u} frente a {v} en la línea {n2}; se admite: una unidad de rendimiento por "
         "texto pegado"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): missing columns? (?P<cols>.+?) \(found (?P<found>.*?)\); allowed: "
         r"a header with "
         r"devices,throughput \(optional step_time\)",
         "{f} línea {n1}: {cols_missing} (hay: {found}); se admite: una cabecera con "
         "devices,throughput "
         "(step_time opcional)"),
        (r"RUNS: got ''; allowed: a CSV / JSON-lines file of runs, or --point D:X \(repeatable\)",
         "RUNS: se recibió ''; se admite: un archivo CSV o de líneas JSON con las ejecuciones, o --point D:X "
         "(repetible)"),
        (r"RUNS: got none; allowed: a CSV / JSON-lines file of runs, or --point D:X \(repeatable\)",
         "RUNS: no se recibió ninguna ejecución; se admite: un archivo CSV o de líneas JSON con las ejecuciones, o "
         "--point D:X (repetible)"),
        (r"(?P<f>.+?): no runs after the header; allowed: one row per run \(devices,throughput\)",
         "{f}: ninguna ejecución tras la cabecera; se admite: una fila por ejecución (devices,throughput)"),
        (r"runs: got (?P<n1>[\d,]+) distinct device counts; allowed: at most (?P<n2>[\d,]+) \(repeats of one size "
         r"are averaged, so thin the sizes, not the repeats\)",
         "ejecuciones: se recibieron {n1} números de dispositivos distintos; se admite: como mucho {n2} (las "
         "repeticiones de un tamaño se promedian: reduzca los tamaños, no las repeticiones)"),
        # files a command reads: a system (catalog), a calibration (predict)
        (r"(?P<flag>--\S+): got (?P<g>'.*'); allowed: a readable JSON file \((?P<why>.+)\)",
         "{flag}: se recibió {g}; se admite: un archivo JSON legible ({why})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): not UTF-8 text; allowed: a JSON file as (?P<j>systems|models).json",
         "{flag}: {f}: no es texto UTF-8; se admite: un archivo JSON como {j}.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): a number too long to read; allowed: a JSON file as (?P<j>systems|models).json",
         "{flag}: {f}: un número demasiado largo para leerlo; se admite: un archivo JSON como {j}.json"),
        (r"(?P<f>.+?) line (?P<n1>[\d,]+): nested too deeply; allowed: one JSON object per line",  # one line of many
         "{f} línea {n1}: anidado a demasiada profundidad; se admite: un objeto JSON por línea"),
        (r"(?P<f>.+?): nested too deeply; allowed: one JSON object per line",
         "{f}: anidado a demasiada profundidad; se admite: un objeto JSON por línea"),
        (r"(?P<flag>--\S+): (?P<f>.+?): nested too deeply; allowed: a JSON file as (?P<j>systems|models).json",
         "{flag}: {f}: anidado a demasiada profundidad; se admite: un archivo JSON como {j}.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): nested too deeply; allowed: JSON from `dpscale predict`, `fit` or `measure "
         r"--json` \(records with devices and efficiency\)",  # (plan --efficiency-file, review KJ)
         "{flag}: {f}: anidado a demasiada profundidad; se admite: JSON de `dpscale predict`, `fit` o `measure "
         "--json` (registros con devices y efficiency)"),
        (r"(?P<flag>--\S+): (?P<f>.+?) line (?P<n1>[\d,]+): not JSON \((?P<why>.+)\)",
         "{flag}: {f} línea {n1}: no es JSON ({why})"),
        # a JSON file of blanks alone (files.empty, as fit's and validate's)
        (r"(?P<flag>--\S+): (?P<f>.+?): empty; allowed: a JSON file as (?P<j>systems|models).json",
         "{flag}: {f}: sin contenido; se admite: un archivo JSON como {j}.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): empty; allowed: JSON from `dpscale predict`, `fit` or `measure "
         r"--json` \(records with devices and efficiency\)",
         "{flag}: {f}: sin contenido; se admite: JSON de `dpscale predict`, `fit` o `measure --json` (registros "
         "con devices y efficiency)"),
        (r"--calibration: (?P<f>.+?): empty; allowed: JSON with numbers busbw_gbs and alpha_s",
         "--calibration: {f}: sin contenido; se admite: JSON con los números busbw_gbs y alpha_s"),
        (r"(?P<flag>--\S+): (?P<f>.+?): (?P<k>'.*') at the top; allowed: an object \{'systems': \{name: \{\.\.\.\}\}\} "
         r"as systems.json, or one system's fields alone",
         "{flag}: {f}: {k} en el nivel superior; se admite: un objeto {{'systems': {{nombre: {{...}}}}}} como "
         "systems.json, o los campos de un sistema solos"),
        (r"(?P<flag>--\S+): (?P<f>.+?): allowed: an object \{'systems': \{name: \{\.\.\.\}\}\} as systems.json",
         "{flag}: {f}: se admite: un objeto {{'systems': {{nombre: {{...}}}}}} como systems.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): (?P<k>'.*') at the top; allowed: an object \{'models': \{name: \{\.\.\.\}\}\} "
         r"as models.json, or one model's fields alone",
         "{flag}: {f}: {k} en el nivel superior; se admite: un objeto {{'models': {{nombre: {{...}}}}}} como "
         "models.json, o los campos de un modelo solos"),
        (r"(?P<flag>--\S+): (?P<f>.+?): allowed: an object \{'models': \{name: \{\.\.\.\}\}\} as models.json",
         "{flag}: {f}: se admite: un objeto {{'models': {{nombre: {{...}}}}}} como models.json"),
        # a model file's field (catalog.checked_model, _hf_entry): the field as the file spells it
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): got (?P<g>.+); allowed: an object as in models.json",
         "{flag}: {f}: modelo {k}: se recibió {g}; se admite: un objeto como en models.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) missing; allowed: transformer or cnn",
         "{flag}: {f}: modelo {k}: falta {x}; se admite: transformer o cnn"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) (?P<g>.+?); allowed: transformer or cnn",
         "{flag}: {f}: modelo {k}: {x} {g}; se admite: transformer o cnn"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) (?P<g>.+?); allowed: true or false",
         "{flag}: {f}: modelo {k}: {x} {g}; se admite: true o false"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) missing; allowed: a whole number from 1 to "
         r"10,000,000",
         "{flag}: {f}: modelo {k}: falta {x}; se admite: un número entero de 1 a 10.000.000"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) (?P<g>.+?); allowed: a whole number from 1 "
         r"to 10,000,000",
         "{flag}: {f}: modelo {k}: {x} {g}; se admite: un número entero de 1 a 10.000.000"),
        # (a config.json's field, named as the file spells it: rope_scaling.original_max_position_embeddings too)
        # ('fld', not 'x': x is said as a number, and its '.' was said as a decimal comma)
        (r"(?P<flag>--\S+): (?P<f>.+?): (?P<fld>[\w.]+) (?P<g>.+?); allowed: a whole number from 1 to 10,000,000",
         "{flag}: {f}: {fld} {g}; se admite: un número entero de 1 a 10.000.000"),
        (r"(?P<flag>--\S+): (?P<f>.+?): (?P<x>\w+) (?P<g>.+?); allowed: true or false",
         "{flag}: {f}: {x} {g}; se admite: true o false"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) (?P<g>.+?); allowed: a parameter count from "
         r"1,000 to 1e\+15 \(7.5e9 for 7.5 billion\)",
         "{flag}: {f}: modelo {k}: {x} {g}; se admite: un número de parámetros de 1.000 a 1e+15 (7.5e9 para 7.500 "
         "millones)"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): params (?P<g>\S+); allowed: a parameter count within "
         r"(?P<x>\S+)× of the (?P<n2>\S+) its shape gives \(12·layers·hidden² \+ vocab·hidden; 7e9 for 7 billion\)",
         "{flag}: {f}: modelo {k}: params {g}; se admite: un número de parámetros a menos de {x}× de los {n2} que da "
         "su forma (12·layers·hidden² + vocab·hidden; 7e9 para 7.000 millones)"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): key (?P<g>'.*?') \(a mixture of experts' count: its "
         r"FLOPs need active_params, the parameters one token passes through\); allowed: active_params beside it, or "
         r"no expert count \(a dense model\)",
         "{flag}: {f}: modelo {k}: clave {g} (un número de expertos de una mezcla de expertos: sus FLOPs necesitan "
         "active_params, los parámetros por los que pasa un token); se admite: active_params junto a ella, o ningún "
         "número de expertos (un modelo denso)"),
        # (a mixture of experts' active count: at most its params, said as a number: 4,67028e+10)
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<fld>\w+) (?P<g>.+?); allowed: the parameters one "
         r"token passes through \(a mixture of experts'\), from 1,000 to its (?P<p>\w+) \((?P<n2>\S+)\)",
         "{flag}: {f}: modelo {k}: {fld} {g}; se admite: los parámetros por los que pasa un token (los de una mezcla "
         "de expertos), de 1.000 a su {p} ({n2})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): num_experts_per_tok (?P<n1>\d+); allowed: at most num_local_experts "
         r"\((?P<n2>\d+)\)",
         "{flag}: {f}: num_experts_per_tok {n1}; se admite: como mucho num_local_experts ({n2})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) (?P<g>.+?); allowed: forward GMACs an image, "
         r"a number > 0, at most 1e\+15",
         "{flag}: {f}: modelo {k}: {x} {g}; se admite: GMAC hacia delante por imagen, un número > 0, como mucho 1e+15"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): (?P<x>\w+) (?P<g>.+?); allowed: a divisor of (?P<h>\w+) "
         r"\((?P<n>\d+)\)",
         "{flag}: {f}: modelo {k}: {x} {g}; se admite: un divisor de {h} ({n})"),
        # (a config.json's key-value heads: its fields as the file spells them, no model 'name': before them)
        (r"(?P<flag>--\S+): (?P<f>.+?): (?P<fld>\w+) (?P<g>.+?); allowed: a divisor of (?P<h>\w+) \((?P<n>\d+)\)",
         "{flag}: {f}: {fld} {g}; se admite: un divisor de {h} ({n})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): key (?P<g>'.*?') \(did you mean (?P<m>'.*?')\?\); "
         r"allowed: (?P<keys>.+) and keys that describe it",
         "{flag}: {f}: modelo {k}: clave {g} (¿quería decir {m}?); se admite: {keys} y claves que lo describan"),
        # ('types': 'llama, …, gemma2 or phi3', its 'or' said in the language; not 't', which is said as a number)
        (r"(?P<flag>--\S+): (?P<f>.+?): model_type (?P<g>.+?); allowed: (?P<types>.+?) \(a Hugging Face config whose "
         r"count its shape gives\), or models.json's fields",
         "{flag}: {f}: model_type {g}; se admite: {types} (una configuración de Hugging Face cuyo número de parámetros "
         "da su forma), o los campos de models.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): (?P<x>attention_bias|mlp_bias) (?P<g>.+?); allowed: false \(the (?P<m>\w+) "
         r"form counted has no biases there\)",
         "{flag}: {f}: {x} {g}; se admite: false (la forma de {m} que se cuenta no tiene sesgos ahí)"),
        (r"(?P<flag>--\S+): (?P<f>.+?): model (?P<k>'.*?'): window_layers (?P<g>.+?); allowed: a whole number from 0 "
         r"to layers \((?P<n>\d+)\)",
         "{flag}: {f}: modelo {k}: window_layers {g}; se admite: un número entero de 0 a layers ({n})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): max_window_layers (?P<g>.+?); allowed: a whole number from 0 to 10,000,000",
         "{flag}: {f}: max_window_layers {g}; se admite: un número entero de 0 a 10.000.000"),
        (r"(?P<flag>--\S+): (?P<f>.+?): layer_types (?P<g>.+?); allowed: a list of num_hidden_layers \((?P<n>\d+)\) "
         r"entries, each \"full_attention\" or \"sliding_attention\"",
         "{flag}: {f}: layer_types {g}; se admite: una lista de num_hidden_layers ({n}) entradas, cada una "
         "\"full_attention\" o \"sliding_attention\""),
        (r"(?P<flag>--\S+): (?P<f>.+?): (?P<x>\w+) missing; allowed: a config.json with (?P<keys>.+)",
         "{flag}: {f}: falta {x}; se admite: un config.json con {keys}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): attention_dropout (?P<g>.+?); allowed: a number in \[0, 1\)",
         "{flag}: {f}: attention_dropout {g}; se admite: un número en [0, 1)"),
        (r"(?P<flag>--\S+): (?P<f>.+?): num_attention_heads (?P<g>\S+); allowed: a divisor of hidden_size "
         r"\((?P<n1>[\d,]+)\), or a head_dim beside it \(each head's width\)",
         "{flag}: {f}: num_attention_heads {g}; se admite: un divisor de hidden_size ({n1}), o un head_dim junto a "
         "él (el ancho de cada cabeza)"),
        (r"(?P<flag>--\S+): (?P<f>.+?): the count its shape gives, (?P<x>[\d,]+); allowed: a parameter count from "
         r"1,000 to 1e\+15 \(7.5e9 for 7.5 billion\)",
         "{flag}: {f}: el número de parámetros que da su forma, {x}; se admite: un número de parámetros de 1.000 a "
         "1e+15 (7.5e9 para 7.500 millones)"),
        (r"(?P<flag>--system|--model): got (?P<g>'.*'); allowed \(from (?P<p>.+?)\): (?P<names>.+)",
         "{flag}: se recibió {g}; se admite (de {p}): {names}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): got (?P<g>.+); allowed: an object as in systems.json",
         "{flag}: {f}: sistema {k}: se recibió {g}; se admite: un objeto como en systems.json"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): gpu (?P<got>'[^']*') \(the catalog's (?P<c>'[^']*') is "
         r"the (?P<n>.+?), not the (?P<form>\S+) part: peak and memory bandwidth differ\); allowed: (?P<names>.+)",
         "{flag}: {f}: sistema {k}: gpu {got} (la {c} del catálogo es la {n}, no la versión {form}: su pico y su ancho "
         "de banda de memoria difieren); se admite: {names}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): gpu (?P<got>'[^']*') \(did you mean (?P<mean>.+?)\?\); "
         r"allowed: (?P<names>.+)",
         "{flag}: {f}: sistema {k}: gpu {got} (¿quería decir {mean}?); se admite: {names}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): gpu (?P<g>.+?); allowed: (?P<names>.+)",
         "{flag}: {f}: sistema {k}: gpu {g}; se admite: {names}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?') needs numbers > 0 \(and below 1e300\) for "
         r"(?P<keys>.+?) \(got (?P<g>\{.*\})\)",
         "{flag}: {f}: el sistema {k} necesita números > 0 (y por debajo de 1e300) en {keys} (se recibió {g})"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?') needs numbers > 0 \(and below 1e300\) for (?P<keys>.+)",
         "{flag}: {f}: el sistema {k} necesita números > 0 (y por debajo de 1e300) en {keys}"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): gpus_per_node (?P<g>.+?); allowed: a whole number ≥ 1",
         "{flag}: {f}: sistema {k}: gpus_per_node {g}; se admite: un número entero ≥ 1"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): nics (?P<g>.+?); allowed: the node's compute NICs, a "
         r"whole number from 1 to 1,000,000",
         "{flag}: {f}: sistema {k}: nics {g}; se admite: las NIC de cómputo del nodo, un número entero de 1 a "
         "1.000.000"),
        (r"(?P<flag>--\S+): (?P<f>.+?): system (?P<k>'.*?'): key (?P<g>'.*?') \(did you mean (?P<m>'.*?')\?\); "
         r"allowed: (?P<keys>.+) and keys that describe it",
         "{flag}: {f}: sistema {k}: clave {g} (¿quería decir {m}?); se admite: {keys} y claves que lo describan"),
        (r"(?P<flag>--baseline-devices) with --throughput/--step-time: a step of (?P<x>[\d.e+-]+) s at "
         r"(?P<n1>\d+) devices is shorter than this cluster's modelled all-reduce and wait alone "
         r"\((?P<t>[\d.e+-]+) s\); allowed: a baseline measured on this model and cluster, or at one device",
         "{flag} con --throughput/--step-time: un paso de {x} s con {n1} dispositivos es más corto que el all-reduce "
         "y la espera modelados de este clúster por sí solos ({t} s); se admite: una referencia medida con este "
         "modelo y clúster, o con un dispositivo"),
        (r"--calibration: (?P<f>.+?): (?P<k>busbw_gbs|alpha_s) missing; allowed: JSON with numbers busbw_gbs and "
         r"alpha_s",
         "--calibration: {f}: falta {k}; se admite: JSON con los números busbw_gbs y alpha_s"),
        (r"--calibration: (?P<f>.+?): (?P<k>busbw_gbs|alpha_s) (?P<v>.+); allowed: JSON with numbers busbw_gbs and "
         r"alpha_s",
         "--calibration: {f}: {k} {v}; se admite: JSON con los números busbw_gbs y alpha_s"),
        (r"--calibration: (?P<f>.+?): allowed: JSON with numbers busbw_gbs and alpha_s",
         "--calibration: {f}: se admite: JSON con los números busbw_gbs y alpha_s"),
        (r"--calibration: (?P<f>.+?): points\[(?P<n1>\d+)\] is (?P<q>.*); allowed: an object with numbers bytes and "
         r"busbw_gbs",
         "--calibration: {f}: points[{n1}] es {q}; se admite: un objeto con los números bytes y busbw_gbs"),
        (r"--calibration: (?P<f>.+?): points (?P<q>.*); allowed: a list of measured sizes",
         "--calibration: {f}: points {q}; se admite: una lista de tamaños medidos"),
        (r"(?P<w>--system-file: .+?): system (?P<k>'[^']*'): intra_link (?P<q>.*); allowed: one of the catalog's "
         r"links \((?P<ls>.+)\), or no intra_link",  # the system as the catalog's own refusals name it: sistema 'a'
         "{w}: sistema {k}: intra_link {q}; se admite: uno de los enlaces del catálogo ({ls}), o ningún intra_link"),
        (r"--calibration: (?P<f>.+?): busbw_gbs (?P<e>\S+), alpha_s (?P<m>\S+); allowed: busbw_gbs as a bandwidth in "
         r"GB/s, from (?P<x>\S+) to (?P<t>\S+), alpha_s from 0 to 1 \(s\)",
         "--calibration: {f}: busbw_gbs {e}, alpha_s {m}; se admite: busbw_gbs como ancho de banda en GB/s, de {x} "
         "a {t}, alpha_s de 0 a 1 (s)"),
        (r"--calibration: (?P<f>.+?): point bytes (?P<e>\S+), busbw_gbs (?P<m>\S+); allowed: bytes from 1 to 1e15 "
         r"and busbw_gbs > 0 and ≤ (?P<x>\S+), at most a minute a message \(bytes ≤ busbw_gbs × 60 GB\)",
         "--calibration: {f}: punto de {e} bytes, busbw_gbs {m}; se admite: bytes de 1 a 1e15 y busbw_gbs > 0 y "
         "≤ {x}, como mucho un minuto por mensaje (bytes ≤ busbw_gbs × 60 GB)"),
        # measure's set-up checks (faces/cli/measure.py, sources/measure)
        (r"--model-file: got (?P<g>'.*') \((?P<why>[^()]+)\); allowed: a Python file defining "
         r"build_model\(\) and make_batch\(batch_size, generator\) \[and loss_fn\]",
         "--model-file: se recibió {g} ({why}); se admite: un archivo Python que defina build_model() y "
         "make_batch(batch_size, generator) [y loss_fn]"),
        (r"(?P<flag>--\S+): got (?P<g>'.*') \((?P<why>[^()]+)\); allowed: a writable "
         r"file path",
         "{flag}: se recibió {g} ({why}); se admite: la ruta de un archivo en el que se pueda escribir"),
        (r"(?P<flag>--\S+): belongs to `(?P<c>[^`]+)`, not to this mode", "{flag}: pertenece a `{c}`, no a este modo"),
        (r"(?P<flag>--\S+): not used by `(?P<c>[^`]+)`", "{flag}: `{c}` no la usa"),
        (r"--workload: got (?P<g>'.*') with --model-file; allowed: one of them \(the model measured\)",
         "--workload: se recibió {g} con --model-file; se admite: una de las dos (el modelo que se mide)"),
        (r"--grad-accum: (?P<n1>[\d,]+) micro-batches of (?P<t>\S+) s make a (?P<x>\S+) s step; allowed: an "
         r"optimizer step of at most 1e\+07 s \(four months\)",
         "--grad-accum: {n1} microlotes de {t} s dan un paso de {x} s; se admite: un paso del optimizador de como "
         "mucho 1e+07 s (cuatro meses)"),
        (r"--overlap-accumulation and --no-overlap: contradict each other; give one",
         "--overlap-accumulation y --no-overlap: se contradicen; indique una"),
        (r"--overlap-accumulation and --zero (?P<z>\d): ZeRO's reductions already run under a micro-batch's "
         r"backward; allowed: --overlap-accumulation with --zero 0 \(DDP\) only",
         "--overlap-accumulation y --zero {z}: las reducciones de ZeRO ya corren bajo el backward de un microlote; "
         "se admite: --overlap-accumulation solo con --zero 0 (DDP)"),
        (r"--overlap-accumulation and --grad-accum 1: with no accumulation the all-reduce already overlaps the one "
         r"backward; allowed: --overlap-accumulation with --grad-accum 2 or more",
         "--overlap-accumulation y --grad-accum 1: sin acumulación el all-reduce ya se solapa con el único backward; "
         "se admite: --overlap-accumulation con --grad-accum 2 o más"),
        (r"--seq-len: (?P<w>--model|--model-file) (?P<name>.+?) is not a transformer preset \(its FLOPs are per "
         r"image\); allowed: leave it out, or a transformer --model",
         "--seq-len: {w} {name} no es un modelo transformer (sus FLOPs son por imagen); se admite: omitirla, o un "
         "--model transformer"),
        (r"--devices: got (?P<n1>[\d,]+) with --device (?P<d>\w+); allowed: at most (?P<n2>[\d,]+) \(the CUDA "
         r"devices here\), or --device cpu",
         "--devices: se recibió {n1} con --device {d}; se admite: como mucho {n2} (los dispositivos CUDA de esta "
         "máquina), o --device cpu"),
        (r"--devices: got (?P<n1>[\d,]+); allowed: at most (?P<n2>[\d,]+) ranks \((?P<x>\d+) per CPU core here\) — "
         r"more would measure the scheduler, not data parallelism; use torchrun across machines",
         "--devices: se recibió {n1}; se admite: como mucho {n2} procesos ({x} por núcleo de CPU aquí) — más "
         "medirían el planificador, no el paralelismo de datos; use torchrun entre máquinas"),
    ),
}  # fmt: skip


# `dpscale measure`'s failures: 'size 2: rank 1 crashed: …' in parts, each said in the language (the exception's
# own text stays as Python wrote it)
MEASURE_PARTS: dict[str, tuple[tuple[str, str], ...]] = {
    "es": (
        (r"^size (\d+): ", r"tamaño \1: "),
        (r"^(tamaño \d+: )all ranks ", r"\1todos los procesos "),
        (r"^(tamaño \d+: )rank (\d+(, \d+)+) ", r"\1procesos \2 "),
        (r"^(tamaño \d+: )rank ", r"\1proceso "),
        (r"^(tamaño \d+: )todos los procesos made no progress for ", r"\1ningún proceso avanzó en "),
        (r"^(tamaño \d+: (todos los procesos|procesos [\d, ]+)) made no progress for ", r"\1 no avanzaron en "),
        (r"^(tamaño \d+: [^:]*?) crashed: ", r"\1 falló: "),
        (r"^(tamaño \d+: [^:]*?) was killed by ", r"\1 murió por "),
        (r"^(tamaño \d+: [^:]*?) exited with code ", r"\1 salió con código "),
        (r" finished without a result", " terminó sin resultado"),
        (r"^(tamaño \d+: )ranks could not start \(([^()]+)\)", r"\1los procesos no pudieron arrancar (\2)"),
        (r" made no progress for ", " no avanzó en "),
        (r" (avanzó|avanzaron) en (\d+)\.(\d+) s", r" \1 en \2,\3 s"),  # the limit as the language writes it: 0,01 s
        (r" s while starting \(the start-up allowance\)", " s al arrancar (margen de arranque)"),
        (r"; stopped all ranks", "; se detuvieron todos los procesos"),
        (r" \(the ranks' output: (\S+)\)", r" (salida de los procesos: \1)"),
        (r"; finished sizes are in (\S+)$", r"; los tamaños terminados están en \1"),
        (
            r"^--out: could not write (.+) \((.+)\); this size's result is shown, not saved; stopped$",
            r"--out: no se pudo escribir \1 (\2); el resultado de este tamaño se muestra, no se guardó; detenido",
        ),
        (
            r"^--out: could not write (.+) \((.+)\); the calibration is shown, not saved$",
            r"--out: no se pudo escribir \1 (\2); la calibración se muestra, no se guardó",
        ),
    ),
}


# Reasons quoted inside a refusal: the OS's strerror, JSON's parser, a path check's own words.
REASONS: dict[str, dict[str, str]] = {
    "es": {
        "No such file or directory": "no existe",
        "Not Found": "no encontrado",  # the server's 404 and 405 (faces.web.app.http_error)
        "Method Not Allowed": "método no permitido",
        "Is a directory": "es una carpeta",
        "Not a directory": "una parte de la ruta no es una carpeta",
        "Permission denied": "permiso denegado",
        "Bad file descriptor": "descriptor de archivo no válido",  # `dpscale fit - 0>file`: '-' open for writing only
        "not UTF-8 text": "no es texto UTF-8",
        "not a file path": "no es la ruta de un archivo",
        "more than 64 MiB: not an input file": "más de 64 MiB: no es un archivo de entrada",
        # files.STDIN_TTY, STDIN_CLOSED: an input file given as '-'
        "standard input is a terminal: pipe a file in, or give its path": (
            "la entrada estándar es un terminal: pase un archivo por una tubería, o dé su ruta"
        ),
        "standard input is closed": "la entrada estándar está cerrada",
        "standard input is what '-' names, read, not written: a file to write, ./- for one named -": (  # STDIN_OUT
            "la entrada estándar es lo que nombra '-', que se lee, no se escribe: un archivo donde escribir, ./- para "
            "uno llamado -"
        ),
        "no such file": "no existe",
        "not a .py file": "no es un archivo .py",
        "a folder": "es una carpeta",
        "no such folder": "la carpeta no existe",
        "not writable": "no se puede escribir",
        "a named pipe": "es una tubería con nombre",  # files.unwritable's, and the OS's for a path it cannot take
        "File name too long": "nombre de archivo demasiado largo",
        "Too many levels of symbolic links": "demasiados niveles de enlaces simbólicos",
        "Expecting value": "se esperaba un valor",
        "Expecting property name enclosed in double quotes": "se esperaba un nombre entre comillas dobles",
        "Extra data": "datos de más",
        "Unterminated string starting at": "cadena sin cerrar",
        "Expecting ',' delimiter": "se esperaba ','",
        "Expecting ':' delimiter": "se esperaba ':'",
        "Invalid control character at": "carácter de control no válido",
        "Invalid \\escape": "secuencia de escape no válida",  # '\q' in a string: it was said in English
        "Invalid \\uXXXX escape": "escape \\uXXXX no válido",
        "Illegal trailing comma before end of object": "coma sobrante antes del final del objeto",  # Python 3.13's
        "Illegal trailing comma before end of array": "coma sobrante antes del final de la lista",
        # csv's (validate's and fit's rows)
        "',' expected after '\"'": "se esperaba ',' tras '\"'",
        "unexpected end of data": "fin de datos inesperado",
        "line contains NUL": "la línea contiene NUL",
        "field larger than field limit (131072)": "un campo mayor que el límite de 131.072 caracteres",
        # measure's --out (the OS's strerror when a record cannot be written)
        "No space left on device": "no queda espacio en el dispositivo",
        "Read-only file system": "sistema de archivos de solo lectura",
        "Disk quota exceeded": "cuota de disco superada",
        "stdout is closed": "la salida estándar está cerrada",  # `dpscale … >&-` (cli._ClosedStdout)
        # serve's --host and --port (the OS's strerror, getaddrinfo's words)
        "Address already in use": "la dirección ya está en uso",
        "in use": "en uso",
        "Cannot assign requested address": "no se puede asignar la dirección pedida",
        "Name or service not known": "nombre o servicio desconocido",
        "Temporary failure in name resolution": "fallo temporal al resolver el nombre",
        "No address associated with hostname": "ninguna dirección asociada al nombre",
        "Address family for hostname not supported": "familia de direcciones no admitida para el nombre",
        "encoding of hostname failed": "no se puede codificar el nombre",  # a name IDNA cannot encode (é..x)
        "Invalid argument": "argumento no válido",  # EINVAL: bind refused the address (fe80::1 alone)
    },
}
