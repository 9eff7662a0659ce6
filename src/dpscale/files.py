"""Reading a user's input file whole, with a ceiling: a wrong path (/dev/zero, a model checkpoint) must end in the
command's one-line refusal, not in a MemoryError traceback after filling the machine's memory."""

from __future__ import annotations

import errno
import os
from pathlib import Path

MAX_INPUT_BYTES = 64 * 2**20  # the published sets are 100 KB; a runs file of a million sizes is 20 MB


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes; OSError (with a strerror each caller already quotes) when it cannot be read or holds more
    than MAX_INPUT_BYTES."""
    if not isinstance(path, (str, os.PathLike)) or str(path) == "":  # open(1) would take, then close, stdout
        raise OSError(errno.EINVAL, "not a file path", repr(path))
    with open(path, "rb") as fh:
        data = fh.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, f"more than {MAX_INPUT_BYTES / 2**20:g} MiB: not an input file", str(path))
    return data


def read_text(path: str | Path, encoding: str = "utf-8") -> str:
    """read_bytes, decoded (UnicodeDecodeError as str.decode raises it)."""
    return read_bytes(path).decode(encoding)
