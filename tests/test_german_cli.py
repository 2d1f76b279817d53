"""The command line in German: the help of every command and option, click's
and typer's own words (usage, errors), the grammar's wrong usage and what
the shell's commands print; the language chosen by `--lang`, else
COMBAT_LANG, else the locale (LC_ALL, LC_MESSAGES, LANG). English stays
byte for byte what it was."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from eventlog.language import speaking
from helpers import ROOT, real


def german(db: Path, *args: str, env=None):
    return real(db, "--lang", "de", *args, env=env)


def test_the_programs_help_is_german_with_lang_de(tmp_path):
    out = german(tmp_path / "l.db", "--help").stdout
    assert out.startswith("Aufruf: combat [OPTIONEN] BEFEHL [ARGUMENTE]...\n\n  combat-ledger: ein "
                          "ereignisbasierter Kampfbegleiter.")
    for said in ("Optionen:\n", "Befehle:\n", "  --help                Diese Hilfe zeigen und beenden.",
                 "  --install-completion  Die Vervollständigung für die aktuelle Shell",
                 "Wer ansagt: gm oder der Name eines Spielers (R29).",
                 "[Umgebungsvariable: COMBAT_ACTOR; Vorgabe: gm]",
                 "  new             Eine Begegnung anlegen; sie wird die aktuelle.",
                 "  act             AP im eigenen Zug eines Kämpfers ausgeben"):
        assert said in out, said
    for english in ("Usage:", "Options:", "Commands:", "Show this message", "Install completion",
                    "Create an encounter", "env var"):
        assert english not in out, english


@pytest.mark.parametrize("args,said", [
    (("act", "--help"), ["Aufruf: combat act [OPTIONEN] {ID} {COST} [LABEL]\n",
                         "  AP im eigenen Zug eines Kämpfers ausgeben, höchstens 4 pro Zug",
                         "  Beispiel: combat act rook major schießt auf den Ganger\n",
                         "Argumente:\n  ID     Wessen Zug es ist.  [erforderlich]",
                         "  --help  Diese Hilfe zeigen und beenden.\n"]),
    (("token", "add", "--help"), ["Ein Token erstellen und einmal ausgeben",
                                  "Beispiel: combat token add ana --player --owns rook\n"
                                  "            combat token add tv --view --encounter warehouse",
                                  "Wer es hält; verzeichnet als Urheber dessen, was es ansagt (R29).",
                                  "--player", "--owns"]),
    (("log", "--help"), ["Das Ereignisprotokoll zeigen", "Nur Ansagen aus dieser Runde.",
                         "--round"]),
    (("party", "--help"), ["Die Gruppe: Charaktere, die zwischen Kämpfen bleiben", "Befehle:\n",
                           "  add     Ein Charakter tritt der Gruppe bei."]),
])
def test_a_commands_help_is_german_and_keeps_its_words(tmp_path, args, said):
    result = german(tmp_path / "l.db", *args)
    assert result.returncode == 0, result.stderr
    for part in said:
        assert part in result.stdout, (part, result.stdout)


@pytest.mark.parametrize("args,error", [
    (("log", "--round", "x"), "Fehler: Ungültiger Wert für '--round': 'x' ist keine gültige ganze Zahl."),
    (("use",), "Fehler: Fehlendes Argument 'encounter'."),
    (("list", "a", "b"), "Fehler: Unerwartete zusätzliche Argumente (a b)"),
    (("frobnicate",), "Fehler: Einen Befehl 'frobnicate' gibt es nicht."),
    (("statsu",), "Fehler: Einen Befehl 'statsu' gibt es nicht. Gemeint ist 'stats', 'status'?"),
    (("list", "--bogus"), "Fehler: Diese Option gibt es nicht: --bogus"),
    (("export", "--format", "xml"), "Fehler: Ungültiger Wert für '--format': 'xml' ist keines von "
                                    "'json', 'jsonl', 'csv', 'md', 'html'."),
    (("track", "rook", "hp", "abc"), "Fehler: Ungültiger Wert: VALUE ist eine Zahl (10) oder eine "
                                     "Änderung (+2, -3), nicht 'abc' (Aufruf: track ID NAME VALUE)"),
])
def test_a_usage_error_is_said_in_german_with_exit_2(tmp_path, args, error):
    result = german(tmp_path / "l.db", *args)
    command = "combat" if args[0] in ("frobnicate", "statsu") else f"combat {args[0]}"
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("Aufruf: combat"), result.stderr
    assert f"Hilfe: `{command} --help`.\n\n" in result.stderr
    assert result.stderr.endswith(error + "\n"), result.stderr
    assert not (tmp_path / "l.db").exists()  # (changes nothing)


def test_a_usage_error_in_english_is_clicks_own(tmp_path):
    result = real(tmp_path / "l.db", "log", "--round", "x")
    assert (result.returncode, result.stderr) == (2, (
        "Usage: combat log [OPTIONS]\nTry 'combat log --help' for help.\n\n"
        "Error: Invalid value for '--round': 'x' is not a valid int.\n"))


def test_the_shells_commands_say_what_they_did_in_german(tmp_path):
    db = tmp_path / "l.db"
    assert german(db, "new", "alley").returncode == 0
    assert re.fullmatch(r"\* alley +1 Ereignisse  \n", german(db, "list").stdout)
    assert re.fullmatch(r"ok: 1 Ereignisse von alley, Hash-Kette intakt \(Kopf [0-9a-f]{12}…\)\n",
                        german(db, "verify").stdout)
    token = german(db, "token", "add", "tv", "--view").stdout
    assert re.fullmatch(r"Token für tv \(view, Begegnung alley\), einmal gezeigt: \S+\n"
                        r"Link: http://\S+&encounter=alley\n", token), token
    assert german(db, "hook", "list").stdout == "keine Hooks (combat hook add URL)\n"
    assert german(db, "archive", "alley").stdout == (
        "alley archiviert: `combat unarchive alley` holt sie zurück\n")
    assert german(db, "delete", "alley", "--confirm", "alley").stdout == (
        "alley aus dem Speicher gelöscht; 1 Token, das nur sie erreichte, beendet\n")
    refused = german(db, "status")
    assert (refused.returncode, refused.stderr) == (1, (
        f"Fehler: die aktuelle Begegnung 'alley' ist nicht mehr in {db}: eine mit "
        "`combat use ID` wählen\n"))


def test_the_same_commands_say_it_in_english_as_before(tmp_path):
    db = tmp_path / "l.db"
    real(db, "new", "alley")
    assert real(db, "archive", "alley").stdout == (
        "archived alley: `combat unarchive alley` brings it back\n")
    assert real(db, "delete", "alley", "--confirm", "alley").stdout == "deleted alley from the store\n"
    assert real(db, "hook", "list").stdout == "no hooks (combat hook add URL)\n"


@pytest.mark.parametrize("args,env,language", [
    ((), {"LANG": "de_DE.UTF-8"}, "de"),
    ((), {"LANG": "en_US.UTF-8", "LC_MESSAGES": "de_AT.UTF-8"}, "de"),
    ((), {"LANG": "de_DE.UTF-8", "LC_ALL": "C.UTF-8"}, "en"),
    ((), {"LANG": "de_DE.UTF-8", "COMBAT_LANG": "en"}, "en"),  # COMBAT_LANG before the locale
    ((), {"COMBAT_LANG": "de"}, "de"),
    (("--lang", "de"), {"COMBAT_LANG": "en"}, "de"),  # --lang before COMBAT_LANG
    (("--lang", "en"), {"LANG": "de_DE.UTF-8"}, "en"),
])
def test_the_language_is_lang_then_combat_lang_then_the_locale(tmp_path, args, env, language):
    out = real(tmp_path / "l.db", *args, "--help", env=env).stdout
    assert out.startswith({"de": "Aufruf: combat", "en": "Usage: combat"}[language]), out[:40]


def test_the_grammars_wrong_usage_is_the_readers():
    from cli.grammar import BadLine, parse
    with pytest.raises(BadLine) as english:
        parse(["act", "rook"])
    with speaking("de"), pytest.raises(BadLine) as deutsch:
        parse(["act", "rook"])
    assert str(english.value) == "missing COST (usage: act ID COST [LABEL...])"
    assert str(deutsch.value) == "COST fehlt (Aufruf: act ID COST [LABEL...])"
    from cli.grammar.parser import split
    with speaking("de"), pytest.raises(BadLine) as unread:
        split('note "open')
    assert str(unread.value) == ("diese Zeile lässt sich nicht lesen: Schließendes "
                                 "Anführungszeichen fehlt")


def test_the_grammars_help_is_said_in_the_readers_language():
    from cli.grammar import BY_NAME
    assert BY_NAME["roll"].help.endswith("Example: combat roll            (everyone who has not "
                                         "rolled)\n         combat roll rook --die 7")
    with speaking("de"):
        said = BY_NAME["roll"].help
    assert said.startswith("Initiative würfeln, 1W10 + Bonus (R1); Trupps würfeln einmal (R7).")
    assert said.endswith("Beispiel: combat roll            (alle, die noch nicht gewürfelt "
                         "haben)\n          combat roll rook --die 7")


def test_the_words_taken_from_click_and_typer_are_theirs():
    """Each click or typer message our catalogue holds is one they say, so a
    new version that rewords one is noticed here."""
    import importlib.util

    from cli import clickwords
    sources = ""
    for package in ("click", "typer"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin:
            for path in sorted(Path(spec.origin).parent.rglob("*.py")):
                sources += path.read_text(encoding="utf-8")
    forms = [*clickwords.WORDS, *clickwords.COMPLETION_HELP.values(), *clickwords.USAGE_METAVARS]
    with speaking("en"):
        forms += [form for n in (1, 2) for form in clickwords.plurals(n)]
    assert [f for f in forms if f'"{f}"' not in sources and f"'{f}'" not in sources] == []


def test_docs_commands_is_english_whatever_the_machines_language():
    """docs/commands.md is generated in English on a German machine too."""
    import subprocess
    import sys
    page = subprocess.run(
        [sys.executable, "-c", "import sys; sys.path.insert(0, 'docs'); import gen_commands; "
         "sys.stdout.write(gen_commands.commands_page())"],
        cwd=ROOT, capture_output=True, text=True, env={"LANG": "de_DE.UTF-8", "COMBAT_LANG": "de",
                                                         "PATH": "/usr/bin:/bin"})
    assert page.returncode == 0, page.stderr
    assert page.stdout == (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")


def test_a_hook_to_a_name_that_does_not_resolve_now_is_kept_in_any_language(tmp_path):
    """Whether the name resolves is asked of the resolver, not read from the
    words of the refusal (they are the reader's)."""
    db = tmp_path / "l.db"
    german(db, "new", "alley")
    added = german(db, "hook", "add", "https://nowhere.invalid/combat")
    assert added.returncode == 0, added.stderr
    assert re.match(r"Hook [0-9a-f]{8}: jeder Stapel an https://nowhere\.invalid/combat \(.+: bei "
                    r"jeder Zustellung wird erneut geprüft\), signiert; Geheimnis, einmal gezeigt: ",
                    added.stdout), added.stdout
    refused = german(db, "hook", "add", "http://127.0.0.1:9/combat")
    assert refused.returncode == 1 and refused.stderr.startswith("Fehler: "), refused.stderr
    assert len(german(db, "hook", "list").stdout.splitlines()) == 1
