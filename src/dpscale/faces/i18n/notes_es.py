"""The library's notes in Spanish: loaded only when a note is said in Spanish (faces.i18n.say)."""

from __future__ import annotations

# The library's notes (dpscale.notes.EN) in the other languages, by the same keys and fields.
NOTES: dict[str, dict[str, str]] = {
    "es": {
        "superlinear": (
            "E por encima de {spread:g}, más que la dispersión de una repetición sobre 1: superlineal — el clúster "
            "superó el escalado perfecto (a menudo efectos de caché, o una referencia lenta); se informa, no se rechaza"
        ),
        "within_spread": (
            "E por encima de 1 no más que la dispersión de una repetición (hasta {spread:g}): no es superlineal, es "
            "el ruido de los tiempos; se informa tal como se midió (plan --efficiency-file la planifica como 1)"
        ),
        "superlinear_sizes": (
            "E por encima de {spread:g} con {sizes} dispositivos, más que la dispersión de una repetición sobre 1: "
            "superlineal — el clúster superó el escalado perfecto (a menudo efectos de caché, o una referencia lenta); "
            "se informa, no se rechaza"
        ),
        "within_spread_sizes": (
            "E por encima de 1 con {sizes} dispositivos no más que la dispersión de una repetición (hasta {spread:g}): "
            "no es superlineal, es el ruido de los tiempos; se informa tal como se midió (plan --efficiency-file la "
            "planifica como 1)"
        ),
        "rounded_up": "hacen falta exactamente {exact:,.{places}f} dispositivos; redondeado hacia arriba a {d:,}",
        "slower_than_one": (
            "una aceleración de {s:,.{places}{kind}}× con {d:,} dispositivos: el clúster fue más lento que un solo "
            "dispositivo — el rendimiento real es el del clúster entero, el rendimiento por dispositivo el de un "
            "dispositivo solo; si ambos rendimientos son por dispositivo (o ambos del clúster), E es su cociente, "
            "{ratio:.{decimals}{kind}}; E se calcula con lo dado"
        ),
        "slower_than_one_speedup": (
            "una aceleración de {s:,.{places}{kind}}× con {d:,} dispositivos: el clúster fue más lento que un solo "
            "dispositivo — la aceleración es sobre un dispositivo, d·E: si {s:.{sig}g} es E, la aceleración es "
            "{whole:,.{wsig}g}×; E se calcula con lo dado"
        ),
        "zero_units_estimated": (
            "ningún modelo predefinido da las capas: cada unidad repartida es una de las {layers} capas estimadas a "
            "partir del número de parámetros (N ≈ 12·L·h² con anchura h ≈ 128·L, como en GPT-3 y Llama), de "
            "{mib:,g} MiB de gradientes; --bucket-mb la fija"
        ),
        "calibration_table": (
            "all-reduce dentro del nodo según la calibración medida: su tabla busbw(tamaño) ({n} tamaños)"
        ),
        "calibration_short": (
            "los tamaños de la calibración acaban en {top:,.0f} bytes, menos de la mitad de los buckets de "
            "{mib:,g} MiB, cuyo ancho de banda dentro del nodo se lee como el de ese tamaño, {busbw:.3g} GB/s: mida "
            "hasta el tamaño del bucket (`dpscale measure allreduce --sizes 1KB..{upto}`)"
        ),
        "calibration_alpha_beta": "all-reduce dentro del nodo según la calibración medida: busbw {busbw:g} GB/s",
        "calibration_elsewhere": (
            "la calibración se midió con {backend} en {device}, {ranks} procesos por nodo, y aquí representa el "
            "all-reduce de {g:,} GPU en un nodo: mida en las GPU del propio clúster, {g:,} procesos (`dpscale measure "
            "allreduce --devices {g}`)"
        ),
        "calibration_nodes": (
            "la calibración se midió a través de {nodes:,} nodos: su ancho de banda es el de su red, y aquí "
            "representa el enlace dentro de un nodo — para --calibration, mida un nodo (torchrun --nnodes 1)"
        ),
        "gpu_unknown": (
            "GPU desconocida: el coste de sincronización supone {hbm:g} TB/s de memoria (clase A100); indique --gpu"
        ),
        "gpu_swapped": (
            "--gpu {gpu} en lugar de la {own} del {system}: se usan su ancho de banda de memoria, su llenado del "
            "anillo (en toda GPU salvo Hopper y Blackwell, los buckets medianos del all-reduce van por debajo del "
            "enlace) y, en una estimación por FLOPs, su pico, con los enlaces del {system} — un sistema con esa GPU "
            "puede tener otros"
        ),
        "system_overridden": "{system} con lo que cambian las opciones: {changes}",
        "intra_bw_unused": (
            "--intra-bw {typed:g} no se usa: el all-reduce medido del archivo de calibración sustituye al enlace del "
            "nodo (E es la misma sin él)"
        ),
        "intra_table_replaced": (
            "--intra-bw {typed:g} sustituyó las cifras por número de GPU de la malla del nodo {system} ({figures} GB/s "
            "con {counts} GPU: un anillo sobre menos de sus GPU tiene menos enlaces) por una sola de {typed:g} GB/s "
            "para todos los números; omita --intra-bw para las de la malla"
        ),
        "inter_share_replaced": (
            "--inter-bw {typed:g} es la red de las {g:,} GPU de cada nodo, en lugar de los {own:g} GB/s a los que "
            "llegan de los {node:g} del nodo {system} ({used:,} de sus {nics:,} NIC: NCCL une cada GPU a la más "
            "cercana); omita --inter-bw para esa parte"
        ),
        "nics_unknown": (
            "con {g:,} de las {whole:,} GPU de cada nodo {system}, se cuenta toda la red del nodo, {inter:g} GB/s, "
            "aunque sus GPU quizá lleguen solo a algunas NIC: indique nics en el archivo del sistema, o --inter-bw"
        ),
        "nics_reached": (
            "con {g:,} de las {whole:,} GPU de cada nodo {system}, la ejecución llega a {used:,} de sus {nics:,} NIC "
            "(NCCL une cada GPU a la más cercana): la red es de {inter:g} GB/s por nodo; --inter-bw la fija"
        ),
        "intra_bidirectional": (
            "--intra-bw {typed:g} es el doble de los {own:g} del {system}: los fabricantes dan NVLink sumando los dos "
            "sentidos (H100: 900 GB/s, 450 en cada uno), y --intra-bw es el de un sentido"
        ),
        "hop_unsourced": (
            "{link} no tiene en links.json una latencia por salto con fuente: la de NVLink, {us:g} µs por salto "
            "(anillo de NCCL, protocolo Simple), ocupa su lugar"
        ),
        "intra_bidirectional_file": (
            "el intra_bw_gbs {typed:g} del archivo de sistema es el doble de los {own:g} GB/s de su intra_link {link}: "
            "los fabricantes dan NVLink sumando los dos sentidos (H100: 900 GB/s, 450 en cada uno), e intra_bw_gbs es "
            "el de un sentido"
        ),
        "inter_one_port_file": (
            "el inter_bw_gbs {bw:g} del archivo de sistema es el de un puerto {link}: inter_bw_gbs es el del nodo, "
            "con todas sus NIC juntas, y las {nics} NIC a las que llegan las GPU de la ejecución dan {node:g} GB/s"
        ),
        "ragged_nodes": (
            "{sizes} dispositivos no llenan nodos enteros de {g} GPU: se modelan como ⌈d/{g}⌉ nodos de {g}, con la "
            "red del último nodo reducida a su parte: las ⌈{nics}·r/{whole}⌉ de sus {nics} NIC a las que llegan sus "
            "r GPU (un último nodo incompleto suele ir aún más lento)"
        ),
        "ragged_mesh": (
            "con {sizes} dispositivos la fase dentro del nodo del all-reduce jerárquico espera a las r GPU del último "
            "nodo, por los enlaces entre ellas (un nodo sin conmutador: la cifra del sistema para r GPU)"
        ),
        "ragged_nodes_whole": (
            "{sizes} dispositivos no llenan nodos enteros de {g} GPU: se modelan como ⌈d/{g}⌉ nodos de {g} (un último "
            "nodo incompleto suele ir más lento: sus GPU pueden alcanzar solo parte de la red del nodo, cuyas NIC no "
            "se dieron)"
        ),
        "precision_no_peak": (
            "el catálogo no da a {gpu} ningún ritmo en {prec} (da {has}): puede que no ejecute {prec} de forma "
            "nativa; E sale del ritmo medido tal como se dio, con los bytes de gradiente de {prec}"
        ),
        "unchecked_arch": (
            "ninguna medición publicada en aceleradores {arch} ({gpu}) entró en la calibración de este modelo — se "
            "calibró en sistemas DGX Volta y Ampere; E inf–sup es la banda de error medida en ellos"
        ),
        "unchecked_size": (
            "más allá de {top:,} dispositivos, el mayor tamaño publicado comprobado: ahí la espera de "
            "sincronización se extrapola"
        ),
        "unchecked_params": (
            "{count} parámetros: las mediciones publicadas solo cubren {lo:g}–{hi:g} M; los términos de la "
            "espera de sincronización se extrapolan por debajo, y no consta que E inf–sup se cumpla"
        ),
        "unchecked_params_large": (
            "{count} parámetros: las mediciones DDP publicadas solo cubren {lo:g}–{hi:g} M, y no consta que "
            "E inf–sup se cumpla"
        ),
        "sync_bytes_held": (
            "{count} parámetros, {gb:.3g} GB de gradientes: {x:,.2f} veces los mayores gradientes que "
            "cubren las mediciones DDP publicadas ({cap:.3g} GB); la parte de la espera de sincronización que crece "
            "con los bytes de gradiente se fija en su valor allí, sin extrapolar (en ejecuciones FSDP publicadas de "
            "125 millones a 13 mil millones de parámetros, validation/fsdp.py, así yerra 0,016 en la mediana; la "
            "recta no podía describir una ejecución de 13 mil millones), y no consta que E inf–sup se cumpla"
        ),
        "unchecked_intra": (
            "{bw:g} GB/s por dispositivo dentro del nodo: las mediciones publicadas solo cubren NVLink a "
            "{lo:g}–{hi:g} GB/s; no consta que E inf–sup se cumpla"
        ),
        "unchecked_inter": (
            "{bw:g} GB/s por nodo entre nodos: las mediciones publicadas solo cubren InfiniBand a {lo:g}–{hi:g} GB/s; "
            "no consta que E inf–sup se cumpla"
        ),
        "unchecked_inter_low": (
            "{bw:g} GB/s por nodo entre nodos: las mediciones publicadas solo cubren InfiniBand a {lo:g}–{hi:g} GB/s; "
            "no consta que E inf–sup se cumpla. GB/s son bytes: si {bw:g} son los Gb/s de la red, son {bits:g} GB/s "
            "({flag} lo lee así)"
        ),
        "inter_per_nic": (
            "--inter-bw es el del nodo, todas sus NIC juntas: si {bw:g} GB/s son los de una NIC y el nodo tiene {g} "
            "(una por GPU, como los nodos DGX y HGX), el del nodo es {node:g} GB/s"
        ),
        "inter_bits_as_bytes": (
            "--inter-bw {typed:g} es 8 veces los {own:g} GB/s del {system}: las redes se venden en Gb/s, y {typed:g} "
            "Gb/s son {own:g} GB/s ({flag} lo lee así); --inter-bw son bytes"
        ),
        "inter_per_nic_known": (
            "--inter-bw es el del nodo, todas sus NIC juntas: si {bw:g} GB/s son los de una NIC, las {nics} NIC a las "
            "que llegan las GPU de la ejecución en cada nodo {system} dan {node:g} GB/s"
        ),
        "ddp_memory": (
            "DDP simple necesita {need:,.0f} GB por GPU solo para los estados del modelo (Adam con estados fp32, {per} "
            "bytes por parámetro; 8 con todos en bf16: `dpscale memory --precision bf16`), más que los {mem:g} GB{gib} "
            "de la {gpu}: repártalos — --zero 1–3 predice ZeRO/FSDP, `dpscale memory --precision {mp}` lo dimensiona"
        ),
        "zero_memory": (
            "{stage} necesita {need:,.0f} GB por GPU para los estados del modelo con {d:,} dispositivos (Adam), más "
            "que los {mem:g} GB{gib} de la {gpu}: con menos dispositivos necesita más; `dpscale memory --precision "
            "{mp}` lo dimensiona"
        ),
        "activation_memory": (
            "un lote de {b:,} secuencias de {s:,} guarda {sel:,.1f} GB de activaciones por GPU aun sin las "
            "puntuaciones de atención (FlashAttention o recómputo selectivo; {act:,.1f} GB con ellas; Korthikanti et "
            "al.), más que los {left:,.1f} GB que dejan los estados del modelo de los {held:.1f} GB de la {gpu} con "
            "{d:,} dispositivos: E es la del paso tal como se da, que necesitaría recómputo completo (cerca de un "
            "tercio más de cómputo), paralelismo de tensor o de pipeline, o un lote o una secuencia menores; "
            "`dpscale memory --precision {mp}` lo dimensiona"
        ),
        "accumulation_exposed": (
            "con {ga:,} pasos de acumulación el all-reduce se cuenta tras el último microlote, como hacen los "
            "scripts de entrenamiento publicados (acumular y luego sumar con all-reduce); el no_sync de DDP lo "
            "solapa con el último backward: --overlap-accumulation (con {d:,} dispositivos, E {e_hidden_said} en "
            "vez de {e_said})"
        ),
        "network_unknown": (
            "el nombre de la red, '{link}', no distingue Ethernet (eth, RoCE, EFA, GbE) de InfiniBand (ib, "
            "EDR/HDR/NDR/XDR): no nombra ninguna, o nombra las dos; se predice como la InfiniBand de todas las "
            "ejecuciones multinodo de la calibración"
        ),
        "network_ethernet": (
            "la red es Ethernet ({link}), no la InfiniBand de todas las ejecuciones multinodo con que se calibró; "
            "ejecuciones FSDP publicadas (validation/fsdp.py, 23 puntos, 16 de ellos sobre RoCE) se predijeron con un "
            "error de 0,016 en la mediana y 0,037 en el percentil 90, pero la única "
            "curva publicada de all-reduce sobre EFA (4 × 8 B200) da 157 GB/s con 64 MiB donde este modelo da 227 "
            "(physics.md §1.4): entre nodos E puede ser optimista"
        ),
        "zero_unchecked": (
            "{stage}: gradientes con reduce-scatter durante el backward; parámetros con all-gather tras el paso del "
            "optimizador en ZeRO-1, donde nada lo oculta (DeepSpeed; también el ZeroRedundancyOptimizer de torch, "
            "aunque este hace all-reduce de los gradientes) y antes de usarse "
            "en ZeRO-2/3, precargados durante el forward como hace FSDP (ZeRO-2 de DeepSpeed hace el all-gather tras "
            "el paso, y expone más); en unidades de {mib:,g} MiB de gradientes (--bucket-mb; por defecto, los "
            "buckets de 5e8 elementos de DeepSpeed en ZeRO-1/2 y una capa del transformer, la unidad de FSDP, en "
            "ZeRO-3), con costes de anillo, solapadas (el valor por defecto de DeepSpeed en ZeRO-1/2, overlap_comm "
            "apagado, es --no-overlap); solo ZeRO-3 se comprobó, en un conjunto de tablas FSDP FULL_SHARD publicadas "
            "(MPT de 125 millones a 13 mil millones de parámetros en 8–128 H100 y A100, E relativa al tamaño menor con "
            "un error mediano de 0,016, "
            "validation/fsdp.py) — la espera y E inf–sup vienen de ejecuciones DDP. Las columnas de all-reduce recogen "
            "estas colectivas"
        ),
        "strong_scaling": (
            "un lote global fijo de {g:,}: el microlote de cada dispositivo baja de {b_hi:,} muestras a {b_lo:,} en "
            "estos tamaños, y su cómputo con él, mientras su all-reduce se mantiene (escalado fuerte). En las {rows} "
            "filas publicadas de escalado fuerte de validation/ este modelo sobrestimó E en {over} y erró en "
            "{median:.3f} en la mediana ({weak:.3f} en las {weak_rows} filas con un lote por dispositivo fijo): "
            "cuente con una E menor que la mostrada"
        ),
        "strong_scaling_one": (
            "un lote global fijo de {g:,}: el microlote de cada dispositivo es de {b_lo:,} en este tamaño y baja con "
            "más dispositivos, y su cómputo con él, mientras su all-reduce se mantiene (escalado fuerte). En las "
            "{rows} filas publicadas de escalado fuerte de validation/ este modelo sobrestimó E en {over} y erró en "
            "{median:.3f} en la mediana ({weak:.3f} en las {weak_rows} filas con un lote por dispositivo fijo): "
            "cuente con una E menor que la mostrada"
        ),
        "strong_scaling_least": (
            "un lote global fijo de {g:,}: el microlote de cada dispositivo es de {b_lo:,} en este tamaño, lo menos "
            "que puede ser (con más dispositivos alguno se quedaría sin muestra), y su cómputo con él, mientras su "
            "all-reduce se mantiene (escalado fuerte). En las {rows} filas publicadas de escalado fuerte de "
            "validation/ este modelo sobrestimó E en {over} y erró en {median:.3f} en la mediana ({weak:.3f} en las "
            "{weak_rows} filas con un lote por dispositivo fijo): cuente con una E menor que la mostrada"
        ),
        "one_device_inferred": (
            "un dispositivo solo rendiría {v:,.6g} muestras/s (la referencia de {d0:,} dispositivos sin su all-reduce "
            "ni su espera): E y la aceleración son relativas a él; «E frente a d0» es E respecto a los {d0:,} "
            "dispositivos medidos, E(d) / {e0:.3f}, como la da una tabla que empieza en {d0:,}"
        ),
        "one_device_inferred_tokens": (
            "un dispositivo solo rendiría {v:,.6g} tokens/s (la referencia de {d0:,} dispositivos sin su all-reduce "
            "ni su espera): E y la aceleración son relativas a él; «E frente a d0» es E respecto a los {d0:,} "
            "dispositivos medidos, E(d) / {e0:.3f}, como la da una tabla que empieza en {d0:,}"
        ),
        "cpu_decode": (
            "{n} dispositivos de un nodo necesitarían {need:,.0f} imágenes/s; decodificar JPEG en sus {cores:,.0f} "
            "núcleos de CPU da como mucho unas {cap:,.0f} ({rate:g} por núcleo donde las ejecuciones publicadas "
            "dejaron de escalar), y E caería por debajo de esta predicción — salvo que las imágenes se decodifiquen "
            "en la GPU (DALI); el rendimiento medido de la carga de datos va en --input-rate"
        ),
        "params_off_preset": (
            "un --params de {typed:,.12g} es 1/{x:,.0f} de los {count} parámetros del {model}: --params es un número "
            "de parámetros (7e9 para 7 mil millones), no millones; E se calcula con lo dado"
        ),
        "moe_active": (
            "una mezcla de expertos: sus FLOPs cuentan los {count} parámetros por los que pasa un token ({pct:.3g} % "
            "del total), el all-reduce del gradiente todos"
        ),
        "params_over_preset": (
            "un --params de {typed:,.12g} es {x:,.0f}× los {count} parámetros del {model}, cuyas capas se mantienen "
            "para el nuevo número: un modelo del catálogo de ese tamaño lo describe mejor, si lo hay; si el número es "
            "un error, --params es un número de parámetros (7e9 para 7 mil millones); E se calcula con lo dado"
        ),
        "intra_node_total": (
            "--intra-bw {typed:g} es {k:g} veces los {own:g} del {system}: los fabricantes dan el NVLink de un nodo "
            "sumando sus {g} GPU, a menudo también los dos sentidos (DGX H100: 7,2 TB/s, 8 × 900), y --intra-bw es el "
            "de una GPU, en un sentido; E se calcula con lo dado"
        ),
        "intra_node_total_file": (
            "el intra_bw_gbs {typed:g} del archivo de sistema es {k:g} veces los {own:g} GB/s de su intra_link "
            "{system}: los fabricantes dan el NVLink de un nodo sumando sus {g} GPU, a menudo también los dos sentidos "
            "(DGX H100: 7,2 TB/s, 8 × 900), e intra_bw_gbs es el de una GPU, en un sentido; E se calcula con lo dado"
        ),
        "inter_bits_file": (
            "el inter_bw_gbs {typed:g} del archivo de sistema es 8 veces los {node:g} GB/s de su red ({nics} × "
            "{link}): las redes se venden en Gb/s, y {typed:g} Gb/s son {node:g} GB/s; inter_bw_gbs va en bytes; E se "
            "calcula con lo dado"
        ),
        "input_per_gpu": (
            "un --input-rate de {rate:,.12g} muestras/s por nodo alimenta {feeds:.3g} de sus {g:,} GPU al ritmo de "
            "{v:,.6g} muestras/s que cada una da por sí sola: --input-rate es el ritmo del nodo, todos sus procesos de "
            "carga juntos; si {rate:,.12g} es el de una GPU (un DataLoader medido en un proceso), el del nodo es "
            "{node:,.12g}; E se calcula con lo dado"
        ),
        "beyond_peak": (
            "la referencia medida implica {tflops:,.0f} TFLOP/s por dispositivo, más que el pico de {peak:g} TFLOP/s "
            "de la {gpu}: compruebe la unidad (muestras/s, no tokens/s) y --seq-len; E se calcula con lo dado"
        ),
        "beyond_peak_tokens": (
            "la referencia medida implica {tflops:,.0f} TFLOP/s por dispositivo, más que el pico de {peak:g} TFLOP/s "
            "de la {gpu}: --throughput se leyó en tokens/s por dispositivo — compruebe que es el de un dispositivo, no "
            "el del clúster, y el modelo; E se calcula con lo dado"
        ),
        "step_time_slow": (
            "un --step-time de {s:,.6g} s implica {tflops:.3g} TFLOP/s por dispositivo, el {pct:.2g} % del pico de "
            "{peak:g} TFLOP/s de la {gpu}: --step-time va en segundos — si son milisegundos (los ms de paso de la "
            "tabla), dé {flag}; E se calcula con lo dado"
        ),
        "fp8_mfu": (
            "fracción por defecto en fp8: {base:g} (la de bf16) × {mid:g} (el punto medio de las ganancias de "
            "{lo:g}–{hi:g}× sobre bf16 que publicó torchao para el entrenamiento float8 en 8–512 GPU) ÷ {ratio:.3g} "
            "(el pico fp8 sobre el de bf16) = {pct:.3g} %: las conversiones y las capas que siguen en bf16 alejan "
            "fp8 de su pico; --mfu la fija"
        ),
        "cnn_mfu": (
            "la fracción de un modelo CNN es el punto medio de lo que alcanzan las ejecuciones publicadas de "
            "ResNet-50 de la calibración: el {t_lo:.0f}–{t_hi:.0f} % del pico de los tensor cores (TF32, AMP), el "
            "{f_lo:.0f}–{f_hi:.0f} % del pico fp32 de la V100 (ejecuciones de otros con lotes menores, 50–57 %) — "
            "±{t_pm:.0f} % y ±{f_pm:.0f} % a su alrededor; un --throughput medido fija el cómputo, o --mfu"
        ),
        "cnn_mfu_unchecked": (
            "la fracción de un modelo CNN es el punto medio de lo que alcanzan las ejecuciones publicadas de ResNet-50 "
            "de la calibración en GPU Volta y Ampere, el {t_lo:.0f}–{t_hi:.0f} % del pico de los tensor cores (TF32, "
            "AMP) y el {f_lo:.0f}–{f_hi:.0f} % del pico fp32 de la V100; la calibración no tuvo ningún acelerador "
            "{arch}, y no se sabe si su ±{pm:.0f} % vale allí: las ejecuciones publicadas de ResNet-50 en la H100 (las "
            "pruebas de rendimiento de Lambda, validation/holdout_more9.csv) alcanzaron el {amp:.2g} % del pico de los "
            "tensor cores con AMP, {x:.2f}× la fracción de arriba, {speed:.2f}× la velocidad de la A100 de la misma "
            "tabla con {peak_x:.2f}× su pico de tensor cores y {hbm_x:.2f}× su ancho de banda de memoria — el paso de "
            "una CNN espera a la memoria más que a los tensor cores — y el {fp32:.0f} % del pico fp32 en FP32 "
            "(convoluciones TF32); un --throughput medido fija el cómputo, o --mfu"
        ),
        "cnn_mfu_efficientnet": (
            "la fracción de un modelo CNN es el punto medio de lo que alcanzan las ejecuciones publicadas de "
            "ResNet-50 de la calibración (el {t_lo:.0f}–{t_hi:.0f} % del pico de los tensor cores, el "
            "{f_lo:.0f}–{f_hi:.0f} % del pico fp32 de la V100), y las ejecuciones publicadas del propio EfficientNet "
            "alcanzan mucho menos: el {e_lo:.3g}–{e_hi:.3g} % del pico de los tensor cores en la V100 y la A100, el "
            "{g_lo:.3g}–{g_hi:.3g} % del pico fp32 de la V100 — {x_lo:.2f}–{x_hi:.2f}× la fracción usada aquí (las "
            "filas de DeepLearningExamples en validation/; sus convoluciones depthwise hacen pocos FLOPs por byte de "
            "memoria); un --throughput medido fija el cómputo, o --mfu"
        ),
        "fp32_conv_tf32": (
            "PyTorch ejecuta por defecto las convoluciones de un modelo fp32 en los tensor cores TF32 de la {gpu} "
            "(torch.backends.cudnn.allow_tf32): aquí se cuentan al pico fp32, {fp32:g} TFLOP/s; --precision tf32 las "
            "cuenta a {tf32:g}"
        ),
        "measured_mfu": (
            "utilización de FLOPs del modelo: {gflop:,.6g} GFLOP por muestra × las {v:,.6g} muestras/s por "
            "dispositivo medidas ({d0:,} dispositivos) son el {pct0:.3g} % de {peak:,g} TFLOP/s ({gpu}, {prec}); con "
            "{d:,} dispositivos, E {e_said}, cada dispositivo rinde el {pct:.3g} %"
        ),
        "measured_mfu_vs_d0": (
            "utilización de FLOPs del modelo: {gflop:,.6g} GFLOP por muestra × las {v:,.6g} muestras/s por "
            "dispositivo medidas ({d0:,} dispositivos) son el {pct0:.3g} % de {peak:,g} TFLOP/s ({gpu}, {prec}); con "
            "{d:,} dispositivos, E frente a d0 {e_said}, cada dispositivo rinde el {pct:.3g} %"
        ),
        "measured_mfu_alone": (
            "utilización de FLOPs del modelo: {gflop:,.6g} GFLOP por muestra × las {v:,.6g} muestras/s por "
            "dispositivo medidas ({d0:,} dispositivos) son el {pct0:.3g} % de {peak:,g} TFLOP/s ({gpu}, {prec})"
        ),
        "measured_mfu_tokens": (
            "utilización de FLOPs del modelo: {gflop:,.6g} GFLOP por token × los {v:,.6g} tokens/s por dispositivo "
            "medidos ({d0:,} dispositivos) son el {pct0:.3g} % de {peak:,g} TFLOP/s ({gpu}, {prec}); con {d:,} "
            "dispositivos, E {e_said}, cada dispositivo rinde el {pct:.3g} %"
        ),
        "measured_mfu_vs_d0_tokens": (
            "utilización de FLOPs del modelo: {gflop:,.6g} GFLOP por token × los {v:,.6g} tokens/s por dispositivo "
            "medidos ({d0:,} dispositivos) son el {pct0:.3g} % de {peak:,g} TFLOP/s ({gpu}, {prec}); con {d:,} "
            "dispositivos, E frente a d0 {e_said}, cada dispositivo rinde el {pct:.3g} %"
        ),
        "measured_mfu_alone_tokens": (
            "utilización de FLOPs del modelo: {gflop:,.6g} GFLOP por token × los {v:,.6g} tokens/s por dispositivo "
            "medidos ({d0:,} dispositivos) son el {pct0:.3g} % de {peak:,g} TFLOP/s ({gpu}, {prec})"
        ),
        "e_lost": (
            "adónde va E con {d:,} dispositivos: E {e_said} es la parte de cómputo del paso; el {lost:.3g} % restante "
            "es el all-reduce expuesto, {comm:.3g} %, y la espera de sincronización, {wait:.3g} %"
        ),
        "e_lost_input": (
            "adónde va E con {d:,} dispositivos: E {e_said} es la parte de cómputo del paso; el {lost:.3g} % restante "
            "es el all-reduce expuesto, {comm:.3g} %, la espera de sincronización, {wait:.3g} %, y la espera de datos "
            "de entrada, {stall:.3g} %"
        ),
        "compute_estimated": (
            "cómputo estimado: {tflop:,.4g} TFLOP por microlote al {pct:.3g} % de {peak:,g} TFLOP/s ({gpu})"
        ),
        "flops_per_token": (
            "FLOP del modelo por token, de los que el MFU es una parte (el recuento de PaLM): 6·N = {dense:,.4g} G "
            "(N = {n:,.0f} parámetros) + los 12·L·h·k de la atención = {attn:,.4g} G ({k:,} claves por token) = "
            "{total:,.4g} G; 6·N solo cuenta un {less:.3g} % menos, así que un MFU medido con esa regla queda tanto "
            "por debajo de este: divídalo entre {keep:.3g} para darlo aquí"
        ),
        "flops_per_token_untied": (
            "FLOP del modelo por token, de los que el MFU es una parte (el recuento de PaLM): 6·N = {dense:,.4g} G "
            "(N = {n:,.0f}: sin los {emb:,.0f} parámetros de la incrustación de entrada, una consulta de tabla) + los "
            "12·L·h·k de la atención = {attn:,.4g} G ({k:,} claves por token) = {total:,.4g} G; 6 × todos los "
            "{whole:,.0f} parámetros por los que pasa un token solo cuenta un {less:.3g} % menos, así que un MFU "
            "medido con esa regla queda tanto por debajo de este: divídalo entre {keep:.3g} para darlo aquí"
        ),
        "flops_per_token_untied_more": (
            "FLOP del modelo por token, de los que el MFU es una parte (el recuento de PaLM): 6·N = {dense:,.4g} G "
            "(N = {n:,.0f}: sin los {emb:,.0f} parámetros de la incrustación de entrada, una consulta de tabla) + los "
            "12·L·h·k de la atención = {attn:,.4g} G ({k:,} claves por token) = {total:,.4g} G; 6 × todos los "
            "{whole:,.0f} parámetros por los que pasa un token solo cuenta un {more:.3g} % más (con {k:,} claves, "
            "los 6·V·h de la incrustación pesan más que la atención), así que un MFU medido con esa regla queda "
            "tanto por encima de este: divídalo entre {keep:.3g} para darlo aquí"
        ),
        "compute_estimated_strong": (
            "cómputo estimado: {tflop:,.4g} TFLOP para el microlote de {b:,} muestras de un dispositivo (el lote "
            "global entre los pasos de acumulación) al {pct:.3g} % de {peak:,g} TFLOP/s ({gpu}); el de cada tamaño, "
            "el lote global entre dispositivos × pasos de acumulación, en proporción"
        ),
        "law_constant": "E constante = {value:g}",
        "law_per_size": "E por tamaño: {table}",
        "pipeline_unfilled": (
            "m = {m:,} < p = {p:,}: el pipeline nunca se llena; r = {r:,.1f} % del tiempo ideal, lo mínimo que alcanza "
            "cualquier planificación (la última etapa espera el primer forward y devuelve el último backward), donde "
            "la fórmula cerrada de la planificación (para m ≥ p) da {closed:,.1f} %; una planificación fija como la de "
            "Megatron-LM puede ir peor"
        ),
        "pipeline_unfilled_exact": (
            "m = {m:,} < p = {p:,}: el pipeline nunca se llena — una etapa computa {m:,} de cada {slots:,} turnos de "
            "microlote y está ociosa el {idle:.1f} % del paso; más microlotes por paso lo reducen (con m = 4p = "
            "{m4:,}: {at4:.1f} %), o menos etapas"
        ),
        "pipeline_unfilled_sizes": (
            "m = {sizes} < p = {p:,}: el pipeline nunca se llena; su burbuja sobre tiempo ideal es lo mínimo que "
            "alcanza cualquier planificación (la última etapa espera el primer forward y devuelve el último "
            "backward), por encima de la fórmula cerrada de la planificación (para m ≥ p); una planificación fija "
            "como la de Megatron-LM puede ir peor"
        ),
        "pipeline_unfilled_exact_sizes": (
            "m = {sizes} < p = {p:,}: el pipeline nunca se llena — una etapa computa m de cada m + p − 1 turnos de "
            "microlote y está ociosa la fracción de burbuja del paso; más microlotes por paso la reducen (con m = 4p = "
            "{m4:,}: {at4:.1f} %), o menos etapas"
        ),
        "pipeline_interleaved": "interleaved: Megatron-LM necesita que m sea múltiplo de p ({p:,})",
        "pipeline_interleaved_sizes": (
            "interleaved: Megatron-LM necesita que m sea múltiplo de p ({p:,}), no m = {sizes}"
        ),
        "pipeline_zb_times": (
            "las cifras zero-bubble suponen tiempos iguales de forward, backward de entrada y backward de pesos "
            "(T_F = T_B = T_W)"
        ),
        "pipeline_zb2_in_flight": (
            "ZB-H2 solo elimina la burbuja con al menos 2p − 1 = {need:,} microlotes en vuelo; con m = {m:,} su "
            "burbuja no es cero: se da la de ZB-H1, {zb1_pct:,.1f} % del tiempo ideal, que se acerca más"
        ),
        "pipeline_zb2_in_flight_sizes": (
            "ZB-H2 solo elimina la burbuja con al menos 2p − 1 = {need:,} microlotes en vuelo; con m = {sizes} su "
            "burbuja no es cero: se da la de ZB-H1, que se acerca más"
        ),
        "law_usl": "USL σ = {sigma:g}, κ = {kappa:g}",
        "law_amdahl": "Amdahl, fracción serie = {s:g}",
        "law_predicted": "E(d) predicha (modelo del paso: cómputo, all-reduce expuesto, espera de sincronización)",
        "law_predicted_strong": (
            "E(d) predicha (modelo del paso: cómputo, all-reduce expuesto, espera de sincronización) con un lote "
            "global fijo de {global_batch:,}"
        ),
        "runs_duplicated": (
            "{n} ejecuciones de {d:,} dispositivos, {k} de ellas con un rendimiento idéntico en todas sus cifras: "
            "cuentan una sola vez para el ruido (¿un registro pegado dos veces?)"
        ),
        "runs_oversubscribed": (
            "las ejecuciones con {sizes} dispositivos usaron más procesos × hilos que los núcleos de CPU de su nodo "
            "(sobresuscripción): su E mide el reparto de núcleos, no el hardware — mida esos tamaños con menos "
            "--threads o en más nodos"
        ),
        "runs_replica_drift": (
            "las ejecuciones con {sizes} dispositivos acabaron con sus réplicas distintas (replica_drift de hasta "
            "{drift:.3g}): esos pasos no fueron entrenamiento en paralelo de datos, y su E no es la de ese "
            "entrenamiento"
        ),
        "runs_repeated": (
            "{n} ejecuciones repetidas de {d:,} dispositivos (dispersión {spread:.1f} %) promediadas a {mean:,.6g}"
        ),
        "runs_conflicting": (
            "{n} ejecuciones discordantes de {d:,} dispositivos (dispersión {spread:.{places}f} %, más que el "
            "{bound:.{places}f} % "
            "que un ruido del 1 % entre ejecuciones no supera con {k} ejecuciones el 95 % de las veces) promediadas a "
            "{mean:,.6g}"
        ),
        "extrapolating": (
            "extrapolando a {sizes} dispositivos, más de {factor:g}× el mayor tamaño medido ({top:,}): "
            "ahí la ley es una suposición — mida más cerca antes de comprar"
        ),
        "one_node_measured": (
            "cada tamaño medido cabe en un nodo de {g:,} dispositivos: ninguna ejecución cruzó la red, así que la E "
            "con {sizes} dispositivos, entre nodos, es una suposición de la ley — mida en dos nodos, o deje que "
            "`dpscale predict --system` modele la red"
        ),
        "below_baseline": (
            "tamaños por debajo del menor medido (d0 = {d0:,}), {sizes}: E ahí es relativa a d0 y pasa del 100 %, y "
            "la ley se extrapola por debajo de las ejecuciones medidas — mida uno de esos tamaños para saberlo"
        ),
        "peak_below": (
            "el máximo de rendimiento, en {d} dispositivos, queda por debajo del menor tamaño medido (d0 = {d0}): el "
            "rendimiento ya cae desde ahí, y la ley se lleva por debajo de sus ejecuciones — mida tamaños menores "
            "para situarlo"
        ),
        "extrapolating_peak": (
            "el máximo de rendimiento, en {sizes} dispositivos, queda a más de {factor:g}× el mayor tamaño medido "
            "({top:,}): ahí la ley es una suposición — mida más cerca antes de comprar"
        ),
        "extrapolating_peak_from": (
            "el intervalo del máximo de rendimiento empieza en {sizes} dispositivos, a más de {factor:g}× el mayor "
            "tamaño medido ({top:,}): ahí la ley es una suposición — mida más cerca antes de comprar"
        ),
        "extrapolating_needed": (
            "los dispositivos necesarios, {sizes}, quedan a más de {factor:g}× el mayor tamaño medido ({top:,}): "
            "ahí la ley es una suposición — mida más cerca antes de comprar"
        ),
        "extrapolating_kept": (
            "el mayor tamaño que mantiene esa E, {sizes}, queda a más de {factor:g}× el mayor tamaño medido ({top:,}): "
            "ahí la ley es una suposición — mida más cerca antes de comprar"
        ),
        "few_sizes": (
            "solo {n} tamaños medidos: nada pone a prueba la ley, y el intervalo descansa en un ruido supuesto "
            "del {noise:g} % entre ejecuciones — mida al menos 3 tamaños"
        ),
        "few_sizes_misfit": (
            "solo {n} tamaños medidos: nada pone a prueba la ley, y el ruido entre ejecuciones del intervalo, "
            "{noise:.2g} %, es el desajuste de la ley en el punto medido combinado con un {prior:g} % supuesto — "
            "mida al menos 3 tamaños"
        ),
        "few_sizes_repeats": (
            "solo {n} tamaños medidos: nada pone a prueba la ley (las ejecuciones repetidas dan el ruido, "
            "{noise:.1f} %) — mida al menos 3 tamaños"
        ),
        "split_unmeasured": (
            "{k} parámetros ({params}) para {n} puntos por encima de la referencia: muchos repartos los ajustan "
            "igual, así que cuánto de la pérdida corresponde a cada término lo decide la distribución a priori del "
            "ajuste, no las ejecuciones — la curva vale en los tamaños medidos; más allá, cada reparto la dobla a "
            "su manera, y los intervalos abarcan los repartos que ajustan"
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
            "{law}: el parámetro {params} es igual en todos los tamaños medidos desde d0 = {d0:,}, así que E "
            "relativa a d0 no lo ve — no se estima (n/d) y queda dentro del tiempo de cómputo; mida un dispositivo "
            "para separarlo"
        ),
        "laws_disagree": (
            "la segunda ley ({rival}) pone E con {d:,} dispositivos en {pct:.1f} %, fuera del intervalo de {law}: ahí "
            "importa más qué ley vale que el ruido, y el intervalo no lo muestra — mida más cerca de ese tamaño"
        ),
        "laws_pooled": (
            "los intervalos de predicción combinan por igual las leyes {laws}: los tamaños medidos no descartan "
            "{others} (su desajuste no se distingue del de la ley {law} dentro del ruido), así que qué ley vale más "
            "allá de ellos es parte de la incertidumbre; lo mismo vale para los intervalos del máximo y de los "
            "dispositivos necesarios; los valores centrales y los parámetros son de la ley {law}; --law {law} da "
            "los intervalos, más estrechos, de una sola ley"
        ),
        "fit_why_forced": "usted (--law {law})",
        "fit_why_default": ("defecto: muy pocos tamaños para validar la ley all-reduce dejando uno fuera (necesita 4)"),
        "fit_why_loo": "RMSE de log E dejando uno fuera (la ley all-reduce se mantiene salvo que otra reduzca su "
        "MSE a 1/{share:g})",
        "fit_describe": "el ajuste {law} ({fitted}), E relativa a d0 = {d0:,}",
        "step_time_long": (
            "un paso de {s:,.6g} s con {d:,} dispositivos: step_time se lee en segundos — si son milisegundos, "
            "divídalos entre 1.000 (E y la ley no cambian; los tiempos de cómputo y de transferencia en segundos sí)"
        ),
        "runs_fall": (
            "el rendimiento medido cae de {x1:,.6g} con {d1:,} dispositivos a {x2:,.6g} con {d2:,}: más allá de "
            "{d1:,} dispositivos estas ejecuciones no escalan, diga lo que diga la ley (la ley {law} no tiene un "
            "máximo de rendimiento que lo muestre) — revíselas, o vea --law usl"
        ),
        "runs_flat": (
            "multiplicar por {k:.3g} los dispositivos ({d0:,} → {d1:,}) solo multiplica el rendimiento por {gain:.3g} "
            "(E {e_said}): fit lee el rendimiento total de cada ejecución — si son rendimientos por dispositivo, "
            "multiplique cada uno por sus dispositivos"
        ),
        "fit_misses": (
            "la ley {law} no pasa por la E medida con {d:,} dispositivos ({measured_said}; la ley: {law_said}) — su "
            "forma no sigue los datos; pruebe otra --law, o mida más tamaños"
        ),
        "fit_past_domain": (
            "{name} = {value:.4g} de la ley {law} queda fuera de su rango ({bound}, como lo admite la calculadora): "
            "el rendimiento cae al añadir dispositivos — estas ejecuciones no escalan; revíselas antes de extrapolar"
        ),
        "superlinear_points": (
            "E por encima de {spread:g} con {sizes} dispositivos (E hasta {emax:.3f}: más que la dispersión de una "
            "repetición): esas ejecuciones superaron el "
            "escalado perfecto (efectos de caché o una referencia lenta); las leyes no pueden pasar de E = 1, así "
            "que tiran del ajuste"
        ),
    },
}
# Under --no-overlap the ZeRO note says its collectives are exposed (notes.py builds the English the same way).
ZERO_OVERLAPPED = "solapadas (el valor por defecto de DeepSpeed en ZeRO-1/2, overlap_comm apagado, es --no-overlap)"
NOTES["es"]["zero_unchecked_exposed"] = NOTES["es"]["zero_unchecked"].replace(
    ZERO_OVERLAPPED,
    "sin solapar (--no-overlap, el valor por defecto de DeepSpeed en ZeRO-1/2 con overlap_comm apagado)",
)
# Attention's term at the queries' width where it is not the hidden size (notes.py builds the English the same way).
ATTENTION_H = "los 12·L·h·k de la atención = {attn:,.4g} G ({k:,} claves por token)"
for _key in ("flops_per_token", "flops_per_token_untied", "flops_per_token_untied_more"):
    NOTES["es"][f"{_key}_wide"] = NOTES["es"][_key].replace(
        ATTENTION_H,
        "los 12·L·w·k de la atención = {attn:,.4g} G (w = {w:,}, el ancho de la atención, cabezas × head_dim, no el "
        "tamaño oculto, {h:,}; {k:,} claves por token)",
    )
