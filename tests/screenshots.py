"""Regenerate the README's pictures of the html report:

    .venv/bin/python tests/screenshots.py

examples/report.png (the top of the report of `combat demo`) and one picture per chart
type in examples/charts/ (from a 20-round fight of ten combatants), taken by
the system Chromium through Playwright, as tests/test_report_browser.py
drives it.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from browser import chromium  # noqa: E402
from helpers import cli_env, in_process  # noqa: E402
from eventlog.stores.sqlite import Store  # noqa: E402
from fights import play_rounds  # noqa: E402
from projections.ledger import Ledger  # noqa: E402
from projections.reports.html import write_html  # noqa: E402

EXAMPLES = HERE.parent / "examples"
CHARTS = ("chart-ap-per-round", "chart-turns-per-pass", "chart-actions",
          "chart-interrupts-seizes", "chart-ap-use")


def report(ledger: Ledger, encounter: str, path: Path) -> Path:
    with path.open("w", encoding="utf-8") as f:
        write_html(ledger, encounter, f)
    return path


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="combat-shots-"))
    try:
        env = cli_env(work / "demo.db")
        in_process(env)("demo")  # the warehouse raid, as the README's first commands
        store = Store(env["COMBAT_DB"])
        demo = report(Ledger(store), "demo-1", work / "demo.html")
        store.close()
        store = Store(work / "fight.db")
        play_rounds(store, "twenty", 20)
        fight = report(Ledger(store), "twenty", work / "twenty.html")
        store.close()
        (EXAMPLES / "charts").mkdir(exist_ok=True)
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1200, "height": 1500})
            page.goto(demo.as_uri())
            page.screenshot(path=EXAMPLES / "report.png")
            page.goto(fight.as_uri())
            for chart in CHARTS:
                target = EXAMPLES / "charts" / f"{chart.removeprefix('chart-')}.png"
                page.locator(f"#{chart} .scroll").screenshot(path=target)
                print(f"wrote {target.relative_to(HERE.parent)}")
        print(f"wrote {(EXAMPLES / 'report.png').relative_to(HERE.parent)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
