"""What users touch: the CLI, the web page, plots and reports. Thin shells over the layers below."""


def utf8(stream: object) -> bool:
    """Whether a stream writes UTF-8 (every character as it is); else the faces print '?' for what it cannot hold."""
    import codecs

    try:
        return codecs.lookup(getattr(stream, "encoding", None) or "utf-8").name in ("utf-8", "utf-8-sig")
    except LookupError:
        return False
