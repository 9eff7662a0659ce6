"""Reading a user's input file whole, with a ceiling, and checking an output path before any work: a wrong path
(/dev/zero, a model checkpoint, a named pipe no one writes to, a name longer than the file system takes) must end
in the command's one-line refusal, not in a MemoryError traceback, an OSError traceback or a hang."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

MAX_INPUT_BYTES = 64 * 2**20  # the published sets are 100 KB; a runs file of a million sizes is 20 MB


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes; OSError (with a strerror each caller already quotes) when it cannot be read or holds more
    than MAX_INPUT_BYTES. A named pipe is opened without waiting for a writer: one that has none reads as empty
    (it hung the command), one fed by a process (`<(cat runs.csv)`, /dev/stdin) is read to its end."""
    if not isinstance(path, (str, os.PathLike)) or str(path) == "":  # open(1) would take, then close, stdout
        raise OSError(errno.EINVAL, "not a file path", repr(path))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    os.set_blocking(fd, True)  # a pipe with a writer: wait for its data; without one, read() ends at once
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise OSError(errno.EFBIG, f"more than {MAX_INPUT_BYTES / 2**20:g} MiB: not an input file", str(path))
    return data


def read_text(path: str | Path, encoding: str = "utf-8") -> str:
    """read_bytes, decoded (UnicodeDecodeError as str.decode raises it)."""
    return read_bytes(path).decode(encoding)


def unwritable(path: str | Path) -> str | None:
    """Why no file can be written at `path` (the OS's words, or 'a folder', 'a named pipe'), None when one can.

    Tried, not asked: os.access says yes to root for /sys and /proc, and to a 'folder' that is a file. An existing
    file is opened for appending (nothing written), a new one is tried beside it; a link is followed (a loop says
    so), and a named pipe is refused, since opening one to write waits for a reader."""
    import tempfile

    try:
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            return "a folder"
        if mode is not None and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)):
            return "a named pipe"
        if mode is not None:
            with open(path, "a"):
                pass
        else:
            with tempfile.TemporaryFile(dir=Path(path).parent):
                pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None
