// The join page: a phone with no token picks an unclaimed PC of the
// encounter on the table and asks; it keeps the secret the server gave it,
// which opens nothing until the GM approves (then it is the phone's player
// token, and the phone opens its page without anyone typing it).
"use strict";

const $ = (id) => document.getElementById(id);
const KEY = "combat-join";

function say(text) { $("message").textContent = text; }

function call(path, init) {
  const ask = { ...(init || {}), headers: { ...((init || {}).headers || {}), ...i18n.headers() } };
  return fetch(path, ask).then(async (r) => {
    const data = await r.json().catch(() => ({ error: fill(_("the server answered {status}"), { status: r.status }) }));
    if (!r.ok) { const e = new Error(data.error || r.status); e.status = r.status; e.waiting = data.waiting; throw e; }
    return data;
  }, () => { const e = new Error(_("offline: the server cannot be reached")); e.status = 0; throw e; });
}

let table = null, waitingFor = null;  // (drawn again when the language is switched)

function words() {
  document.title = fill(_("Join the table · {app}"), { app: "combat-ledger" });
  return [["#which", null, _("Who do you play?")], ['label[for="name"]', null, _("Your name")],
          ["#ask-gm", null, _("Ask the GM")],
          ["#title", null, table ? fill(_("Join {table}"), { table: table.title || table.encounter }) : _("Join the table")]];
}

function seats(told) {
  call("./api/join").then((got) => {
    table = got;
    i18n.words(words);
    const free = table.seats.filter((s) => !s.claimed);
    $("seats").replaceChildren(...table.seats.map((s) => {
      const id = "pc-" + s.id;
      const box = document.createElement("p");
      const input = Object.assign(document.createElement("input"), { type: "radio", name: "pc", value: s.id, id, disabled: s.claimed, required: true });
      const label = Object.assign(document.createElement("label"), { htmlFor: id });
      label.append(...i18n.nodes(s.claimed ? _("{name} (taken)") : "{name}", { name: s.name }));
      box.append(input, " ", label);
      return box;
    }));
    $("ask").hidden = false;
    say(told || (free.length ? "" : _("every PC is taken: ask the GM")));
  }, (err) => say(err.message));
}

function wait(secret, name) {
  $("ask").hidden = true;
  $("waiting").hidden = false;
  waitingFor = name;
  $("waiting").replaceChildren(...i18n.nodes(_("Waiting for the GM to let {name} in…"), { name }));
  const look = () => call("./api/me", { headers: { Authorization: "Bearer " + secret } }).then(() => {
    localStorage.removeItem(KEY);
    localStorage.setItem("combat-token", secret);
    location.replace("/?token=" + encodeURIComponent(secret));
  }, (err) => {
    if (err.status === 401 && !err.waiting) {
      // turned away, the PC given to another phone, or expired: the server says which
      localStorage.removeItem(KEY);
      $("waiting").hidden = true;
      seats(err.message.charAt(0).toUpperCase() + err.message.slice(1) + ".");
      return;
    }
    setTimeout(look, 1500);
  });
  look();
}

$("ask").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const pc = (document.querySelector('input[name="pc"]:checked') || {}).value;
  const name = $("name").value.trim();
  if (!pc || !name) { say(_("pick a PC and give your name")); return; }
  call("./api/join", { method: "POST", headers: { "Content-Type": "application/json" },
                      body: JSON.stringify({ name, pc }) }).then((got) => {
    localStorage.setItem(KEY, JSON.stringify(got));
    wait(got.token, got.name);
  }, (err) => say(err.message));
});

i18n.load(null).then(() => {
  i18n.words(words);
  i18n.switcher($("speaks"), null, () => {
    if (waitingFor !== null) $("waiting").replaceChildren(...i18n.nodes(_("Waiting for the GM to let {name} in…"), { name: waitingFor }));
    else seats();
  });
  const kept = JSON.parse(localStorage.getItem(KEY) || "null");
  if (kept) wait(kept.token, kept.name); else seats();
});
