// The party on the pages (docs/characters.md, "The party on the pages"): the
// GM's console lists every character of the campaign's party (tracks with
// their maximums, Grit, lasting conditions, the fight holding each) and the
// carries a correction left waiting; a player's page shows their own
// characters once the fight has ended, as the party now holds them. What
// each token may read is the server's answer (/api/party): a view reads none
// of it, and the page asks nothing for one.
"use strict";

const party = (() => {
  let drawn = "", moment = "";

  function sheet(ch) {
    const tracks = ch.tracks.map((t) => t.track + " " + t.value + (t.max === null ? "" : "/" + t.max));
    const said = [fill(_("Grit {n}"), { n: ch.grit }), ...tracks];
    if (ch.conditions.length) said.push(ch.conditions.join(", "));
    if (me.role === "gm") said.push(ch.fight ? fill(_("in fight {fight}"), ch) : _("between fights"));
    return el("li", { data: { character: ch.id } }, el("strong", { dir: "auto" }, ch.name), " · " + said.join(" · "));
  }

  function draw(p) {
    const box = $("party");
    const between = !status || status.phase === "ended";
    box.hidden = !p.characters.length || (me.role === "player" && !between);
    $("party-head").textContent = me.role === "gm" ? fill(_("The party (seq {seq})"), p) : _("Between fights");
    $("party-list").replaceChildren(...p.characters.map(sheet));
    const waiting = p.waiting || [];
    $("party-waiting").hidden = !waiting.length;
    $("party-waiting").textContent = waiting.join(" · ");
  }

  function refresh() {
    if (!me || (me.role !== "gm" && me.role !== "player")) return;
    api("./api/party").then((p) => {
      const key = JSON.stringify(p) + (status ? status.phase : "");
      if (key === drawn) return;
      drawn = key;
      draw(p);
    }, () => { $("party").hidden = true; });
  }

  // Each status: asked again when the fight starts, ends or is another.
  function follow(s) {
    const now = s.encounter + "|" + s.phase;
    if (now !== moment) { moment = now; refresh(); }
  }

  // (the GM's: a change made elsewhere, `combat party set` in a terminal, shows within 10 s)
  setInterval(() => { if (me && me.role === "gm") refresh(); }, 10000);
  // A declaration's message with the carry it made: "✓ end · carried into
  // the party (...): vex hp 15/15 -> 11/15 · rook Grit 2 -> 1".
  function told(done, carried) {
    const lines = (carried || []).map((l) => l.trim().replace(/\s+/g, " "));
    if (!lines.length) return done;
    return done + " · " + lines[0] + (lines.length > 1 ? " " + lines.slice(1).join(" · ") : "");
  }

  // The page's language switched: drawn again in it.
  function again() { drawn = ""; refresh(); }

  return { refresh, follow, told, again };
})();
