// The table server's pages: one script for the player's page, the view (a TV)
// and the GM's console, chosen by the token's role (/api/me). The order comes
// live from the stream (EventSource); declarations go to the API as command
// JSON, and a refusal shows the CLI's own line. Text from the store is only
// ever set as textContent, never parsed as HTML.
"use strict";

const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
const $ = (id) => document.getElementById(id);
let me = null, encounter = null, status = null, source = null, logAfter = 0;

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (key === "class") node.className = value;
    else if (key === "data") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function api(path, body) {
  const init = { headers: { Authorization: "Bearer " + token } };
  if (body !== undefined) {
    init.method = "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  // (relative to the page: served under a proxy's --root-path too)
  return fetch("." + path, init).then(async (r) => {
    const data = await r.json().catch(() => ({ error: "the server answered " + r.status }));
    if (!r.ok) throw new Error(data.error || ("the server answered " + r.status));
    return data;
  });
}

// A refusal's rule ids, such as (R17, R19), link to the rule's text on this server.
const RULE_ID = /\bR(?:[1-9]|[12][0-9]|3[01])[a-z]?\b/g;

function say(text) {
  const box = $("message");
  box.replaceChildren();
  box.hidden = !text;
  if (!text) return;
  const line = "error: " + text;
  let at = 0;
  for (const m of line.matchAll(RULE_ID)) {
    box.append(line.slice(at, m.index),
               el("a", { href: "/rules/" + m[0], target: "_blank", rel: "noopener noreferrer" }, m[0]));
    at = m.index + m[0].length;
  }
  box.append(line.slice(at));
}

function declare(command) {
  const path = "/api/encounters/" + encodeURIComponent(encounter) + "/commands";
  return api(path, command).then((answer) => { say(""); render(answer.status); return answer; },
                                  (err) => { say(err.message); });
}

// -- the board ------------------------------------------------------------

function pips(c) {
  const max = Math.max(c.max_ap, c.ap);
  return el("span", { class: "pips", title: c.ap + " of " + c.max_ap + " AP" },
            "●".repeat(c.ap), el("span", { class: "spent" }, "○".repeat(max - c.ap)));
}

function combatantLine(c, cls) {
  const tags = [];
  if (status.acting === c.id) tags.push("acting");
  else if (status.up.includes(c.id)) tags.push("up");
  if (c.seized) tags.push("seized");
  if (!c.active) tags.push("left");
  for (const e of c.effects || []) tags.push(e.name);  // conditions and effects
  return el("div", { class: cls + (status.up.includes(c.id) ? " up" : ""), data: { id: c.id } },
            el("span", { class: "who" }, c.name, ...tags.map((t) => el("span", { class: "tag" }, t))),
            el("span", { class: "ap" }, pips(c), " ", el("span", { class: "init" }, "grit " + c.grit),
               " ", el("span", { class: "init tracks" }, trackText(c))));
}

// A combatant's tracks as the status gives them to this token (hp 7/10 · stun 2).
function trackText(c) {
  return Object.entries(c.tracks || {})
    .map(([name, t]) => name + " " + t.value + (t.max === null ? "" : "/" + t.max)).join(" · ");
}

function render(next) {
  if (!next || (status && next.encounter === status.encounter && next.seq < status.seq)) return;
  status = next;
  const byId = Object.fromEntries(status.combatants.map((c) => [c.id, c]));
  const groups = Object.fromEntries(status.groups.map((g) => [g.id, g]));
  $("title").textContent = status.title || status.encounter;
  $("where").textContent = status.encounter + " · seq " + status.seq;
  const phase = status.phase === "setup" ? "setting up"
    : status.phase === "ended" ? "the encounter has ended"
    : "round " + status.round + " · pass " + status.pass
      + (status.round_complete ? " · round complete" : "");
  $("state").textContent = phase + (status.up.length ? " · up: " + status.up.join(", ") : "");
  $("window").hidden = !status.seize_window;
  const ties = $("ties");
  ties.replaceChildren(...status.ties.map((tie) => el("p", {}, "tie: " + tie.join(", ") + " ",
    me.role === "view" ? null : tie.map((slot) => el("button", {
      on: { click: () => declare({ command: "order", slots: [slot, ...tie.filter((x) => x !== slot)] }) },
      data: { order: slot } }, slot + " first")))));
  const order = $("order");
  order.replaceChildren(...status.order.map((slot) => {
    const group = groups[slot], lone = byId[slot];
    const side = lone ? lone.side : (group && group.members.length ? byId[group.members[0]].side : "npc");
    const init = (lone ? lone.initiative : group && group.initiative);
    const up = status.up.includes(slot) || (group && group.members.some((m) => status.up.includes(m)));
    const item = el("li", { class: side + (up ? " up" : ""), data: { slot } });
    if (lone) {
      item.append(el("div", { class: "slot-head" + (up ? " up" : "") },
        el("span", { class: "init" }, init === null ? "–" : String(init)), combatantLine(lone, "member")));
    } else {
      item.append(el("div", { class: "slot-head" }, el("span", { class: "init" }, String(init)),
                     el("span", { class: "who" }, slot + " (group)")));
      for (const m of group.members) if (byId[m] && byId[m].active && !status.order.includes(m))
        item.append(combatantLine(byId[m], "member"));
    }
    return item;
  }));
  renderMine(byId);
  if (me.role === "gm") refreshLog();
}

// -- a player's own combatants (the GM gets a card for each) ----------------

function card(c) {
  const id = c.id;
  const label = el("input", { class: "label", placeholder: "what it does (optional)", "aria-label": "label" });
  const act = (cost) => declare({ command: "act", id, cost, label: label.value }).then(() => { label.value = ""; });
  const cost = el("select", { "aria-label": "interrupt cost" },
                  el("option", { value: "minor" }, "minor (1)"), el("option", { value: "major" }, "major (2)"),
                  el("option", { value: "3" }, "3 AP"), el("option", { value: "4" }, "4 AP"));
  const body = [el("h2", {}, c.name, " ", pips(c))];
  if (c.initiative === null && !c.group) {
    const die = el("input", { class: "die", type: "number", min: "1", max: "10", placeholder: "d10",
                              "aria-label": "die" });
    body.push(el("div", { class: "buttons" }, die,
      el("button", { on: { click: () => declare({ command: "roll", slots: [id], die: Number(die.value) }) } }, "Enter roll"),
      el("button", { on: { click: () => declare({ command: "roll", slots: [id] }) } }, "Roll for me")));
  }
  body.push(el("div", { class: "buttons" },
    el("button", { class: "big", on: { click: () => act("minor") } }, "Minor · 1 AP"),
    el("button", { class: "big", on: { click: () => act("major") } }, "Major · 2 AP"),
    el("button", { class: "big", on: { click: () => act("free") } }, "Free"),
    el("button", { class: "big", on: { click: () => declare({ command: "end-turn", id }) } }, "End turn")),
    el("div", { class: "buttons" },
      el("button", { class: "big", on: { click: () => declare({ command: "seize", id }) } }, "Seize · 1 Grit"),
      el("button", { class: "big", on: { click: () => declare({ command: "interrupt", id, cost: isNaN(cost.value) ? cost.value : Number(cost.value), label: label.value }) } }, "Interrupt"),
      cost),
    el("div", { class: "buttons" }, label));
  if (me.role === "gm") body.push(el("div", { class: "buttons" },
    el("button", { on: { click: () => declare({ command: "grit", id, delta: 1 }) } }, "Grit +1"),
    el("button", { on: { click: () => declare({ command: "grit", id, delta: -1 }) } }, "Grit −1"),
    ...Object.keys(c.tracks || {}).slice(0, 3).flatMap((name) => [
      el("button", { on: { click: () => declare({ command: "track", id, name, delta: -1 }) } }, name + " −1"),
      el("button", { on: { click: () => declare({ command: "track", id, name, delta: 1 }) } }, name + " +1")]),
    c.active ? el("button", { on: { click: () => declare({ command: "leave", id, reason: label.value }) } }, "Leaves")
             : el("button", { on: { click: () => declare({ command: "rejoin", id }) } }, "Rejoins")));
  return el("article", { class: "card" + (status.up.includes(id) ? " up" : ""), data: { card: id } }, ...body);
}

function renderMine(byId) {
  const mine = $("mine");
  const ids = me.role === "gm" ? status.combatants.map((c) => c.id) : me.role === "player" ? me.owns : [];
  const open = document.activeElement && mine.contains(document.activeElement) ? document.activeElement : null;
  if (open && open.tagName === "INPUT" && open.value) return; // (keep what is being typed)
  mine.replaceChildren(...ids.filter((id) => byId[id]).map((id) => card(byId[id])));
  mine.hidden = ids.length === 0;
}

// -- the GM's console --------------------------------------------------------

function gmButtons() {
  const simple = [["Roll all", { command: "roll" }], ["Next round", { command: "round" }],
                  ["End turn", { command: "end-turn" }], ["Undo", { command: "undo" }],
                  ["Redo", { command: "redo" }], ["End encounter", { command: "end" }]];
  $("gm-buttons").replaceChildren(...simple.map(([text, command]) =>
    el("button", { on: { click: () => declare(command) } }, text)));
  $("line-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const line = $("line").value.trim();
    if (!line) return;
    const path = "/api/encounters/" + encodeURIComponent(encounter) + "/line";
    api(path, { line }).then((answer) => {
      say("");
      $("line").value = "";
      if (answer.status.encounter !== encounter) { // (`new ID`: the GM goes there)
        encounter = answer.status.encounter;
        const pick = $("encounter");
        pick.append(el("option", { value: encounter }, encounter));
        pick.value = encounter;
        listen();
      }
      render(answer.status);
    }, (err) => say(err.message));
  });
}

function summary(line) {
  // As `combat log` words it: who, where in the round, what; and what undid it.
  return line.actor + " · " + line.context + " · " + (line.batch !== line.seq ? "+ " : "") +
    line.text + (line.fate ? " (" + line.fate + ")" : "");
}

let logTimer = null;
function refreshLog() {
  clearTimeout(logTimer);
  logTimer = setTimeout(() => {
    api("/api/encounters/" + encodeURIComponent(encounter) + "/lines?last=12").then((lines) => {
      $("log").replaceChildren(...lines.reverse().map((line) =>
        el("li", { class: line.fate ? "undone" : "", value: String(line.seq) }, summary(line))));
    }, () => {});
  }, 50);
}

// -- start -------------------------------------------------------------------

function listen() {
  if (source) source.close();
  status = null;
  const url = "./api/encounters/" + encodeURIComponent(encounter) + "/stream?token=" + encodeURIComponent(token);
  source = new EventSource(url);
  source.addEventListener("status", (ev) => { render(JSON.parse(ev.data)); $("live").textContent = "live"; $("live").className = "live on"; });
  source.addEventListener("refused", (ev) => { say(JSON.parse(ev.data).error); source.close(); $("live").textContent = "stopped"; $("live").className = "live"; });
  source.onerror = () => {
    $("live").textContent = "reconnecting…"; $("live").className = "live";
    // (a refused reconnection, e.g. the next server behind the proxy busy: the
    // browser gives up on its own, so the page opens a new stream itself)
    if (source.readyState === EventSource.CLOSED) setTimeout(listen, 1000 + Math.random() * 2000);
  };
}

function start() {
  if (!token) { say("no token: open the link `combat token add` printed"); return; }
  api("/api/me").then((who) => {
    me = who;
    document.body.classList.add(me.role);
    document.title = "combat-ledger · " + me.name;
    return api("/api/encounters");
  }).then((list) => {
    if (!list.length) { say("no encounter yet: the GM starts one with `combat new ID`"); return; }
    const wanted = params.get("encounter");
    const live = list.filter((e) => e.phase !== "ended");
    encounter = (list.find((e) => e.id === wanted) || live[live.length - 1] || list[list.length - 1]).id;
    if (me.role === "gm") {
      $("gm").hidden = false;
      gmButtons();
      const pick = $("encounter");
      pick.replaceChildren(...list.map((e) => el("option", { value: e.id }, e.id + (e.title ? " · " + e.title : ""))));
      pick.value = encounter;
      pick.addEventListener("change", () => { encounter = pick.value; listen(); });
    }
    listen();
  }).catch((err) => say(err.message));
}

start();
