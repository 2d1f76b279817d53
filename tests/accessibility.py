"""axe-core (from the npm registry: tests/package.json, installed by .ci/run)
run in a page the browser tests opened: the serious and critical violations."""
from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


def violations(opened) -> list[str]:
    """axe's serious and critical findings on `opened`, one line each. (The
    page's context must bypass its CSP: axe is injected as an inline script.)"""
    opened.add_script_tag(path=str(AXE))
    found = opened.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ': ' + v.help + ' @ ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
    }""")
    return list(found)
