"""What users touch: the CLI, the web page, plots and reports. Thin shells over the layers below."""

from __future__ import annotations

from dpscale.errors import named as named  # the one any-case rule of a named choice (there, so the worker reads it)


def utf8(stream: object) -> bool:
    """Whether a stream writes UTF-8 (every character as it is); else the faces print '?' for what it cannot hold."""
    import codecs

    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name in ("utf-8", "utf-8-sig")
    except LookupError:
        return False


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that what could not be written to a reader that left (`| head -1`) fails no
    more: the rest of the command (a --plot) still runs, and the interpreter's last flush is quiet."""
    import os
    import sys

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test's capture): nothing will flush
        pass
