"""The core's refusals in German: the judge's (R10-R25), a correction's
casualties (R28c), a store's and its chain's, a join request's and the
party's, each one whole German sentence with the ids, rule ids and
commands to type left as they are; and the same refusals in English,
unchanged."""
from __future__ import annotations

import pytest

from eventlog.language import speaking


def refused(combat, *args) -> str:
    """What `combat ARGS` says on stderr in German, refused (exit 1)."""
    with speaking("de"):
        return combat(*args, code=1).stderr


def refused_en(combat, *args) -> str:
    return combat(*args, code=1).stderr


@pytest.fixture
def duel(combat):
    """alley, round 1 under way: Rook (pc, 3 AP, 1 Grit) is up, Vex (pc) next."""
    combat("new", "alley")
    combat("add", "Rook", "--pc", "--bonus", "3", "--grit", "1")
    combat("add", "Vex", "--pc")
    combat("roll", "rook", "--die", "7")
    combat("roll", "vex", "--die", "2")
    combat("round")
    return combat


def test_r17_more_ap_than_left_is_refused_in_german(duel):
    duel("act", "rook", "major", "shoots")
    assert refused(duel, "act", "rook", "major", "again") == (
        "Fehler: rook hat nur noch 1 AP, kann 2 nicht ausgeben (R17)\n")
    assert refused_en(duel, "act", "rook", "major", "again") == (
        "error: rook has 1 AP left, cannot spend 2 (R17)\n")


def test_r17_out_of_turn_and_r19_own_turn_in_german(duel):
    assert refused(duel, "act", "vex", "minor", "x") == (
        "Fehler: rook ist am Zug, nicht vex: außerhalb des eigenen Zugs eine "
        "Unterbrechung ansagen (R17, R19)\n")
    assert refused(duel, "interrupt", "rook", "1", "dodge") == (
        "Fehler: rook ist selbst am Zug: handeln statt unterbrechen (R19)\n")


def test_r10_too_late_and_r13_seized_twice_in_german(duel):
    duel("seize", "rook")
    assert refused(duel, "seize", "rook") == (
        "Fehler: rook hat in dieser Runde schon den Moment ergriffen (R13)\n")
    duel("act", "rook", "minor", "aims")
    assert refused(duel, "seize", "vex") == (
        "Fehler: zu spät, um in Runde 1 den Moment zu ergreifen: der erste Kämpfer hat "
        "gehandelt (R10)\n")


def test_r25_an_ended_encounter_refuses_in_german(duel):
    duel("end")
    assert refused(duel, "act", "rook", "minor", "x") == (
        "Fehler: die Begegnung ist beendet: nur Notizen, Rückgängig, Wiederholen, "
        "Zurücknahme und Berichtigung können angesagt werden (R25)\n")


def test_an_unknown_id_is_refused_in_german_with_the_ids_it_may_mean(duel):
    assert refused(duel, "act", "rok", "minor", "x") == (
        "Fehler: kein Kämpfer 'rok' in dieser Begegnung: vielleicht rook?\n")
    assert refused_en(duel, "act", "rok", "minor", "x") == (
        "error: no combatant 'rok' in this encounter: did you mean rook?\n")
    assert refused(duel, "roll", "zed") == (
        "Fehler: kein Kämpfer oder Trupp 'zed' in dieser Begegnung\n")


def test_r28c_a_retraction_names_its_casualties_in_german_a_line_each(duel):
    duel("act", "rook", "minor", "aims")
    lines = refused(duel, "retract", "4").splitlines()
    # (each casualty's own words are the log's: the reader's too, said elsewhere)
    assert lines[0] == "Fehler: seq 4 zurückzunehmen würde 2 spätere Ansagen unzulässig machen:"
    assert lines[1].startswith("  seq 6: ") and lines[1].endswith(
        " (Runde 1 kann nicht beginnen: rook hat noch keine Initiative; zuerst würfeln (R5))")
    assert lines[2].startswith("  seq 7: ") and lines[2].endswith(
        " (noch hat keine Runde begonnen: handeln, sobald die SL Runde 1 beginnt (R5))")
    assert lines[3:] == ["Diese mit --cascade ebenfalls zurücknehmen (R28)"]
    english = refused_en(duel, "retract", "4").splitlines()
    assert english[0] == "error: retracting seq 4 would make 2 later declarations illegal:"
    assert english[1].endswith(" (round 1 cannot start: rook has no initiative yet; roll first (R5))")
    assert english[3:] == ["Retract them too with --cascade (R28)"]


def test_undo_of_another_seq_than_seen_and_a_retraction_of_the_start_in_german(duel):
    duel("act", "rook", "minor", "aims")
    assert refused(duel, "retract", "99") == (
        "Fehler: es gibt keine seq 99 im Protokoll von alley (1 bis 7)\n")
    assert refused(duel, "retract", "1") == (
        "Fehler: das Anlegen der Begegnung kann nicht zurückgenommen werden (R26)\n")
    said = refused(duel, "undo", "--expect", "3")
    assert said.startswith("Fehler: die letzte Ansage ist jetzt seq 7 (")
    assert said.endswith("), nicht seq 3: nichts rückgängig gemacht (R26)\n")


def test_a_refused_join_request_is_said_in_german(duel):
    from eventlog.errors import LedgerError
    from eventlog.stores import open_store
    from projections import joining
    from projections.ledger import Ledger
    ledger = Ledger(open_store(duel.db))
    try:
        state = ledger.state("alley")
        with speaking("de"):
            with pytest.raises(LedgerError) as gm:
                joining.request(ledger.store, state, "GM-Console", "rook", "10.0.0.1")
            with pytest.raises(LedgerError) as nobody:
                joining.request(ledger.store, state, "Ana", "zed", "10.0.0.1")
            joining.request(ledger.store, state, "Ana", "rook", "10.0.0.1")
            with pytest.raises(LedgerError) as twice:
                joining.request(ledger.store, state, "ana", "vex", "10.0.0.2")
            with pytest.raises(LedgerError) as unknown:
                joining.approve(ledger.store, "Zoe")
        with pytest.raises(LedgerError) as english:
            joining.approve(ledger.store, "Zoe")
    finally:
        ledger.store.close()
    assert str(gm.value) == "der Name 'GM-Console' gehört der SL: den eigenen Namen angeben"
    assert str(nobody.value) == "'zed' ist kein SC von alley: einen von rook, vex wählen"
    assert str(twice.value) == "der Name 'Ana' ist vergeben: einen anderen Namen angeben"
    assert str(unknown.value) == "keine Beitrittsanfrage namens 'Zoe' (wartend: Ana)"
    assert str(english.value) == "no join request named 'Zoe' (waiting: Ana)"


def test_a_token_the_store_does_not_hold_and_a_players_reach_in_german(duel):
    assert refused(duel, "token", "revoke", "zed") == (
        "Fehler: kein Token namens 'zed': `combat token list` zeigt sie\n")
    assert refused(duel, "token", "add", "ana", "--player") == (
        "Fehler: ein player-Token sagt für seine eigenen Kämpfer an: sie mit "
        "--owns ID[,ID...] nennen\n")


def test_a_party_refusal_is_said_in_german(duel):
    assert refused(duel, "party", "undo") == (
        "Fehler: die Gruppe hat noch keine Ansagen\n")
    duel("party", "add", "Rook")
    assert refused(duel, "party", "set", "rok", "--bonus", "2") == (
        "Fehler: kein Charakter 'rok' in der Gruppe: vielleicht rook?\n")
    assert refused_en(duel, "party", "set", "rok", "--bonus", "2") == (
        "error: no character 'rok' in the party: did you mean rook?\n")
    assert refused(duel, "session", "end") == (
        "Fehler: keine Sitzung ist offen: eine mit `combat session start` beginnen\n")


def test_a_name_that_reads_as_the_gms_is_refused_in_german(duel):
    assert refused(duel, "--actor", "GM", "note", "hi") == (
        "Fehler: 'GM' ist kein gültiger Akteur: er liest sich wie gm, der Name der SL "
        "(R29)\n")


def test_a_damaged_chain_is_said_in_german(duel):
    import sqlite3
    con = sqlite3.connect(duel.db)
    con.execute("UPDATE events SET actor = 'mallory' WHERE seq = 3")
    con.commit()
    con.close()
    said = refused(duel, "verify")
    assert "seq 3" in said and "der Hash passt nicht zum Inhalt des Ereignisses (es wurde " \
        "bearbeitet)" in said, said


def test_a_foreign_store_is_refused_in_german(tmp_path):
    import sqlite3

    from eventlog.errors import StoreError
    from eventlog.stores import open_store
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE recipes (name TEXT)")
    con.commit()
    con.close()
    with speaking("de"), pytest.raises(StoreError) as refused_store:
        open_store(db)
    assert str(refused_store.value) == f"{db} ist keine combat-ledger-Datenbank"


def test_a_doctored_store_is_refused_in_german_on_each_back_end(tmp_path):
    import sqlite3

    import psycopg

    from eventlog.errors import StoreError
    from eventlog.stores import open_store
    from eventlog.stores.postgres import PostgresStore
    from helpers import pg_server
    db = tmp_path / "ledger.db"
    open_store(db).close()
    con = sqlite3.connect(db)
    con.execute("CREATE VIEW peek AS SELECT * FROM events")
    con.commit()
    con.close()
    with speaking("de"), pytest.raises(StoreError) as sqlite_refused:
        open_store(db)
    assert str(sqlite_refused.value) == (
        f"{db} ist kein combat-ledger-Speicher, wie dieses Programm ihn angelegt hat: er "
        "enthält eine Sicht 'peek', die combat-ledger nicht angelegt hat; nichts wurde geändert")
    url = pg_server().fresh_url()
    PostgresStore(url).close()
    with psycopg.connect(url, autocommit=True) as pg:
        pg.execute("CREATE TABLE recipes (name text)")
    with speaking("de"), pytest.raises(StoreError) as pg_refused:
        PostgresStore(url)
    said = str(pg_refused.value)
    assert said.endswith(" ist kein combat-ledger-Speicher, wie dieses Programm ihn angelegt "
                         "hat: er enthält ein Objekt der Art relation 'recipes', das "
                         "combat-ledger nicht angelegt hat; nichts wurde geändert"), said


def test_the_terminal_says_a_refusal_in_german_with_lang_de(duel):
    """The real program: `--lang de` (or LANG) chooses the reader's language."""
    from helpers import real

    def said(*args, env=None) -> tuple[int, str]:
        done = real(duel.db, *args, env=env)
        return done.returncode, done.stderr
    german = (1, "Fehler: vex hat kein Grit, um den Moment zu ergreifen (R10, R13)\n")
    assert said("--lang", "de", "seize", "vex") == german
    assert said("seize", "vex", env={"LANG": "de_DE.UTF-8", "LC_ALL": "", "LANGUAGE": ""}) == german
    assert said("seize", "vex", env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""}) == (
        1, "error: vex has no Grit to spend on seizing the moment (R10, R13)\n")
