// Several targets at once on the GM's console: a box beside each row chooses
// it; with rows chosen, a bar above the panel changes a track of all of
// them by −N / +N or puts a condition on all of them, each as ONE
// declaration (`track goblin-1,goblin-2 hp -3`: one batch, one undo). The
// bar names who is chosen; Clear (or Escape) empties the choice. What is
// allowed is the core's to say: a refusal names the target it refuses.
"use strict";

const several = new Set();

function severalChosen() {
  // (in the table's order, whatever the order they were ticked in)
  return status.combatants.filter((c) => several.has(c.id));
}

function severalBox(row) {
  const c = status.combatants.find((x) => x.id === row.dataset.id);
  const box = el("input", { type: "checkbox", class: "choose", "aria-label": fill(_("choose {name} for several at once"), { name: c.name }),
                            on: { change: () => { if (box.checked) several.add(c.id); else several.delete(c.id); severalBar(); } } });
  box.checked = several.has(c.id);
  const pair = el("div", { class: "choosing" + (box.checked ? " chosen" : "") });
  row.replaceWith(pair);
  pair.append(box, row);
}

function severalClear() {
  several.clear();
  for (const box of $("order").querySelectorAll("input.choose")) box.checked = false;
  severalBar();
}

function commonTracks() {
  const [first, ...rest] = severalChosen();
  return Object.keys((first && first.tracks) || {}).filter((name) => rest.every((c) => name in (c.tracks || {})));
}

function severalBar() {
  const bar = $("several");
  for (const pair of $("order").querySelectorAll(".choosing")) {
    pair.classList.toggle("chosen", pair.querySelector("input.choose").checked);
  }
  if (!several.size) { bar.hidden = true; bar.replaceChildren(); return; }
  const kept = {};
  for (const box of bar.querySelectorAll("input")) kept[box.getAttribute("aria-label")] = box.value;
  const focus = bar.contains(document.activeElement) ? document.activeElement.getAttribute("aria-label") : null;
  const chosen = severalChosen();
  const ids = chosen.map((c) => c.id).join(","), who = chosen.map((c) => c.name).join(", ");
  const tracks = commonTracks();
  const track = el("input", { class: "word", dir: "auto", list: "several-tracks", placeholder: _("track"), "aria-label": _("the track to change"),
                              value: tracks.includes("hp") ? "hp" : tracks[0] || "" });
  const n = el("input", { class: "die", type: "number", min: "1", value: "1", "aria-label": _("by how much") });
  const minus = small("−1", () => change(-1), { title: _("for every one chosen") });
  const plus = small("+1", () => change(1), { title: _("for every one chosen") });
  const relabel = () => { const k = Math.abs(Number(n.value)) || 1; minus.textContent = "−" + k; plus.textContent = "+" + k; };
  n.addEventListener("input", relabel);
  const change = (sign) => {
    const k = Math.abs(Number(n.value)) || 1, name = track.value.trim();
    declare({ command: "track", id: ids, name, delta: sign * k }, "✓ " + who + ": " + name + " " + (sign < 0 ? "−" : "+") + k);
  };
  const condition = el("input", { class: "word", dir: "auto", placeholder: _("condition"), "aria-label": _("a condition on every one chosen") });
  const rounds = el("input", { class: "die rounds", type: "number", min: "1", placeholder: _("rounds"), "aria-label": _("for how many rounds, on every one chosen") });
  const add = () => declare({ command: "effect", id: ids, name: condition.value.trim(),
                              ...(rounds.value ? { rounds: Number(rounds.value) } : { until_ended: true }) },
                            "✓ " + who + ": " + condition.value.trim());
  bar.replaceChildren(
    el("h2", {}, ...i18n.nodes(_("{n} chosen: {names}"), { n: chosen.length, names: el("span", { class: "names", dir: "auto" }, who) })),
    el("datalist", { id: "several-tracks" }, ...tracks.map((t) => el("option", { value: t }))),
    el("div", { class: "buttons" }, track, n, minus, plus),
    el("div", { class: "buttons" }, condition, rounds, small(_("Add condition"), add)),
    el("div", { class: "buttons" }, small(_("Clear the choice"), severalClear, { "aria-keyshortcuts": "Escape" })));
  for (const box of bar.querySelectorAll("input")) {
    const was = kept[box.getAttribute("aria-label")];
    if (was !== undefined && was !== "") box.value = was;
  }
  relabel();
  const again = focus && [...bar.querySelectorAll("input, button")].find((x) => x.getAttribute("aria-label") === focus);
  if (again) again.focus();
  bar.hidden = false;
}

// After each redraw of the rows (gm.js): a box for every row, the choice kept
// for whoever is still in the encounter.
window.gmSeveral = function () {
  const ids = new Set(status.combatants.map((c) => c.id));
  for (const id of [...several]) if (!ids.has(id)) several.delete(id);
  for (const row of $("order").querySelectorAll(".member[data-id]")) severalBox(row);
  severalBar();
};

document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !several.size || !$("confirm").hidden) return;
  if (ev.target.closest && ev.target.closest("input:not(.choose), select, textarea")) return;
  severalClear();
});
