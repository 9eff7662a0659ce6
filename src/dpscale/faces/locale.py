"""The languages dpscale speaks and the one the user's locale asks for — apart from faces/i18n, whose label tables
`dpscale --help` and an unknown command's refusal need not load to learn the language."""

from __future__ import annotations

import os

from dpscale.faces import named

TYPE_CHECKING = False  # typing stays off the calculator's start-up path
if TYPE_CHECKING:
    from collections.abc import Mapping

LANGS = ("en", "es")
UNTRANSLATED = ("C", "POSIX")  # the locale names gettext translates nothing for, spelled exactly so


def lang_named(text: str) -> str:
    """A language typed in any case ('ES' is es), as every named choice is taken (--law USL); one dpscale lacks is
    left as typed, so that its refusal echoes the user's word ('ESS')."""
    return named(text, LANGS)  # (a body's lang that is no text: left for its refusal)


def _code(tag: str) -> str:
    """'es_ES.UTF-8', 'es-AR', 'es@euro' → 'es'."""
    return tag.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()


def env_lang(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for, read as gettext reads it: the first set of LC_ALL, LC_MESSAGES and LANG,
    with LANGUAGE's list before it unless that locale is exactly C or POSIX, or unset — glibc's rule
    (dcigettext.c, guess_category_value), under which C.UTF-8 is not C: `LANG=C.UTF-8 LANGUAGE=es`, a container's
    locale with Spanish asked for, gets Spanish, as `ls` does. An entry of LANGUAGE that is C or POSIX stops the
    list there, untranslated, as it stops gettext's (`LANG=es_ES.UTF-8 LANGUAGE=C` is English). 'es_ES.UTF-8' →
    'es', else 'en'. Unlike gettext, a LANGUAGE naming none of dpscale's languages leaves the locale's (gettext would
    fall back to English). A Spanish desktop gets Spanish without --lang, as the page follows the browser's
    Accept-Language."""
    env = os.environ if environ is None else environ
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "C")
    if locale in UNTRANSLATED:
        return "en"
    # an entry C or POSIX in LANGUAGE ends gettext's search untranslated: English (`LANGUAGE=C`, `C:es`)
    asked = ("en" if t in UNTRANSLATED else _code(t) for t in env.get("LANGUAGE", "").split(":"))
    return next((c for c in asked if c in LANGS), _code(locale) if _code(locale) in LANGS else "en")
