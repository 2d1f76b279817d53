// The GM's console, on top of app.js: the command box, the table's buttons,
// the encounter picker and the table's choice, the players asking to join
// (approve / deny), hide and reveal, and the last declarations.
"use strict";

// Next round and End encounter say what they will do before they are declared
// (the core's dry run: the AP that would be lost); End turn is play mode's
// careful one, which never ends a turn nothing was declared in (R21).
function confirmFirst(text, lines, command, done, asksWhy) {
  const box = $("confirm");
  const why = asksWhy ? el("input", { class: "label", "aria-label": "why, for the record", placeholder: "why (for the record)" }) : null;
  const go = () => { box.hidden = true; declare(why ? { ...command, reason: why.value } : command, done); };
  const yes = el("button", { type: "button", class: "big", on: { click: go } }, text);
  box.replaceChildren(el("p", {}, text + "?"), el("ul", {}, ...lines.map((l) => el("li", {}, l))), why,
    el("div", { class: "buttons" }, yes,
       el("button", { type: "button", on: { click: () => { box.hidden = true; } } }, "Cancel")));
  box.hidden = false;
  yes.focus();
}

function preview(command, text, done, asksWhy) {
  api("./api/encounters/" + encodeURIComponent(encounter) + "/commands", { ...command, dry_run: true }).then(
    (answer) => confirmFirst(text, answer.preview || [], command, done, asksWhy), (err) => say(err.message, "error"));
}

function retract(line) {
  // a mistake noticed later: what the retraction would change first (retract --dry-run)
  const command = { command: "retract", seq: line.seq };
  const path = "./api/encounters/" + encodeURIComponent(encounter) + "/commands";
  api(path, { ...command, dry_run: true }).then(
    (answer) => confirmFirst("Retract seq " + line.seq, answer.preview || [], command, "✓ retracted seq " + line.seq, true),
    (err) => {
      say(err.message, "error");
      preview({ ...command, cascade: true }, "Retract seq " + line.seq + " and what falls with it",
              "✓ retracted seq " + line.seq + " with its cascade", true);
    });
}

function gmButtons() {
  const simple = [["Roll all", () => declare({ command: "roll" }, "✓ rolled")],
                  ["Next round", () => preview({ command: "round" }, "Start the next round", "✓ a new round")],
                  ["End turn", () => declare({ command: "end-turn", careful: true }, "✓ turn ended")],
                  ["Undo", () => declare({ command: "undo" }, "✓ undone")],
                  ["Redo", () => declare({ command: "redo" }, "✓ redone")],
                  ["End encounter", () => confirmFirst("End the encounter",
                    ["afterwards only notes, undo, redo, retraction and amendment (R25)"], { command: "end" }, "✓ the encounter has ended")]];
  $("gm-buttons").replaceChildren(...simple.map(([text, fn]) =>
    el("button", { type: "button", on: { click: fn } }, text)));
  $("line-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const line = $("line").value.trim();
    if (!line) return;
    const path = "./api/encounters/" + encodeURIComponent(encounter) + "/line";
    api(path, { line }).then((answer) => {
      say("✓ " + line, "ok");
      $("line").value = "";
      if (answer.status.encounter !== encounter) { // (`new ID`: the GM goes there)
        encounter = answer.status.encounter;
        const pick = $("encounter");
        pick.append(el("option", { value: encounter }, encounter));
        pick.value = encounter;
        listen();
      }
      render(answer.status);
    }, (err) => say(err.message, "error"));
  });
}

window.gmStart = function (list) {
  $("gm").hidden = false;
  gmButtons();
  const pick = $("encounter");
  pick.replaceChildren(...list.map((e) => el("option", { value: e.id }, e.id + (e.title ? " · " + e.title : ""))));
  pick.value = encounter;
  pick.addEventListener("change", () => { encounter = pick.value; listen(); });
  $("to-table").addEventListener("click", () => {
    api("./api/table", { encounter: pick.value }, "PUT").then(
      (t) => say("✓ " + t.encounter + " is on the table: every page follows it", "ok"),
      (err) => say(err.message, "error"));
  });
  joins();
  joined();
  setInterval(() => { joins(); joined(); }, 2000);
};

window.gmPicked = function (next) { $("encounter").value = next; };

window.gmRendered = function () { refreshLog(); };

window.gmCard = function (c, label) {
  const id = c.id;
  const button = (text, command, done) => el("button", { type: "button", on: { click: () => declare(command, done) } }, text);
  return el("div", { class: "buttons" },
    button("Grit +1", { command: "grit", id, delta: 1 }, "✓ " + c.name + " gains 1 Grit"),
    button("Grit −1", { command: "grit", id, delta: -1 }, "✓ " + c.name + " loses 1 Grit"),
    c.active ? el("button", { type: "button", on: { click: () => declare({ command: "leave", id, reason: label.value }, "✓ " + c.name + " leaves") } }, "Leaves")
             : button("Rejoins", { command: "rejoin", id }, "✓ " + c.name + " rejoins"),
    c.hidden ? button("Reveal", { command: "reveal", id }, "✓ the players see " + c.name)
             : button("Hide", { command: "hide", id }, "✓ " + c.name + " is hidden from the players"));
};

// -- players asking to join -------------------------------------------------

let joinedSeen = "";
function joined() {
  api("./api/joins?kind=joined").then((players) => {
    const key = JSON.stringify(players);
    if (key === joinedSeen) return;
    joinedSeen = key;
    $("joined").replaceChildren(...(players.length ? players.map((p) => el("li", { data: { player: p.name } },
      p.name + " plays " + p.owns.join(", ") + " in " + p.encounter + " ",
      el("button", { type: "button", on: { click: () => api("./api/players/" + encodeURIComponent(p.name) + "/revoke", {}).then(
        () => { say("✓ " + p.name + "'s phone is shut out", "ok"); joined(); }, (err) => say(err.message, "error")) } },
        "Revoke " + p.name))) : [el("li", {}, "no player tokens")]));
  }, () => {});
}

let joinsSeen = "";
function joins() {
  api("./api/joins").then((waiting) => {
    const key = JSON.stringify(waiting);
    if (key === joinsSeen) return;
    joinsSeen = key;
    const list = $("joins");
    if (!waiting.length) { list.replaceChildren(el("li", {}, "nobody is waiting")); return; }
    list.replaceChildren(...waiting.map((w) => {
      const answer = (approve) => api("./api/joins/" + encodeURIComponent(w.name), { approve }).then(
        () => { say((approve ? "✓ " + w.name + " plays " : "✓ turned away: " + w.name + " for ") + w.owns.join(", "), "ok"); joins(); },
        (err) => say(err.message, "error"));
      return el("li", { data: { join: w.name } }, w.name + " asks to play " + w.owns.join(", ") + " in " + w.encounter + " ",
        el("button", { type: "button", on: { click: () => answer(true) } }, "Approve " + w.name),
        el("button", { type: "button", on: { click: () => answer(false) } }, "Deny"));
    }));
  }, () => {});
}

// -- the last declarations --------------------------------------------------

function summary(line) {
  // As `combat log` words it: who (an imported entry's actor is the file's
  // claim), where in the round, what; and what undid it.
  return line.actor + (line.imported ? " (imported)" : "") + " · " + line.context + " · " + (line.batch !== line.seq ? "+ " : "") +
    line.text + (line.fate ? " (" + line.fate + ")" : "");
}

let logTimer = null;
function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(() => {
    api("./api/encounters/" + encodeURIComponent(encounter) + "/lines?last=12").then((lines) => {
      $("log").replaceChildren(...lines.reverse().map((line) =>
        el("li", { class: line.fate ? "undone" : "", value: String(line.seq) }, summary(line), " ",
           line.fate || line.batch !== line.seq || /^(Undo|Redo|Retraction|Amendment|Encounter .* created)/.test(line.text) ? null
             : el("button", { type: "button", class: "small", "aria-label": "retract seq " + line.seq,
                              on: { click: () => retract(line) } }, "Retract…"))));
    }, () => {});
  }, 50);
}
