"""The message catalogues are kept honest: the template holds exactly the
messages the code marks (Babel extracts them afresh here), every language
has each one translated (every plural form, nothing fuzzy) with the same
placeholders as its English, and its compiled .mo is the one its .po makes.
Then the lookup itself: the reader's language, plural forms, and the
choice of a language from the terminal's environment and a browser's
Accept-Language."""
from __future__ import annotations

import io
import string
from pathlib import Path

import pytest

from eventlog import language
from eventlog.language import LANGUAGES, SOURCE
from eventlog.language import LOCALE as PLACE

LOCALE = Path(PLACE)  # (the language module keeps a plain path)

ROOT = Path(__file__).resolve().parents[1]
KEYWORDS = {"n_": (1, 2)}  # besides Babel's own (_, N_, gettext, ngettext...)
TRANSLATED = [x for x in LANGUAGES if x != SOURCE]


def extracted() -> dict[str, tuple[str, ...]]:
    """Every message the code marks now, by its msgid: its forms."""
    from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg
    with open(LOCALE / "babel.cfg", encoding="utf-8") as cfg:
        methods, options = parse_mapping_cfg(cfg)
    found = {}
    for package in ("eventlog", "projections", "cli"):
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / package, methods, options, keywords={**DEFAULT_KEYWORDS, **KEYWORDS}):
            forms = (message,) if isinstance(message, str) else tuple(message)
            found[forms[0]] = forms
    return found


def template():
    from babel.messages.pofile import read_po
    with open(LOCALE / "combat.pot", "rb") as pot:
        return read_po(pot)


def translations(lang: str):
    from babel.messages.pofile import read_po
    with open(LOCALE / lang / "LC_MESSAGES" / "combat.po", "rb") as po:
        return read_po(po, locale=lang)


def placeholders(text: str) -> set[str]:
    return {f"{{{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}}}"
            for _lit, name, spec, conv in string.Formatter().parse(text) if name is not None}


def forms(message) -> tuple[str, ...]:
    return (message.id,) if isinstance(message.id, str) else tuple(message.id)


def test_the_template_holds_exactly_the_messages_the_code_marks():
    kept = {forms(m)[0]: forms(m) for m in template() if m.id}
    now = extracted()
    assert now, "no message is marked: the extraction found nothing"
    assert sorted(set(now) - set(kept)) == [], "marked but not in combat.pot: run the update recipe"
    assert sorted(set(kept) - set(now)) == [], "in combat.pot but no longer marked"
    assert kept == now  # (the plural forms too)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(lang):
    catalogue = translations(lang)
    ids = {forms(m)[0] for m in template() if m.id}
    for message in catalogue:
        if not message.id:
            continue
        english = forms(message)
        said = (message.string,) if isinstance(message.string, str) else tuple(message.string)
        assert not message.fuzzy, f"{lang}: fuzzy: {english[0]!r}"
        assert all(said), f"{lang}: untranslated: {english[0]!r}"
        for form in said:  # (each plural form: the English plural's placeholders)
            assert placeholders(form) == placeholders(english[-1]), (
                f"{lang}: {form!r} has other placeholders than {english[-1]!r}")
    assert {forms(m)[0] for m in catalogue if m.id} == ids, (
        f"{lang}: its catalogue is not the template's: run the update recipe")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogue_is_its_source(lang):
    from babel.messages.mofile import write_mo
    made = io.BytesIO()
    write_mo(made, translations(lang))
    kept = (LOCALE / lang / "LC_MESSAGES" / "combat.mo").read_bytes()
    assert kept == made.getvalue(), f"{lang}: combat.mo is stale: run `pybabel compile`"


def test_a_message_is_said_in_the_readers_language():
    from projections.rulebook import UnknownRule, rule
    with pytest.raises(UnknownRule) as english:
        rule("R99")
    with language.speaking("de"), pytest.raises(UnknownRule) as german:
        rule("R99")
    assert str(english.value).startswith("there is no rule R99: the rules are R1 to R")
    assert str(german.value).startswith("Eine Regel R99 gibt es nicht: die Regeln sind R1 bis R")
    assert language.current() == SOURCE  # (speaking ends with its block)


@pytest.mark.parametrize("n,english,german", [
    (1, "undoing seq 4 would make 1 later declaration illegal:",
     "seq 4 rückgängig zu machen würde 1 spätere Ansage unzulässig machen:"),
    (2, "undoing seq 4 would make 2 later declarations illegal:",
     "seq 4 rückgängig zu machen würde 2 spätere Ansagen unzulässig machen:"),
    (0, "undoing seq 4 would make 0 later declarations illegal:",
     "seq 4 rückgängig zu machen würde 0 spätere Ansagen unzulässig machen:")])
def test_a_number_chooses_its_form_in_each_language(n, english, german):
    from eventlog.language import n_
    forms = ("undoing seq {seq} would make {n} later declaration illegal:",
             "undoing seq {seq} would make {n} later declarations illegal:")
    said = n_(*forms, n).format(seq=4, n=n)
    with language.speaking("de"):
        gesagt = n_(*forms, n).format(seq=4, n=n)
    assert (said, gesagt) == (english, german)


def test_each_context_has_its_own_language():
    """A German player's request and an English GM's, at once, on two threads."""
    import threading
    from eventlog.language import _
    seen = {}
    ready = threading.Barrier(2)

    def read(who: str, lang: str) -> None:
        with language.speaking(lang):
            ready.wait()
            seen[who] = _("there is no rule {rule}: the rules are {known}")
    threads = [threading.Thread(target=read, args=args) for args in (("gm", "en"), ("ana", "de"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"gm": "there is no rule {rule}: the rules are {known}",
                    "ana": "Eine Regel {rule} gibt es nicht: die Regeln sind {known}"}


@pytest.mark.parametrize("environ,expected", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LANG": "en_GB.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "de"),
    ({"LANG": "de_DE.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),  # (no catalogue: English)
    ({"LANG": "fr_FR.UTF-8", "LANGUAGE": "fr:de"}, "de"),
    ({"LANG": "C", "LANGUAGE": "de"}, "en"),  # (POSIX: LANGUAGE does not count under C)
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_terminals_language_comes_from_its_environment(environ, expected):
    assert language.from_environment(environ) == expected


@pytest.mark.parametrize("header,expected", [
    ("de-DE,de;q=0.9,en;q=0.8", "de"),
    ("en-US,en;q=0.9,de;q=0.8", "en"),
    ("fr-FR,fr;q=0.9,de;q=0.5", "de"),
    ("fr;q=1.0, de;q=0.1", "de"),
    ("de;q=0", "en"),  # (q=0: not acceptable)
    ("de;q=banana", "en"),
    ("*", "en"),
    ("", "en"),
    (None, "en"),
    ("de" + ",x" * 10000, "de"),
])
def test_a_browsers_accept_language_chooses_among_the_languages_we_speak(header, expected):
    assert language.negotiate(header) == expected


def test_a_language_named_by_a_person_is_one_we_speak_or_none():
    assert [language.chosen(x) for x in ("de", "DE", "de-CH", "en", "fr", "", None, "d\x1be")] == [
        "de", "de", "de", "en", None, None, None, None]
    with pytest.raises(ValueError), language.speaking("fr"):
        pass


def test_the_systems_reasons_are_the_readers():
    try:
        (ROOT / "no such folder" / "x").read_bytes()
    except OSError as exc:
        assert language.reason(exc) == "No such file or directory"
        with language.speaking("de"):
            assert language.reason(exc) == "Datei oder Verzeichnis nicht gefunden"
    unknown = OSError(61, "No data available")  # (ENODATA: said as the system says it)
    with language.speaking("de"):
        assert language.reason(unknown) == "No data available"


def test_no_module_that_says_messages_binds_the_name_of_its_lookup():
    """`kind, _, rest = ...` in a module that imports `_` from
    eventlog/language.py makes the next message call a string."""
    import ast
    bound = []
    for package in ("eventlog", "projections", "cli"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            imports = any(isinstance(n, ast.ImportFrom) and n.module == "eventlog.language"
                          and any(a.name == "_" and a.asname is None for a in n.names)
                          for n in ast.walk(tree))
            if not imports:
                continue
            for node in ast.walk(tree):
                named = (node.id if isinstance(node, ast.Name) and isinstance(
                    node.ctx, (ast.Store, ast.Del)) else getattr(node, "arg", None)
                    if isinstance(node, ast.arg) else None)
                if named == "_":
                    bound.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bound == [], "rename these `_` (they hide the message lookup)"


def test_a_name_the_resolver_does_not_know_is_said_in_german():
    import socket
    try:
        socket.getaddrinfo("nirgends.invalid", 80)
    except socket.gaierror as exc:
        with language.speaking("de"):
            assert language.reason(exc) in ("Name oder Dienst nicht bekannt",
                                            "Vorübergehender Fehler bei der Namensauflösung")
