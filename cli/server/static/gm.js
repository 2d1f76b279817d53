// The GM's console, on top of app.js: the order is the page. One compact row
// per combatant in the current order (app.js draws them; here they become
// selectable, and the ones off the order are added), ONE panel of controls
// for the selected combatant (the acting one unless the GM picks another),
// the table's buttons, and play mode's keys (m/n/f/i/s/e, Ctrl-Z/Ctrl-Y)
// when no box has the focus. What is allowed is the core's to say: a refusal
// comes back as one line in the status area. gmlog.js adds the log's
// corrections and the evening (encounters, roster, phones).
"use strict";

let selected = null, followed = "";

const commandsPath = () => "./api/encounters/" + encodeURIComponent(encounter) + "/commands";

// Next round and End encounter say what they will do before they are declared
// (the core's dry run: the AP that would be lost); End turn is play mode's
// careful one, which asks before it ends a turn nothing was spent in (R21).
function confirmFirst(text, lines, command, done, asksWhy, extra) {
  const box = $("confirm");
  const why = asksWhy ? el("input", { class: "label", dir: "auto", "aria-label": _("why, for the record"), placeholder: _("why (for the record)") }) : null;
  const go = () => { box.hidden = true; declare(why ? { ...command, reason: why.value } : command, done); };
  const yes = el("button", { type: "button", class: "big", on: { click: go } }, text);
  box.replaceChildren(...[el("p", {}, fill(_("{question}?"), { question: text })), extra,
    el("ul", { class: "preview", "aria-label": _("what it would change") }, ...lines.map((l) => el("li", {}, l))), why,
    el("div", { class: "buttons" }, yes,
       el("button", { type: "button", on: { click: closeConfirm } }, _("Cancel")))].filter(Boolean));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
  (why || yes).focus();
}

function closeConfirm() { $("confirm").hidden = true; }

function preview(command, text, done, asksWhy) {
  return api(commandsPath(), { ...command, dry_run: true }).then(
    (answer) => confirmFirst(text, answer.preview || [], command, done, asksWhy), (err) => say(err.message, "error"));
}

// -- the rows: the order, then who is off it ---------------------------------

let rowFocused = null;

window.gmSlots = function (s) {
  const at = document.activeElement;  // (app.js redraws the rows next: the focus comes back after)
  rowFocused = at && at.matches && at.matches("#order .member[data-id]") ? at.dataset.id : null;
  // the current order (seizers first: the core's), then the slots not in it
  // yet (nothing rolled, a round not started), in join order
  const slots = [...s.order];
  for (const c of s.combatants) {
    const slot = c.group || c.id;
    if (!slots.includes(slot) && !slots.includes(c.id) && c.active) slots.push(slot);
  }
  return slots;
};

function offOrder() {
  // combatants no row shows (left, or a group member who left): one row each
  const shown = new Set([...$("order").querySelectorAll("[data-id]")].map((n) => n.dataset.id));
  return status.combatants.filter((c) => !shown.has(c.id)).map((c) =>
    el("li", { class: c.side + " off", data: { slot: c.id } },
       el("div", { class: "slot-head" }, sideBadge(c.side), el("span", { class: "init" }, "–"), combatantLine(c, "member"))));
}

const NARROW = window.matchMedia("(max-width: 899px)");

function panelSeen() {
  const box = $("panel").getBoundingClientRect();
  return box.height > 0 && box.top < innerHeight && box.bottom > 0;
}

function pick(id, focus, shown) {
  selected = id;
  for (const row of $("order").querySelectorAll(".member[data-id]")) {
    row.setAttribute("aria-pressed", String(row.dataset.id === id));
    row.classList.toggle("picked", row.dataset.id === id);
  }
  renderPanel();
  if (focus) $("panel").querySelector("h2").focus();
  else if (shown && NARROW.matches) $("panel").scrollIntoView({ block: "start" });  // (a phone: the panel is below)
}

function rowsSelectable() {
  for (const row of $("order").querySelectorAll(".member[data-id]")) {
    const c = status.combatants.find((x) => x.id === row.dataset.id);
    row.setAttribute("role", "button");
    row.setAttribute("tabindex", "0");
    row.addEventListener("click", () => pick(c.id, false, true));
    row.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pick(c.id, true); }
    });
  }
}

window.gmRendered = function () {
  $("order").append(...offOrder());
  rowsSelectable();
  window.gmSeveral();  // (gmseveral.js: a box on each row, to act on several at once)
  const key = [status.encounter, status.round, status.pass, status.acting, status.up.join(",")].join("|");
  const byId = Object.fromEntries(status.combatants.map((c) => [c.id, c]));
  if (key !== followed || !byId[selected]) {  // a new turn: the acting one is selected
    followed = key;
    selected = status.acting || status.up[0] || (status.combatants[0] || {}).id || null;
    const row = $("order").querySelector('.member[data-id="' + CSS.escape(selected) + '"]');
    // (on a phone the panel is below the order: a GM working in it stays there)
    if (row && status.phase === "combat" && !(NARROW.matches && panelSeen())) row.scrollIntoView({ block: "nearest" });
  }
  pick(selected);
  const again = rowFocused && $("order").querySelector('.member[data-id="' + CSS.escape(rowFocused) + '"]');
  if (again) again.focus({ preventScroll: true });
  refreshLog();
};

// After a declaration from this page the choice returns to the acting
// combatant (the first up, when a group's members are): the next Major or
// End turn is never the last row clicked, such as a boss just hidden.
window.gmDeclared = function () {
  const back = status && (status.acting || status.up[0]);
  if (back && back !== selected) pick(back);
};

// -- the panel: the selected combatant's controls ----------------------------

const keyed = (text, key, fn, disabled) =>
  el("button", { type: "button", class: "big", "aria-keyshortcuts": key, disabled, on: { click: fn } },
     text, el("kbd", { "aria-hidden": "true" }, key));

function small(text, fn, props) {  // (`text`: words, or the nodes of i18n.nodes)
  return el("button", { type: "button", ...(props || {}), on: { click: fn } }, ...[].concat(text));
}

function rollRow(c) {
  const slot = c.group || c.id;
  const group = status.groups.find((g) => g.id === slot);
  if ((group ? group.initiative : c.initiative) !== null) return null;
  const die = el("input", { class: "die", type: "number", min: "1", max: "10", placeholder: _("d10"),
                            "aria-label": fill(_("the die {name} rolled"), { name: slot }) });
  return el("div", { class: "buttons" }, die,
    small(_("Enter roll"), () => declare({ command: "roll", slots: [slot], die: Number(die.value) }, fill(_("✓ {name} rolled {die}"), { name: nameOf(slot), die: die.value }))),
    small(fill(_("Roll for {name}"), { name: group ? slot : c.name }), () => declare({ command: "roll", slots: [slot] }, fill(_("✓ {name} rolled"), { name: nameOf(slot) }))));
}

function effectsRow(c) {
  const name = el("input", { class: "word", dir: "auto", placeholder: _("condition"), "aria-label": fill(_("a condition or effect on {name}"), { name: c.name }) });
  const rounds = el("input", { class: "die rounds", type: "number", min: "1", placeholder: _("rounds"), "aria-label": _("for how many rounds") });
  const add = () => declare({ command: "effect", id: c.id, name: name.value.trim(),
                              ...(rounds.value ? { rounds: Number(rounds.value) } : { until_ended: true }) },
                            fill(_("✓ {name}: {effect}"), { name: c.name, effect: name.value.trim() }));
  return el("div", { class: "buttons" },
    ...(c.effects || []).filter((e) => e.active !== false).map((e) =>
      small(i18n.nodes(_("End {effect}"), { effect: e.name }), () => declare({ command: "end-effect", effect: e.id }, fill(_("✓ {effect} ends"), { effect: e.name })),
            { "aria-label": fill(_("end {effect} on {name}"), { effect: e.name, name: c.name }) })),
    name, rounds, small(_("Add effect"), add));
}

function trackRows(c) {
  const rows = Object.entries(c.tracks || {}).map(([name, t]) => {
    const to = el("input", { class: "die", type: "number", min: "0", "aria-label": fill(_("set {track} of {name} to"), { track: name, name: c.name }) });
    const change = (delta) => declare({ command: "track", id: c.id, name, delta },
                                      "✓ " + c.name + " " + name + (delta > 0 ? " +" : " ") + delta);
    return el("div", { class: "buttons track", data: { track: name } },
      el("span", { class: "track-name", dir: "auto" }, name + " " + t.value + (t.max === null ? "" : "/" + t.max)),
      small("−1", () => change(-1), { "aria-label": name + " −1" }),
      small("+1", () => change(1), { "aria-label": name + " +1" }),
      to, small(_("Set"), () => declare({ command: "track", id: c.id, name, value: Number(to.value) },
                                        "✓ " + c.name + " " + name + " = " + to.value), { "aria-label": fill(_("set {track}"), { track: name }) }),
      // (the GM chooses per track whether the players see it)
      small(_("Players see it"), () => declare({ command: "track", id: c.id, name, delta: 0, public: !t.public },
                                               fill(t.public ? _("✓ the players no longer see {name}'s {track}") : _("✓ the players see {name}'s {track}"),
                                                    { name: c.name, track: name })),
            { class: "toggle", "aria-pressed": String(!!t.public), "aria-label": fill(_("players see {track}"), { track: name }) }));
  });
  const name = el("input", { class: "word", dir: "auto", placeholder: _("new track"), "aria-label": fill(_("a new track on {name}"), { name: c.name }) });
  const value = el("input", { class: "die rounds", type: "number", min: "0", placeholder: _("value"), "aria-label": _("its value and maximum") });
  rows.push(el("div", { class: "buttons" }, name, value,
    small(_("Add track"), () => declare({ command: "track", id: c.id, name: name.value.trim(), value: Number(value.value),
                                          max: Number(value.value) }, "✓ " + c.name + " " + name.value.trim()))));
  return rows;
}

function panelKept(panel) {
  // what the GM has typed or chosen in the panel, and where the focus is: a
  // redraw (any device's declaration) keeps them for the same combatant
  if (panel.dataset.id !== selected) return { values: {}, focus: null };
  const values = {};
  for (const box of panel.querySelectorAll("input, select")) values[box.getAttribute("aria-label")] = box.value;
  const at = document.activeElement && panel.contains(document.activeElement) ? document.activeElement : null;
  return { values, focus: at && (at.getAttribute("aria-label") || at.textContent) };
}

function panelRestored(panel, kept) {
  for (const box of panel.querySelectorAll("input, select")) {
    const was = kept.values[box.getAttribute("aria-label")];
    if (was !== undefined) box.value = was;
  }
  if (!kept.focus) return;
  const again = [...panel.querySelectorAll("input, select, button, h2")].find((n) =>
    (n.getAttribute("aria-label") || n.textContent) === kept.focus);
  if (again && !again.disabled) again.focus();
}

function renderPanel() {
  const panel = $("panel");
  const c = status && status.combatants.find((x) => x.id === selected);
  const kept = panelKept(panel);
  panel.dataset.id = selected || "";
  if (!c) { panel.replaceChildren(el("p", {}, _("add a combatant: `add NAME` in the command box, or a roster below"))); return; }
  const name = { name: c.name };
  const label = el("input", { id: "act-label", class: "label", dir: "auto", placeholder: _("what it does (optional)"), "aria-label": fill(_("what {name} does"), name) });
  const cost = costChoice("interrupt-cost");
  const state = status.acting === c.id ? "acting" : status.up.includes(c.id) ? "up" : !c.active ? "left" : "";
  const go = (command, text) => () => declare(command, fill(text, name));
  panel.replaceChildren(...[
    el("h2", { tabindex: "-1" }, portraits.face(c, "big"), el("bdi", {}, c.name), " ", pips(c), " ",
       el("span", { class: "init" }, fill(_("grit {n}"), { n: c.grit })),
       state ? el("span", { class: "tag" }, _(TAGS[state])) : null, c.hidden ? tag("hidden") : null),
    rollRow(c),
    el("div", { class: "buttons" },
      keyed(_("Minor · 1 AP"), "n", () => act("minor")), keyed(_("Major · 2 AP"), "m", () => act("major")),
      keyed(_("Free"), "f", () => act("free")), keyed(_("End turn"), "e", endTurn)),
    el("div", { class: "buttons" },
      keyed(_("Seize · 1 Grit"), "s", go({ command: "seize", id: c.id }, _("✓ {name} seizes the moment"))),
      keyed(_("Interrupt"), "i", interrupt), cost),
    el("div", { class: "buttons" }, label),
    el("h3", {}, _("Tracks")), ...trackRows(c),
    el("h3", {}, _("Conditions")), effectsRow(c),
    el("div", { class: "buttons" },
      small(_("Grit +1"), go({ command: "grit", id: c.id, delta: 1 }, _("✓ {name} gains 1 Grit"))),
      small(_("Grit −1"), go({ command: "grit", id: c.id, delta: -1 }, _("✓ {name} loses 1 Grit"))),
      c.active ? small(_("Leaves"), () => declare({ command: "leave", id: c.id, reason: label.value }, fill(_("✓ {name} leaves"), name)))
               : small(_("Rejoins"), go({ command: "rejoin", id: c.id }, _("✓ {name} rejoins"))),
      c.hidden ? small(_("Reveal"), go({ command: "reveal", id: c.id }, _("✓ the players see {name}")))
               : small(_("Hide"), go({ command: "hide", id: c.id }, _("✓ {name} is hidden from the players"))))]
    .filter(Boolean));
  panel.setAttribute("aria-label", fill(_("controls for {name}"), name));
  panelRestored(panel, kept);
}

// -- what the panel and the keys declare (play mode's aliases) ----------------

function chosen() { return status && status.combatants.find((x) => x.id === selected); }

function act(cost) {
  const c = chosen();
  if (!c) return;
  const label = $("act-label") ? $("act-label").value : "";
  const done = { minor: _("✓ {name}: minor action"), major: _("✓ {name}: major action"), free: _("✓ {name}: free action") };
  declare({ command: "act", id: c.id, cost, label }, fill(done[cost], { name: c.name }))
    .then((a) => { if (a && $("act-label")) $("act-label").value = ""; });
}

function interrupt() {
  const c = chosen();
  if (!c) return;
  const cost = $("interrupt-cost").value;
  declare({ command: "interrupt", id: c.id, cost: isNaN(cost) ? cost : Number(cost), label: $("act-label").value },
          fill(_("✓ {name} interrupts"), { name: c.name })).then((a) => { if (a && $("act-label")) $("act-label").value = ""; });
}

function endTurn() {
  // play mode's `e`: the careful end-turn of whoever is acting; a group member
  // among several up is named. A turn with nothing spent in it is ended only
  // once the GM confirms it (the core asks, naming whose turn it is).
  const c = chosen();
  const member = c && status.up.length > 1 && status.up.includes(c.id);
  declare({ command: "end-turn", careful: true, ...(member ? { id: c.id } : {}) }, _("✓ turn ended"),
          (err) => confirmFirst(fill(_("End {name}'s turn"), { name: nameOf(err.confirm.id) }), [named(err.why || err.message)],
                                err.confirm, _("✓ turn ended")));
}

const KEYS = { m: () => act("major"), n: () => act("minor"), f: () => act("free"), i: interrupt,
               s: () => { const c = chosen(); if (c) declare({ command: "seize", id: c.id }, fill(_("✓ {name} seizes the moment"), { name: c.name })); },
               e: endTurn };

function onKey(ev) {
  const t = ev.target;
  if (ev.key === "Escape" && !$("confirm").hidden) { closeConfirm(); return; }  // (from its reason box too)
  if (!status || t.closest("input, select, textarea, [contenteditable]")) return;  // typing
  if (!$("confirm").hidden) return;  // a confirmation waits for its answer
  const key = ev.key.toLowerCase();
  if ((ev.ctrlKey || ev.metaKey) && !ev.altKey) {
    if (key === "z" && !ev.shiftKey) { ev.preventDefault(); correct("undo"); }
    else if (key === "y" || (key === "z" && ev.shiftKey)) { ev.preventDefault(); correct("redo"); }
    return;
  }
  if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.repeat || !KEYS[key]) return;
  ev.preventDefault();
  KEYS[key]();
}

// -- the table's buttons and the command box ----------------------------------

function tableButtons() {
  const simple = [[_("Roll all"), () => declare({ command: "roll" }, _("✓ rolled"))],
                  [_("Next round"), () => preview({ command: "round" }, _("Start the next round"), _("✓ a new round"))],
                  [_("End turn"), endTurn],
                  [_("Undo"), () => correct("undo"), "Control+Z"],
                  [_("Redo"), () => correct("redo"), "Control+Y"],
                  [_("End encounter"), () => confirmFirst(_("End the encounter"),
                    [_("afterwards only notes, undo, redo, retraction and amendment (R25)")], { command: "end" }, _("✓ the encounter has ended"))]];
  $("gm-buttons").replaceChildren(...simple.map(([text, fn, key]) =>
    el("button", { type: "button", on: { click: fn }, ...(key ? { "aria-keyshortcuts": key, title: key.replace("Control+", _("Ctrl+")) } : {}) }, text)));
}

function gmButtons() {
  tableButtons();
  $("line-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const line = $("line").value.trim();
    if (!line) return;
    const path = "./api/encounters/" + encodeURIComponent(encounter) + "/line";
    // an undo or redo typed here takes back what the page shows, as Ctrl-Z does
    const verb = { u: "undo", undo: "undo", r: "redo", redo: "redo" }[line.split(/\s+/)[0]];
    const sent = verb && !/(^|\s)--expect\b/.test(line)
      ? seenLatest(verb).then((batch) => line + " --expect " + batch.seq) : Promise.resolve(line);
    sent.then((full) => api(path, { line: full })).then((answer) => {
      // a --dry-run appends nothing: what it would change is the answer
      if (answer.party || answer.carried) party.refresh();
      if (answer.preview) say(fill(_("dry run, nothing appended: {preview}"), { preview: answer.preview.join(" · ") }), "note");
      else if (answer.party) say(answer.party.map((l) => l.trim()).join(" · "), "ok");  // (`party rest`)
      else if (answer.carried) say(party.told("✓ " + line, answer.carried), "ok");
      else say("✓ " + line, "ok");
      // (what the GM typed meanwhile, the next command, is kept)
      if ($("line").value.trim() === line) $("line").value = "";
      if (answer.status.encounter !== encounter) { goTo(answer.status.encounter); return; }  // (`new ID`)
      render(answer.status);
      if (!answer.preview) window.gmDeclared();
    }, (err) => say(err.message, "error"));
  });
  document.addEventListener("keydown", onKey);
}

window.gmStart = function () {
  $("gm-buttons").after($("message"));  // (where the GM looks after pressing one)
  $("gm").hidden = false;
  $("history").hidden = false;
  $("evening").hidden = false;
  gmButtons();
  gmEvening();
};

window.gmPicked = function (next) { $("encounter").value = next; archiveWords(); };

// The page's language switched: the GM's own words are said again (the
// rows and the panel with the next status: app.js opens the stream again).
window.gmLanguage = function () {
  tableButtons();
  eveningAgain();
};
