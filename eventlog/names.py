"""Who a name says it is: an actor or token name must
read as what it is. `ɡm` (U+0261, the IPA letter) reads as `gm`; `gm` with
a braille blank (U+2800) or a Hangul filler (U+3164) reads as `gm` or as
nobody. Without Unicode's confusables table (TR39) at hand, a name is held
to what a person types for a name at a table:

- its NFKC form (no fullwidth `ｇｍ`, no ligatures, no decomposed accents);
- no invisible character: format characters (zero-width joiners and
  spaces, word joiners, tags), fillers and blanks that print as nothing,
  variation selectors, spaces other than the plain one;
- letters of one script (Latin, Greek, Cyrillic, ...; Han with kana or
  Hangul counts as one), Latin ones from the Latin alphabets' own blocks
  (not IPA, phonetic or small-capital letters);
- not made only of letters that look like Latin ones from another script
  (Cyrillic `рм`), and not `gm` in other letters or case (`GM`, `gм`).
"""
from __future__ import annotations

import unicodedata

from eventlog.language import _

# Printable by Python's measure, yet shown as nothing (or as a blank).
INVISIBLE = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5\u180b\u180c\u180d\u180e\u180f"
    "\u2061\u2062\u2063\u2064\u3000\u00ad\u2028\u2029")
# The Latin blocks of the alphabets people write names in: Basic Latin,
# Latin-1, Latin Extended-A and -B, Latin Extended Additional.
LATIN_BLOCKS = ((0x41, 0x24F), (0x1E00, 0x1EFF))
# Letters of other scripts that read as Latin ones (from TR39's confusables).
LOOKALIKE = str.maketrans(
    "аеорсухіјѕԁһӏԛԝвкмнтАВЕКМНОРСТХЅІЈԚԜ"
    "αβεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdhlqwbkmhtABEKMHOPCTXSIJQW"
    "aBeikvoptuxABEZHIKMNOPTYX")
CJK = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "HALFWIDTH", "IDEOGRAPHIC")


def name_problem(name: str) -> str | None:
    """Why `name` may be taken for another, in a few words; None if it may not."""
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        return _("it is not written in its plain form ('{plain}')").format(plain=shown(normal))
    for char in name:
        if _invisible(char):
            return _("it holds an invisible character ({char})").format(char=_escape(char))
    scripts = {_script(char) for char in name if char.isalpha()}
    if len(scripts) > 1:
        first, *rest = sorted(s.lower() for s in scripts)
        for other in rest:
            first = _("{one} and {other}").format(one=first, other=other)
        return _("it mixes letters of {scripts}").format(scripts=first)
    for char in name:
        if _script(char) == "LATIN" and not any(lo <= ord(char) <= hi for lo, hi in LATIN_BLOCKS):
            return _("it holds {char} ({name}), which reads as another letter").format(
                char=_escape(char), name=unicodedata.name(char, "?").lower())
    lookalike = skeleton(name)
    if scripts and scripts != {"LATIN"} and lookalike.isascii():
        return _("its letters read as the Latin '{latin}'").format(latin=lookalike)
    if lookalike.casefold() == "gm" and name != "gm":
        return _("it reads as gm, the GM's name")
    return None


def skeleton(name: str) -> str:
    """The name as it reads: look-alike letters of other scripts as Latin."""
    return name.translate(LOOKALIKE)


def _invisible(char: str) -> bool:
    category = unicodedata.category(char)
    if category in ("Cf", "Cc", "Cs", "Co", "Cn", "Zl", "Zp") or char in INVISIBLE:
        return True
    if category == "Zs" and char != " ":
        return True
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0000 <= code <= 0xE01EF  # selectors, tags


def _script(char: str) -> str:
    word = unicodedata.name(char, "UNKNOWN").split()[0]
    return "CJK" if word in CJK else word


def _escape(char: str) -> str:
    code = ord(char)
    return f"U+{code:04X}"


def shown(text: str) -> str:
    """`text` with its invisible characters shown as U+XXXX."""
    return "".join(c if c.isprintable() and not _invisible(c) else _escape(c) for c in text)
