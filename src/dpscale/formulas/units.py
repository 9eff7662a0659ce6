"""Byte units, decimal where the sources are and binary where the software is.

GB is 1e9 bytes: link and HBM bandwidths are quoted in GB/s, and the ZeRO paper's 120 GB for 7.5 B parameters is
120e9 bytes. MiB is 2^20: DDP's bucket_cap_mb and NCCL's buffer sizes count in it; HBM comes in GiB.
"""

GB = 1e9
MIB = 1 << 20
GIB = 1 << 30
