// The join page: a phone with no token picks an unclaimed PC of the
// encounter on the table and asks; it keeps the secret the server gave it,
// which opens nothing until the GM approves (then it is the phone's player
// token, and the phone opens its page without anyone typing it).
"use strict";

const $ = (id) => document.getElementById(id);
const KEY = "combat-join";

function say(text) { $("message").textContent = text; }

function call(path, init) {
  return fetch(path, init).then(async (r) => {
    const data = await r.json().catch(() => ({ error: "the server answered " + r.status }));
    if (!r.ok) { const e = new Error(data.error || r.status); e.status = r.status; throw e; }
    return data;
  }, () => { const e = new Error("offline: the server cannot be reached"); e.status = 0; throw e; });
}

function seats(told) {
  call("./api/join").then((table) => {
    $("title").textContent = "Join " + (table.title || table.encounter);
    const free = table.seats.filter((s) => !s.claimed);
    $("seats").replaceChildren(...table.seats.map((s) => {
      const id = "pc-" + s.id;
      const box = document.createElement("p");
      const input = Object.assign(document.createElement("input"), { type: "radio", name: "pc", value: s.id, id, disabled: s.claimed, required: true });
      const label = Object.assign(document.createElement("label"), { htmlFor: id, textContent: s.name + (s.claimed ? " (taken)" : "") });
      box.append(input, " ", label);
      return box;
    }));
    $("ask").hidden = false;
    say(told || (free.length ? "" : "every PC is taken: ask the GM"));
  }, (err) => say(err.message));
}

function wait(secret, name) {
  $("ask").hidden = true;
  $("waiting").hidden = false;
  $("waiting").textContent = "Waiting for the GM to let " + name + " in…";
  const look = () => call("./api/me", { headers: { Authorization: "Bearer " + secret } }).then(() => {
    localStorage.removeItem(KEY);
    localStorage.setItem("combat-token", secret);
    location.replace("/?token=" + encodeURIComponent(secret));
  }, (err) => {
    if (err.status === 401 && !/^waiting for the GM/.test(err.message)) {
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
  if (!pc || !name) { say("pick a PC and give your name"); return; }
  call("./api/join", { method: "POST", headers: { "Content-Type": "application/json" },
                      body: JSON.stringify({ name, pc }) }).then((got) => {
    localStorage.setItem(KEY, JSON.stringify(got));
    wait(got.token, got.name);
  }, (err) => say(err.message));
});

const kept = JSON.parse(localStorage.getItem(KEY) || "null");
if (kept) wait(kept.token, kept.name); else seats();
