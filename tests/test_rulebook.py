"""The rules reference inside the product: `combat rules [RULE]`, play mode's
`help R17` (tests/test_play.py), the server's /rules/R17, all read from
docs/rules.md by projections/rulebook.py."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from projections import rulebook
from cli.app import app

ROOT = Path(__file__).resolve().parent.parent
EVERY_RULE = [f"R{n}" for n in range(1, 32)] + ["R3a", "R3b", "R3c", "R23b", "R28a", "R28b", "R28c"]


def combat(*args, code=0):
    result = CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", "COLUMNS": "100"})
    assert result.exit_code == code, (args, result.output)
    return result


def test_the_reference_has_every_rule_and_sub_rule_with_an_example():
    found = rulebook.rules()
    assert sorted(found) == sorted(EVERY_RULE)
    for rid, rule in found.items():
        assert rule.title.startswith(f"{rid} — "), rid
        assert "*Example.*" in rule.text, rid


def test_rules_r28a_prints_that_rule_in_any_case():
    shown = combat("rules", "r28a").stdout
    assert shown.startswith("R28a — A correction keeps what the table lived through\n")
    assert "R28b" not in shown and "{#" not in shown
    assert shown == combat("rules", "R28A").stdout


def test_rules_r28_prints_its_sub_rules_and_stops_before_r29():
    shown = combat("rules", "R28").stdout
    for heading in ("R28 — ", "R28a — ", "R28b — ", "R28c — "):
        assert f"\n{heading}" in "\n" + shown, heading
    assert "R29 — " not in shown


def test_rules_r3_stops_before_r4_and_r17_before_r18():
    assert "R3c — " in combat("rules", "R3").stdout
    assert "R4 — " not in combat("rules", "R3").stdout
    shown = combat("rules", "R17").stdout
    assert shown.startswith("R17 — ") and "R18" not in shown


def test_rules_without_an_id_prints_the_whole_reference():
    shown = combat("rules").stdout
    for rid in EVERY_RULE:
        assert re.search(rf"^{rid} — ", shown, re.M), rid


@pytest.mark.parametrize("bad", ["R99", "R0", "r28d", "bogus", "R1.2"])
def test_an_unknown_rule_is_one_error_line_naming_the_known_ids(bad):
    result = combat("rules", bad, code=1)
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: there is no rule ")
    assert "R1 to R31" in result.stderr and "R28c" in result.stderr


def test_a_real_process_finds_the_reference_from_a_source_checkout(tmp_path):
    env = {**os.environ, "COMBAT_DB": str(tmp_path / "x.db")}
    done = subprocess.run([sys.executable, "-m", "cli", "rules", "R17"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("R17 — ")


def test_the_wheel_ships_the_reference_where_rulebook_looks():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"docs/rules.md" = "projections/docs/rules.md"' in text
    assert rulebook.PLACES[0] == ROOT / "projections" / "docs" / "rules.md"


def test_the_server_serves_one_rule_as_a_page(tmp_path):
    from serverkit import client, served
    with served(tmp_path / "ledger.db") as running, client(running, None) as http:
        page = http.get("/rules/r28a")
        assert page.status_code == 200
        assert "text/html" in page.headers["content-type"]
        assert "<h1>R28a — A correction keeps what the table lived through</h1>" in page.text
        missing = http.get("/rules/R99")
        assert missing.status_code == 404 and "R1 to R31" in missing.text
        hostile = http.get("/rules/%3Cscript%3E")
        assert hostile.status_code == 404 and "<script>" not in hostile.text


def test_each_language_has_every_rule_under_the_same_id_and_level():
    """The German reference is the English one's translation: the same ids,
    each at the same heading level with the same anchor, each with its
    example, in the same order."""
    from eventlog.language import LANGUAGES, SOURCE, speaking

    def outline() -> list[tuple[int, str, str, bool]]:
        lines = rulebook.source().splitlines()
        heads = [(len(m.group(1)), line) for line in lines if (m := rulebook.HEADING.match(line))]
        found = rulebook.rules()
        return [(level, rid, line[line.index("{"):] if "{" in line else "",
                 "*Example.*" in found[rid].text or "*Beispiel.*" in found[rid].text)
                for level, line in heads
                if (rid := (rulebook.RULE_ID.match(line.lstrip("# ")) or [None, None])[1])]
    english = outline()
    assert len(english) > 30 and all(example for *_, example in english)
    for language in LANGUAGES:
        if language != SOURCE:
            with speaking(language):
                assert outline() == english, language


def test_a_rule_is_read_in_the_readers_language():
    from eventlog.language import speaking
    with speaking("de"):
        found = rulebook.rule("r19")
        everything = rulebook.source()
    assert found.title == "R19 — Unterbrechungen"
    assert "*Beispiel.*" in found.text and "Unterbrechung" in found.text
    assert everything.startswith("# Regelteil\n")
    assert rulebook.rule("R19").title == "R19 — Interrupts"  # (English again outside)


def test_the_wheel_ships_every_languages_reference():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"docs/de/rules.md" = "projections/docs/de/rules.md"' in text
    assert rulebook.places("de")[0] == ROOT / "projections" / "docs" / "de" / "rules.md"
