"""English left in what a German reader is shown: the words that give an
English sentence away. They are the words of the catalogue's English
messages, and the short words every English sentence is built of, less
every word a German message uses (AP, Grit, Token are German here too).
Text a program says in German comes from the German messages or from the
table's data (names, ids, titles); a word of neither kind that reads as
English is a message nobody marked, or one still untranslated."""
from __future__ import annotations

import re
from pathlib import Path
from functools import cache

from eventlog.language import LOCALE as PLACE

LOCALE = Path(PLACE)  # (the language module keeps a plain path)

WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")
# What is typed, not read: a command in backticks, a placeholder, an option,
# a METAVAR or ENV_VAR, a <type>, a command line from `combat` on, the
# name of a command or argument a help lists (before its column of text),
# a quoted name, a hash, and a file's name.
TYPED = re.compile(r"`[^`\n]*`|\{[^{}\n]*\}|(?<![\w-])--?[A-Za-z][\w-]*|\b[A-Z][A-Z0-9_]+\b"
                   r"|<[a-z ]+>|(?<![\w/-])combat(?![\w-]) .*|^\s*[a-z][\w-]*(?= {2,}\S)"
                   r"|(?<!\w)'[^'\s]+'(?!\w)|\b[0-9a-f]{12,}\b"
                   r"|[\w./-]+\.(?:csv|jsonl?|toml|ya?ml|html|md|db|png|combat|head)\b", re.MULTILINE)
# The words English cannot do without: they give away a sentence that was
# never marked, whatever else it says.
GLUE = {
    "the", "a", "an", "and", "or", "but", "not", "no", "nor", "of", "to", "in", "on",
    "at", "by", "for", "from", "with", "without", "into", "onto", "is", "are", "was",
    "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "can",
    "cannot", "could", "will", "would", "should", "shall", "may", "might", "must",
    "this", "that", "these", "those", "it", "its", "there", "their", "they", "them",
    "he", "she", "his", "her", "we", "you", "your", "our", "who", "whom", "whose",
    "which", "what", "when", "where", "why", "how", "than", "then", "so", "as", "if",
    "else", "each", "every", "any", "all", "some", "none", "only", "still", "yet",
    "already", "just", "also", "again", "before", "after", "while", "until", "since",
    "about", "over", "under", "out", "up", "down", "off", "one", "two", "first", "last",
    "next", "now", "here", "more", "most", "less", "least", "much", "many", "few",
    "other", "such", "left", "right", "turn", "round", "pass", "please", "try", "use",
    "used", "using", "shown", "shows", "show", "see",
}


def _words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(TYPED.sub(" ", text))}


@cache
def tells() -> frozenset[str]:
    """The words that read as English in German output."""
    from babel.messages.pofile import read_po
    with open(LOCALE / "combat.pot", "rb") as pot:
        english = set(GLUE)
        for message in read_po(pot):
            for form in (message.id,) if isinstance(message.id, str) else message.id:
                english |= _words(form)
    with open(LOCALE / "de" / "LC_MESSAGES" / "combat.po", "rb") as po:
        german: set[str] = set()
        for message in read_po(po, locale="de"):
            if message.id:
                said = message.string
                for form in (said,) if isinstance(said, str) else said:
                    german |= _words(form)
    return frozenset(w for w in english - german if len(w) > 1)


def english_left(text: str, data: set[str] = frozenset()) -> list[str]:
    """The lines of `text` with an English word in them, each with the words
    found; `data` are the words of the table's own (names, ids, titles)."""
    found = []
    told, known = tells(), {w.casefold() for w in data}
    for line in text.splitlines():
        words = sorted(w for w in _words(line) if w in told and w not in known)
        if words:
            found.append(f"{line.strip()[:160]!r}: {', '.join(words)}")
    return found
