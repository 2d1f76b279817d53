// The GM's console, continued (after gm.js): corrections from the log (undo
// the latest, retract, amend die, cost, label, who or a track's value, each
// with the core's --dry-run preview before it is declared), and the evening:
// the encounters (pick, put on the table, archive, unarchive), a new one from
// a roster file read by the server's strict reader, the phones asking to join
// and the ones joined.
"use strict";

// -- corrections from the log -------------------------------------------------

function summary(line) {
  // As `combat log` words it: who, where in the round, what; and what undid it.
  return (line.imported ? fill(_("{actor} (imported)"), line) : line.actor) + " · " + (line.where || line.context) + " · " + (line.batch !== line.seq ? "+ " : "") +
    line.text + (line.fate ? " (" + line.fate + ")" : "");
}

function retract(line) {
  // a mistake noticed later: what the retraction would change first (retract --dry-run)
  const command = { command: "retract", seq: line.seq };
  api(commandsPath(), { ...command, dry_run: true }).then(
    (answer) => confirmFirst(fill(_("Retract seq {seq}"), line), answer.preview || [], command, fill(_("✓ retracted seq {seq}"), line), true),
    (err) => {
      say(err.message, "error");
      preview({ ...command, cascade: true }, fill(_("Retract seq {seq} and what falls with it"), line),
              fill(_("✓ retracted seq {seq} with its cascade"), line), true);
    });
}

// Undo and redo send back the batch they would act on as of the status this
// page drew (`expect`): a declaration that landed since (a player's, another
// console's Ctrl-Z) is refused, named, rather than taken back unseen.
function seenLatest(what) {
  const at = status && status.seq ? "?at=" + status.seq : "";
  return api("./api/encounters/" + encodeURIComponent(encounter) + "/latest" + at).then((seen) => {
    if (!seen[what]) throw new Error(what === "undo" ? _("nothing to undo in the log this page shows") : _("nothing to redo in the log this page shows"));
    return seen[what];
  });
}

function correct(what) {
  seenLatest(what).then(
    (batch) => declare({ command: what, expect: batch.seq }, fill(what === "undo" ? _("✓ undone seq {seq}: {text}") : _("✓ redone seq {seq}: {text}"), batch)),
    (err) => say(err.message, "error"));
}

function undoLatest() {
  seenLatest("undo").then(
    (batch) => preview({ command: "undo", expect: batch.seq }, fill(_("Undo seq {seq}: {text}"), batch), _("✓ undone"), true),
    (err) => say(err.message, "error"));
}

function amend(line) {
  // the fields the core may change; an empty one is left as it was
  const box = $("confirm");
  const FIELDS = { die: _("die"), cost: _("cost"), label: _("label"), who: _("who"), value: _("track value") };
  const die = el("input", { class: "die", type: "number", min: "1", max: "10", "aria-label": FIELDS.die });
  const cost = el("select", { "aria-label": FIELDS.cost }, el("option", { value: "" }, _("cost: as it was")),
                  ...["minor", "major", "free", "1", "2", "3", "4"].map((v) => el("option", { value: v }, v)));
  const label = el("input", { class: "word", dir: "auto", "aria-label": FIELDS.label });
  const who = el("select", { "aria-label": FIELDS.who }, el("option", { value: "" }, _("who: as it was")),
                 ...status.combatants.map((c) => el("option", { value: c.id }, c.name)));
  const value = el("input", { class: "die", type: "number", "aria-label": FIELDS.value });
  const why = el("input", { class: "label", dir: "auto", "aria-label": _("why, for the record"), placeholder: _("why (for the record)") });
  const field = (text, input) => el("label", { class: "field" }, text + " ", input);
  const command = () => {
    const out = { command: "amend", seq: line.seq, reason: why.value };
    if (die.value) out.die = Number(die.value);
    if (cost.value) out.cost = isNaN(cost.value) ? cost.value : Number(cost.value);
    if (label.value) out.label = label.value;
    if (who.value) out.who = who.value;
    if (value.value) out.value = Number(value.value);
    return out;
  };
  const look = () => api(commandsPath(), { ...command(), dry_run: true }).then(
    (answer) => confirmFirst(fill(_("Amend seq {seq}"), line), answer.preview || [], command(), fill(_("✓ amended seq {seq}"), line), false,
                             el("p", { class: "said" }, summary(line))),
    (err) => say(err.message, "error"));
  box.replaceChildren(el("p", {}, fill(_("Amend seq {seq}: {text}"), line)),
    el("div", { class: "buttons fields" }, ...[["die", die], ["cost", cost], ["label", label], ["who", who], ["value", value]]
      .filter(([key]) => line.amendable.includes(key)).map(([key, input]) => field(FIELDS[key], input))), why,
    el("div", { class: "buttons" }, el("button", { type: "button", class: "big", on: { click: look } }, _("Preview amendment")),
       el("button", { type: "button", on: { click: closeConfirm } }, _("Cancel"))));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
  box.querySelector("input, select").focus();  // (the first field the core says it may correct)
}

function tryFrom(line) {
  // a what-if: a new encounter with this one's history up to this line (its
  // whole batch), opened here to play on; the table keeps what it shows
  const box = $("confirm");
  const id = el("input", { class: "word", dir: "auto", "aria-label": _("the fork's id"), value: encounter + "-what-if" });
  const title = el("input", { class: "label", dir: "auto", "aria-label": _("the fork's title"), placeholder: _("title (optional)") });
  const go = (ev) => {
    ev.preventDefault();
    const fork = id.value.trim();
    if (!fork) { say(fill(_("the fork needs an id, e.g. {example}"), { example: encounter + "-what-if" }), "error"); return; }
    const from = encounter;
    api(commandsPath(), { command: "fork", seq: line.seq, as: fork, title: title.value }).then(() => {
      closeConfirm();
      say(fill(_("✓ {fork} holds {from} up to seq {seq}: play it on here; {from} is as it was, and the table shows what it showed"),
               { fork, from, seq: line.seq }), "ok");
      goTo(fork);
    }, (err) => say(err.message, "error"));
  };
  box.replaceChildren(el("p", {}, fill(_("Try from here: a new encounter with the history of {encounter} up to seq {seq} ({text}), "
      + "to play on another way. {encounter} is not changed."), { encounter, seq: line.seq, text: line.text })),
    el("form", { on: { submit: go } },
      el("div", { class: "buttons fields" }, el("label", { class: "field" }, _("id") + " ", id), el("label", { class: "field" }, _("title") + " ", title)),
      el("div", { class: "buttons" }, el("button", { type: "submit", class: "big" }, _("Fork and open")),
         el("button", { type: "button", on: { click: closeConfirm } }, _("Cancel")))));
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
  id.focus();
  id.select();
}

// (what a line is comes as data: its words are the reader's language)
function logLine(line, latest) {
  const plain = !line.fate && line.batch === line.seq && !line.correction && !line.created;
  const tool = (text, what, fn) => el("button", { type: "button", class: "small", "aria-label": fill(what, line),
                                                  on: { click: () => fn(line) } }, text);
  return el("li", { class: line.fate ? "undone" : "", value: String(line.seq), data: { seq: String(line.seq) } },
    el("span", { class: "said" }, summary(line)), " ",
    el("span", { class: "tools" },
      latest ? tool(_("Undo…"), _("undo seq {seq}"), undoLatest) : null,
      plain ? tool(_("Retract…"), _("retract seq {seq}"), retract) : null,
      plain && line.amendable.length ? tool(_("Amend…"), _("amend seq {seq}"), amend) : null,
      tool(_("Try from here…"), _("try from here, seq {seq}"), tryFrom)));
}

let logTimer = null;
function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(() => {
    api("./api/encounters/" + encodeURIComponent(encounter) + "/lines?last=12").then((lines) => {
      lines.reverse();
      const latest = lines.find((l) => !l.fate && l.correction !== "undo" && l.correction !== "redo" && !l.created);
      $("log").replaceChildren(...lines.map((line) => logLine(line, latest && line.batch === latest.batch && line.seq === line.batch)));
    }, () => {});
  }, 50);
}

// -- the evening: encounters, a roster, the phones ------------------------------

function goTo(next) {
  encounter = next;
  listEncounters();
  listen();
}

function listEncounters() {
  api("./api/encounters?all=1").then((list) => {
    const picker = $("encounter");
    picker.replaceChildren(...list.map((e) => el("option", { value: e.id, data: { archived: e.archived ? "1" : "" } },
      e.archived ? fill(_("{encounter} (archived)"), { encounter: e.id + (e.title ? " · " + e.title : "") })
                 : e.id + (e.title ? " · " + e.title : ""))));
    picker.value = encounter;
    archiveWords();
  }, (err) => say(err.message, "error"));
}

function archiveWords() {
  const option = $("encounter").selectedOptions[0];
  $("archive").textContent = option && option.dataset.archived ? _("Unarchive") : _("Archive");
}

function startEncounter(ev) {
  ev.preventDefault();
  const id = $("new-id").value.trim(), file = $("new-roster").files[0];
  if (!id) { say(_("the new encounter needs an id, e.g. docks"), "error"); return; }
  const send = (roster) => api("./api/encounters/" + encodeURIComponent(id), { title: $("new-title").value, ...(roster ? { roster } : {}) })
    .then(() => {
      say(roster ? fill(_("✓ {id} started from {file}"), { id, file: roster.file }) : fill(_("✓ {id} started"), { id }), "ok");
      $("new-form").reset();
      goTo(id);
    }, (err) => say(err.message, "error"));
  if (!file) { send(null); return; }
  if (file.size > 60 * 1024) { say(fill(_("{file} is over 60 KiB: load it with `combat load` instead"), { file: file.name }), "error"); return; }
  file.text().then((text) => send({ file: file.name, text }), () => say(_("the file could not be read"), "error"));
}

function gmEvening() {
  const picker = $("encounter");
  listEncounters();
  picker.addEventListener("change", () => { encounter = picker.value; archiveWords(); listen(); });
  $("to-table").addEventListener("click", () => {
    api("./api/table", { encounter: picker.value }, "PUT").then(
      (t) => say(fill(_("✓ {encounter} is on the table: every page follows it"), t), "ok"),
      (err) => say(err.message, "error"));
  });
  $("archive").addEventListener("click", () => {
    const archived = !picker.selectedOptions[0].dataset.archived;
    if (archived) archivedHere.add(picker.value); else archivedHere.delete(picker.value);
    api("./api/encounters/" + encodeURIComponent(picker.value) + "/archive", { archived }).then(
      (a) => {
        say(fill(archived ? _("✓ {encounter} archived: out of the pickers, its log kept") : _("✓ {encounter} is back"), a), "ok");
        listEncounters();
      },
      (err) => say(err.message, "error"));
  });
  $("new-form").addEventListener("submit", startEncounter);
  joins();
  joined();
  setInterval(() => { joins(); joined(); }, 2000);
}

let joinedSeen = "";
function joined() {
  api("./api/joins?kind=joined").then((players) => {
    const key = JSON.stringify(players);
    if (key === joinedSeen) return;
    joinedSeen = key;
    $("joined").replaceChildren(...(players.length ? players.map((p) => el("li", { data: { player: p.name } },
      ...i18n.nodes(_("{name} plays {pcs} in {encounter}"), { name: p.name, pcs: p.owns.join(", "), encounter: p.encounter }), " ",
      el("button", { type: "button", on: { click: () => api("./api/players/" + encodeURIComponent(p.name) + "/revoke", {}).then(
        () => { say(fill(_("✓ {name}'s phone is shut out"), p), "ok"); joined(); }, (err) => say(err.message, "error")) } },
        ...i18n.nodes(_("Revoke {name}"), p)))) : [el("li", {}, _("no player tokens"))]));
  }, () => {});
}

let joinsSeen = "";
function joins() {
  api("./api/joins").then((waiting) => {
    const key = JSON.stringify(waiting);
    if (key === joinsSeen) return;
    joinsSeen = key;
    waitingNotice(waiting);
    const list = $("joins");
    if (!waiting.length) { list.replaceChildren(el("li", {}, _("nobody is waiting"))); return; }
    list.replaceChildren(...waiting.map((w) => {
      const pcs = { name: w.name, pcs: w.owns.join(", ") };
      const answer = (approve) => api("./api/joins/" + encodeURIComponent(w.name), { approve }).then(
        () => { say(fill(approve ? _("✓ {name} plays {pcs}") : _("✓ turned away: {name} for {pcs}"), pcs), "ok"); joins(); },
        (err) => say(err.message, "error"));
      return el("li", { data: { join: w.name } },
        ...i18n.nodes(_("{name} asks to play {pcs} in {encounter}"), { ...pcs, encounter: w.encounter }), " ",
        el("small", { data: { until: w.until } }, fill(_("(asked {asked}, expires {expires})"), { asked: clock(w.since), expires: clock(w.until) }) + " "),
        el("button", { type: "button", on: { click: () => answer(true) } }, ...i18n.nodes(_("Approve {name}"), w)),
        el("button", { type: "button", on: { click: () => answer(false) } }, _("Deny")));
    }));
  }, () => {});
}

function clock(iso) {
  // the GM reads the request's times in the room's own clock, to the minute
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function waitingNotice(waiting) {
  // the requests sit far down the page: its first screen says that phones
  // wait, and the link jumps to them
  const notice = $("waiting");
  notice.hidden = !waiting.length;
  if (!waiting.length) { notice.replaceChildren(); return; }
  const n = waiting.length;
  notice.replaceChildren(...i18n.nodes(n_("{n} phone is waiting to join: {names}", "{n} phones are waiting to join: {names}", n),
    { n, names: waiting.map((w) => w.name).join(", ") }), " ", el("a", { href: "#joins-head" }, _("Answer ↓")));
}

// The language switched: the evening's lists are drawn again in it.
function eveningAgain() {
  joinsSeen = "";
  joinedSeen = "";
  joins();
  joined();
  listEncounters();
}
