"""`export --format html` and `combat report`: the post-game report as one
self-contained page (inline CSS and SVG charts drawn by matplotlib, no
script, nothing fetched from the network), rendered with Jinja2 from the
same fold as `stats` and the md export. Three pages: the GM's report of an
encounter, the players' summary of it (`--for players`: the PCs'
highlights, nothing GM-only such as the reasons of overrides), and a
campaign report across encounters."""
from __future__ import annotations

from pathlib import Path
from typing import TextIO

from eventlog.language import N_, _
from projections.ledger import Ledger
from projections.reports.exports import TOTALS, review
from projections.reports.stats import CATEGORIES
from projections.reports.story import Chapter
from projections.reports.timing import duration
from projections.reports.walk import Track, no_track
from projections.reports.words import HARM, category, side

TEMPLATES = Path(__file__).resolve().parent / "templates"
OPEN_ROUNDS = 12  # up to this many rounds the narrative starts unfolded


def charts(numbers: dict) -> list:
    """The report's charts (charts.Chart: id, title, caption, svg)."""
    from projections.reports import charts as ch
    people = numbers["combatants"]
    names = [c["name"] for c in people]
    rounds = numbers["rounds"]
    labels = [f"R{r['round']}" for r in rounds]
    numbers_of = [r["round"] for r in rounds]
    seconds: dict[tuple[str, int], float] = {}
    for t in numbers["turns"]:
        key = (t["combatant"], t["round"])
        seconds[key] = seconds.get(key, 0.0) + t["seconds"]
    passes = max([r["passes"] for r in rounds] or [1])
    return [
        ch.heatmap("chart-ap-per-round", _("AP spent per combatant per round"),
                   _("AP spent in turns and on interrupts: a row per combatant, a column per round."),
                   names, numbers_of,
                   [[r["ap_by_combatant"].get(c["id"], 0) for r in rounds] for c in people], "AP"),
        ch.heatmap("chart-time-per-round", _("Time in turns per combatant per round"),
                   _("Seconds each combatant's turns took in each round (see Time).")
                   + ("" if not rounds or any(v >= 0.5 for v in seconds.values()) else
                      " " + _("Every turn here took under a second (a scripted fight?): "
                              "nothing to shade.")),
                   names, numbers_of,
                   [[round(seconds.get((c["id"], r["round"]), 0.0)) for r in rounds]
                    for c in people], _("seconds")),
        ch.columns("chart-turns-per-pass", _("Turns per round, by pass"),
                   _("Turns taken in each pass of each round."), labels,
                   [ch.Series(_("pass {n}").format(n=p),
                              [r["turns_per_pass"][p - 1] if p <= r["passes"] else 0
                               for r in rounds]) for p in range(1, passes + 1)],
                   _("turns")),
        ch.rows("chart-actions", _("Actions by category"),
                _("Free, minor (1 AP), major (2 AP) and custom-cost actions, in turns and as "
                  "interrupts."),
                names, [ch.Series(category(k), [c["actions"][k] for c in people])
                        for k in CATEGORIES], _("actions")),
        ch.rows("chart-interrupts-seizes", _("Interrupts and seizes"),
                _("Interrupt Actions taken out of turn (R19) and moments seized for Grit (R10)."),
                names, [ch.Series(_("interrupts"), [c["interrupts"] for c in people]),
                        ch.Series(_("seizes"), [c["seizes"] for c in people])], _("times"),
                stacked=False),
        ch.columns("chart-ap-use", _("AP used and lost per round"),
                   _("AP spent in turns, on interrupts, and left unspent when the round ended "
                     "(R15)."),
                   labels, [ch.Series(_("in turns"), [r["ap_in_turns"] for r in rounds]),
                            ch.Series(_("on interrupts"), [r["ap_on_interrupts"] for r in rounds]),
                            ch.Series(_("unspent"), [r["ap_unspent"] or 0 for r in rounds])], "AP"),
    ]


def harm_charts(numbers: dict) -> list:
    """Damage per combatant and round, and taken/dealt/healed per combatant,
    when a track named hp was used."""
    from projections.reports import charts as ch
    hp = numbers.get("hp") or {}
    if not hp.get("used"):
        return []
    people = hp["combatants"]
    names = [c["name"] for c in people]
    per_round = {r["round"]: r["taken"] for r in hp["rounds"]}
    rounds = [r["round"] for r in numbers["rounds"]]
    return [
        ch.heatmap("chart-hp-per-round", _("Damage taken per combatant per round"),
                   _("hp lost by each combatant in each round (healing aside)."),
                   names, rounds, [[per_round.get(n, {}).get(c["id"], 0) for n in rounds]
                                   for c in people], _("hp")),
        ch.rows("chart-hp", _("Damage taken, dealt and healed"),
                _("hp each combatant lost, took from others (track --by, or in their turn) "
                  "and regained."), names,
                [ch.Series(_(HARM[k]), [c[k] for c in people]) for k in HARM],
                _("hp"), stacked=False),
    ]


def order_changes(chapters: list[Chapter]) -> list[dict]:
    """The initiative order of the first round, then only of the rounds
    where it differs from the round before (with the rounds it held for).
    Rounds are compared by the order they began with: a seize moves the
    seizer to the top for its round only (R11), which the narrative and the
    rounds table tell. Each entry shows the order its first round was played
    in (a tie ordered during the round, R3, as it was played; its seizers
    tagged)."""
    out: list[dict] = []
    previous = None
    for chapter in chapters:
        if chapter.round is None:
            continue
        key = ([(p.slot, p.label, p.total) for p in chapter.planned],
               [(p.slot, p.total) for p in chapter.joined])
        if key == previous and out:
            out[-1]["last"] = chapter.round
            continue
        previous = key
        out.append({"chapter": chapter, "order": chapter.order, "first": chapter.round,
                    "last": chapter.round})
    return out


def highlights(numbers: dict) -> list[dict]:
    """The players' summary: each PC's share of the spotlight (turns and time),
    biggest turn, seizes and interrupts."""
    turns = numbers["turns"]
    all_turns = len(turns) or 1
    all_time = sum(t["seconds"] for t in turns) or 0
    out = []
    for c in numbers["combatants"]:
        if c["side"] != "pc":
            continue
        own = [t for t in turns if t["combatant"] == c["id"]]
        best = max(own, key=lambda t: (t["ap_spent"], -t["turn"]), default=None)
        out.append({
            "id": c["id"], "name": c["name"], "turns": c["turns"],
            "turn_share": round(100 * len(own) / all_turns),
            "time_share": round(100 * c["turn_seconds"] / all_time) if all_time else None,
            "ap_spent": c["ap_spent"], "seizes": c["seizes"], "interrupts": c["interrupts"],
            "biggest": best, "grit_spent": c["grit_spent"], "grit_gained": c["grit_gained"],
        })
    return out


def _environment():
    import jinja2  # only the html report needs it (STYLE.md: keep start-up light)
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["duration"] = duration
    from projections.reports import words
    from projections.reports.faces import initials
    env.filters["initials"] = initials
    # Looked up when the page is rendered, so each reader's page is in their
    # language (`_`, `ngettext`); numbers and moments in their form.
    from eventlog import language
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(language._, language.n_, newstyle=False)
    env.globals["lang"] = language.current
    env.globals["category"] = category
    env.globals["side"] = side
    env.globals["column"] = words.column
    env.filters["whole"] = words.count
    env.filters["figure"] = words.figure
    env.filters["percent"] = words.percent
    env.filters["moment"] = words.moment
    return env


def _marked(chart_list: list) -> list[dict]:
    from markupsafe import Markup
    return [{"id": c.id, "title": c.title, "caption": c.caption, "svg": Markup(c.svg),
             **cropped_below(c.width)} for c in chart_list]


# The page's frame around a chart's box (main, section and box padding and
# borders) on a phone (up to 600 px) and wider, and a page scrollbar's room:
# below these widths a chart is cropped in its box and the page says so.
PHONE_FRAME, DESK_FRAME, DESK_BOX, SCROLLBAR = 50, 98, 1022, 20


def cropped_below(width: float) -> dict:
    """The viewport widths at which a chart of `width` px is cropped: the
    phone layout's and the wider one's (`wide_all`: wider than any box)."""
    from math import ceil
    return {"phone_below": min(600, ceil(width) + PHONE_FRAME),  # (a phone's scrollbars float)
            "desk_below": ceil(width) + DESK_FRAME + SCROLLBAR,
            "wide_all": width > DESK_BOX}


def render_html(numbers: dict, chapters: list[Chapter], head_hash: str,
                audience: str = "gm", branches: dict | None = None,
                faces: dict[str, str] | None = None) -> str:
    template = _environment().get_template("report.html.j2")
    return template.render(branches=branches or {}, faces=faces or {},
        numbers=numbers, totals=numbers["totals"], chapters=chapters,
        charts=_marked(charts(numbers) + ([] if audience == "players" else harm_charts(numbers))),
        categories=CATEGORIES, totals_rows=TOTALS,
        head_hash=head_hash, orders=order_changes(chapters), players=audience == "players",
        names={c["id"]: c["name"] for c in numbers["combatants"]},
        highlights=highlights(numbers), open_rounds=len(numbers["rounds"]) <= OPEN_ROUNDS,
    )


def write_html(ledger: Ledger, encounter: str, out: TextIO, track: Track = no_track,
               audience: str = "gm") -> int:
    if audience == "players":  # no trace of a hidden combatant (docs/server.md, what the players see)
        from projections.players import players_ledger
        numbers, chapters = review(players_ledger(ledger, encounter), encounter, track)
        head_hash = ""  # (the chain's hash holds the hidden events: the recap shows none)
    else:
        numbers, chapters = review(ledger, encounter, track)
        _seq, head_hash = ledger.store.head(encounter)
    from eventlog.text import LINE_BREAKS, neutral
    from projections.reports.faces import faces
    page = render_html(numbers, chapters, head_hash, audience,
                       branches(ledger, encounter, audience),
                       faces(ledger, encounter, [c["id"] for c in numbers["combatants"]]))
    out.write(neutral(page, keep=LINE_BREAKS))  # no control reaches `cat`
    return numbers["totals"]["events"]


def branches(ledger: Ledger, encounter: str, audience: str = "gm") -> dict:
    """Where a fork came from and the forks taken of this encounter, each
    linked to its report as `report` names it by default (ID-report.html),
    so reports written side by side link both ways."""
    from projections.forking import forks_of, point_of
    kind = "recap" if audience == "players" else "report"
    point = point_of(ledger.store, encounter)
    parent = None if point is None else {"encounter": point.encounter, "seq": point.seq,
                                         "href": f"{point.encounter}-{kind}.html"}
    return {"parent": parent, "forks": [{"encounter": fork, "seq": seq, "href": f"{fork}-{kind}.html"}
                                        for fork, seq in forks_of(ledger.store, encounter)]}


def campaign_charts(view: dict) -> list:
    from projections.reports import charts as ch
    fights = view["encounters"]
    labels = [f"{f['session']} {f['encounter']}" if f["session"] else f["encounter"]
              for f in fights]
    people = view["combatants"]
    harm = view["harm"]
    hurt = [ch.rows(
        "chart-campaign-harm", _("Damage taken per fight"),
        _("Hit points each character lost in each fight, first fight at the top "
          "(tracks named hp)."),
        labels, [ch.Series(ch.short(name), harm["taken"][cid]) for cid, name in harm["names"].items()],
        _("hp"))] if harm["used"] and harm["names"] else []
    evenings = view["sessions"]
    pcs = {q["id"]: q["name"] for x in evenings for q in x["people"]}
    spotlight = [ch.rows(
        "chart-campaign-sessions", _("Turns per session"),
        _("Each character's turns in each session, first session at the top."),
        [x["session"] for x in evenings],
        [ch.Series(ch.short(name), [next((q["turns"] for q in x["people"] if q["id"] == cid), 0)
                                    for x in evenings]) for cid, name in pcs.items()],
        _("turns"))] if len(evenings) > 1 and pcs else []
    counted = {"turns": N_("turns"), "ap_in_turns": N_("AP in turns"),
               "interrupts": N_("interrupts"), "seizes": N_("seizes")}
    return hurt + spotlight + [
        ch.rows("chart-campaign-combatants", _("Per combatant across fights"),
                _("Turns, AP in turns, interrupts and seizes, summed over the encounters."),
                [p["name"] for p in people],
                [ch.Series(_(word), [p[k] for p in people]) for k, word in counted.items()],
                _("count"), stacked=False),
        ch.rows("chart-campaign-sides", _("AP per turn by side"),
                _("AP spent in turns divided by turns taken, per side."),
                [side(s["side"]) for s in view["sides"]],
                [ch.Series(_("AP per turn"), [s["ap_per_turn"] or 0 for s in view["sides"]])],
                "AP"),
        ch.rows("chart-campaign-fights", _("Seizes and interrupts per encounter"),
                _("Moments seized (R10) and Interrupt Actions (R19) in each fight."), labels,
                [ch.Series(_("seizes"), [f["seizes"] for f in fights]),
                 ch.Series(_("interrupts"), [f["interrupts"] for f in fights])], _("times"),
                stacked=False),
        ch.rows("chart-campaign-time", _("Time per encounter"),
                _("Minutes from the first event to the last, and in turns."), labels,
                [ch.Series(_("duration"), [round(f["duration_seconds"] / 60, 1) for f in fights]),
                 ch.Series(_("in turns"), [round(f["turn_seconds"] / 60, 1) for f in fights])],
                _("minutes"), stacked=False),
    ]


def write_campaign(ledger: Ledger, encounters: list[str], out: TextIO,
                   track: Track = no_track, sessions: dict[str, str] | None = None,
                   audience: str = "gm") -> int:
    """The campaign page of `encounters`; for the players (`audience`), made
    from each fight as a player reads it."""
    from eventlog.text import neutral
    from projections.reports.campaign import campaign
    view = campaign(ledger, encounters, track, sessions, audience)
    template = _environment().get_template("campaign.html.j2")
    page = template.render(view=view, charts=_marked(campaign_charts(view)))
    out.write(neutral(page, keep="\n"))
    return sum(f["totals"]["events"] for f in view["fights"])
