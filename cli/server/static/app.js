// The table server's pages: one script for the player's page, the view (a TV)
// and the GM's console (gm.js adds its tools), chosen by the token's role
// (/api/me). The order comes live from the stream (EventSource, which resumes
// by Last-Event-ID); declarations go to the API as command JSON. What a
// player may do now is the core's answer (status.mine[id].may): the page
// only enables those buttons. Text from the store is only ever set as
// textContent, never parsed as HTML.
"use strict";

const params = new URLSearchParams(location.search);
const overlay = params.get("overlay") === "1";
let token = params.get("token") || "";
try {  // the phone keeps its token (a join approved, or a link once opened)
  if (token) localStorage.setItem("combat-token", token);
  else token = localStorage.getItem("combat-token") || "";
} catch (e) { /* (storage off: the link's token only) */ }
const $ = (id) => document.getElementById(id);
let me = null, encounter = null, status = null, source = null;
const archivedHere = new Set();  // encounters this page archived (gmlog.js)
let turnKey = "", turnStart = Date.now(), sayTimer = null, heard = false;

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "on") for (const [ev, fn] of Object.entries(value)) node.addEventListener(ev, fn);
    else if (key === "class") node.className = value;
    else if (key === "data") Object.assign(node.dataset, value);
    else if (key === "disabled") node.disabled = !!value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function api(path, body, method) {
  const init = { headers: { Authorization: "Bearer " + token, ...i18n.headers() } };
  if (body !== undefined) {
    init.method = method || "POST";
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  // (relative to the page: served under a proxy's --root-path too)
  return fetch("." + path, init).then(async (r) => {
    const answered = fill(_("the server answered {status}"), { status: r.status });
    const data = await r.json().catch(() => ({ error: answered }));
    if (!r.ok) {
      const refused = new Error(data.error || answered);
      refused.status = r.status;
      refused.confirm = data.confirm;  // the core asks first: this command, named, does it
      refused.why = data.why;
      throw refused;
    }
    return data;
  }, () => { throw new Error(_("offline: the server cannot be reached, nothing was sent")); });
}

// -- words for people: names, not ids; rule ids linked to their text --------

function nameOf(id) {
  const c = status && status.combatants.find((x) => x.id === id);
  return c ? c.name : id;
}

function named(text) {
  // ids become names, except inside `a command to type`
  if (!status) return text;
  const ids = status.combatants.map((c) => c.id).sort((a, b) => b.length - a.length);
  return text.replace(/^error: /, "").split("`").map((part, i) => {
    if (i % 2) return part;
    for (const id of ids) {
      const c = status.combatants.find((x) => x.id === id);
      part = part.replace(new RegExp("(^|[^a-z0-9-])" + id.replace(/[-]/g, "\\-") + "(?![a-z0-9-])", "g"),
                          (m, before) => before + c.name);
    }
    return part;
  }).join("`");
}

// A refusal's rule ids, such as (R17, R19), link to the rule's text on this server.
const RULE_ID = /\b(R(?:[1-9]|[12][0-9]|3[01])[a-z]?)\b/;

function withRules(text) {
  const parts = text.split(RULE_ID);
  return parts.map((part, i) => i % 2 ? el("a", { href: "./rules/" + part + i18n.query("?"), target: "_blank", rel: "noopener noreferrer" }, part) : part);
}

function say(text, kind) {
  // The fixed-height status area: a message never moves the buttons.
  const box = $("message");
  clearTimeout(sayTimer);
  box.className = "message" + (kind ? " " + kind : "");
  box.replaceChildren(...(text ? withRules(kind === "error" ? named(text) : text) : []));
  if (text && kind === "ok") sayTimer = setTimeout(() => say(""), 4000);
}

function declare(command, done, asked) {
  // `asked(err)`: what a page does when the core asks before declaring
  const path = "./api/encounters/" + encodeURIComponent(encounter) + "/commands";
  return api(path, command).then((answer) => {
    render(answer.status);
    if (me.role === "gm" && window.gmDeclared) window.gmDeclared();
    say(party.told(done || _("✓ declared"), answer.carried), "ok");  // (the end of a fight from the party)
    if (answer.carried) party.refresh();
    return answer;
  }, (err) => { if (err.confirm && asked) asked(err); else say(err.message, "error"); });
}

// -- the board ------------------------------------------------------------

function pips(c) {
  const max = Math.max(c.max_ap, c.ap);
  const said = fill(_("{ap} of {max} AP"), { ap: c.ap, max: c.max_ap });
  return el("span", { class: "pips", title: said, "aria-label": said },
            "●".repeat(c.ap), el("span", { class: "spent", "aria-hidden": "true" }, "○".repeat(max - c.ap)));
}

function owned(id) { return me.role === "player" && me.owns.includes(id); }

// A combatant's state words (their class is the key, their text the reader's).
const TAGS = { acting: N_("acting"), up: N_("up"), seized: N_("seized"), left: N_("left"),
               hidden: N_("hidden"), you: N_("you") };

function tag(key) { return el("span", { class: "tag " + key }, _(TAGS[key])); }

function combatantLine(c, cls) {
  const tags = [];
  if (status.acting === c.id) tags.push(tag("acting"));
  else if (status.up.includes(c.id)) tags.push(tag("up"));
  if (c.seized) tags.push(tag("seized"));
  if (!c.active) tags.push(tag("left"));
  if (c.hidden) tags.push(tag("hidden"));
  if (owned(c.id)) tags.push(tag("you"));
  for (const e of c.effects || []) tags.push(el("span", { class: "tag " + e.name, dir: "auto" }, e.name));  // conditions and effects
  return el("div", { class: cls + (status.up.includes(c.id) ? " up" : "") + (owned(c.id) ? " own" : ""), data: { id: c.id } },
            el("span", { class: "who" }, portraits.face(c), el("bdi", {}, c.name), ...tags),
            el("span", { class: "ap" }, pips(c), " ", el("span", { class: "init" }, fill(_("grit {n}"), { n: c.grit })),
               " ", el("span", { class: "init tracks", dir: "auto" }, trackText(c))));
}

// A combatant's tracks as the status gives them to this token (hp 7/10 · stun 2).
function trackText(c) {
  return Object.entries(c.tracks || {})
    .map(([name, t]) => name + " " + t.value + (t.max === null ? "" : "/" + t.max)).join(" · ");
}

function sideBadge(side) {
  return el("span", { class: "side " + side, title: side === "pc" ? _("player character") : _("NPC") },
            side === "pc" ? _("PC") : _("NPC"));
}

function slotItem(slot, byId, groups) {
  const group = groups[slot], lone = byId[slot];
  const side = lone ? lone.side : (group && group.members.length ? byId[group.members[0]].side : "npc");
  const init = lone ? lone.initiative : group ? group.initiative : null;
  const members = group ? group.members.filter((m) => byId[m] && byId[m].active && !status.order.includes(m)) : [];
  const up = status.up.includes(slot) || members.some((m) => status.up.includes(m));
  const mine = owned(slot) || members.some(owned);
  const item = el("li", { class: side + (up ? " up" : "") + (mine ? " own" : ""), data: { slot } });
  if (lone) {
    item.append(el("div", { class: "slot-head" + (up ? " up" : "") }, sideBadge(side),
      el("span", { class: "init" }, init === null ? "–" : String(init)), combatantLine(lone, "member")));
  } else {
    item.append(el("div", { class: "slot-head" }, sideBadge(side), el("span", { class: "init" }, init === null ? "–" : String(init)),
                   el("span", { class: "who" }, ...i18n.nodes(_("{group} (group)"), { group: slot }))));
    for (const m of members) item.append(combatantLine(byId[m], "member"));
  }
  return item;
}

function phaseText() {
  if (status.phase === "setup") return _("setting up");
  if (status.phase === "ended") return _("the encounter has ended");
  return fill(status.round_complete ? _("round {round} · pass {pass} · round complete") : _("round {round} · pass {pass}"),
              { round: status.round, pass: status.pass });
}

function render(next, streamed) {
  // The stream sends every batch in order: each of its messages is drawn. An
  // answer to a request may be older than what the stream already drew, and
  // is then left out. (A player's seq may go down: an undone reveal hides
  // a combatant's past again.)
  if (!next || (!streamed && status && next.encounter === status.encounter && next.seq < status.seq)) return;
  if (me.role === "player" && !next.mine && status && status.mine) next.mine = status.mine;
  if (me.role === "player" && !next.on_deck && status && status.on_deck) next.on_deck = status.on_deck;
  status = next;
  const byId = Object.fromEntries(status.combatants.map((c) => [c.id, c]));
  const groups = Object.fromEntries(status.groups.map((g) => [g.id, g]));
  document.body.dataset.seq = String(status.seq);
  $("title").textContent = status.title || status.encounter;
  $("where").textContent = me.role === "gm" ? fill(_("{encounter} · seq {seq}"), status) : "";
  const up = status.up.map(nameOf).join(", ");
  $("state").replaceChildren(...(up ? i18n.nodes(_("{phase} · up: {names}"), { phase: phaseText(), names: up }) : [phaseText()]));
  $("window").hidden = !status.seize_window;
  $("ties").replaceChildren(...status.ties.map((tie) => el("p", {}, ...i18n.nodes(_("tie: {names}"), { names: tie.map(nameOf).join(", ") }), " ",
    me.role === "view" ? null : tie.map((slot) => el("button", {
      on: { click: () => declare({ command: "order", slots: [slot, ...tie.filter((x) => x !== slot)] }, fill(_("✓ {name} goes first"), { name: nameOf(slot) })) },
      disabled: me.role === "player" && !mayOrder(tie),
      data: { order: slot } }, ...i18n.nodes(_("{name} first"), { name: nameOf(slot) }))))));
  const slots = me.role === "gm" && window.gmSlots ? window.gmSlots(status) : status.order;
  $("order").replaceChildren(...slots.map((slot) => slotItem(slot, byId, groups)));
  followTurn();
  const quiet = !heard;  // (the page's first status: its person is looking at it)
  heard = true;
  const moment = status.round + "." + status.pass;  // (a turn again in the next pass is news)
  if (me.role === "player") cue(quiet, moment);
  if (me.role === "view") alerts.announce(status.phase === "combat" ? status.up.map(nameOf) : [], quiet, moment);
  renderMine(byId);
  if (me.role === "gm" && window.gmRendered) window.gmRendered(status);
  portraits.follow(status.encounter, status.combatants.map((c) => c.id));
  party.follow(status);
}

function mayOrder(tie) {
  return me.owns.some((id) => status.mine && status.mine[id] && status.mine[id].may.includes("order")
                             && tie.includes(id));
}

// -- the turn: announced, timed, and a player's cue ----------------------------

function followTurn() {
  const key = [status.encounter, status.round, status.pass, status.acting, status.up.join(",")].join("|");
  if (key === turnKey) return;
  const first = turnKey === "";
  turnKey = key;
  if (!first) turnStart = Date.now();
  else startTimer(status.seq);
  const who = status.up.map(nameOf).join(", ");
  $("announce").textContent = status.phase !== "combat" || !who ? phaseText()
    : fill(n_("Round {round}, pass {pass}: {names} is up", "Round {round}, pass {pass}: {names} are up", status.up.length),
           { round: status.round, pass: status.pass, names: who });
}

function onDeck() {
  // who the rules put up once the slot in progress is over: the core's answer
  return (status.on_deck || []).filter(owned);
}

function cue(quiet, moment) {
  // Always one line (it never appears or goes, so the card below never moves).
  const banner = $("banner");
  const mineUp = me.owns.filter((id) => status.up.includes(id));
  const deck = onDeck();
  // ("Goblin 1 is up", "Goblin 1, Goblin 3 are up": the number of names says which)
  let text, kind = "";
  const names = (ids) => ({ names: ids.map(nameOf).join(", ") });
  if (mineUp.length) { text = i18n.nodes(_("Your turn: {names}"), names(mineUp)); kind = "turn"; }
  else if (deck.length) {
    text = i18n.nodes(n_("On deck: {names} is next", "On deck: {names} are next", deck.length), names(deck));
    kind = "deck";
  } else if (status.up.length) {
    text = i18n.nodes(n_("Waiting: {names} is up", "Waiting: {names} are up", status.up.length), names(status.up));
  } else text = [phaseText()];
  banner.hidden = false;
  banner.replaceChildren(...text);
  banner.className = "banner " + kind;
  alerts.cue(kind, kind === "turn" ? mineUp : kind === "deck" ? deck : [], quiet, moment);
}

function tick() {
  const timer = $("timer");
  timer.hidden = !(status && status.phase === "combat" && status.up.length);
  if (timer.hidden) return;
  const s = Math.max(0, Math.floor((Date.now() - turnStart) / 1000));
  timer.textContent = fill(_("this turn: {time}"), { time: Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0") });
}

// -- a player's own combatants ---------------------------------------------

// An interrupt's cost (the player's card and the GM's panel).
function costChoice(id) {
  return el("select", { ...(id ? { id } : {}), "aria-label": _("interrupt cost") },
            el("option", { value: "minor" }, _("minor (1)")), el("option", { value: "major" }, _("major (2)")),
            el("option", { value: "3" }, _("3 AP")), el("option", { value: "4" }, _("4 AP")));
}

function card(c) {
  const id = c.id;
  const may = ((status.mine || {})[id] || { may: [] }).may;
  const can = (what) => may.includes(what);
  const name = { name: c.name };
  const label = el("input", { class: "label", dir: "auto", placeholder: _("what it does (optional)"), "aria-label": fill(_("what {name} does"), name) });
  const act = (cost, words) => declare({ command: "act", id, cost, label: label.value }, fill(words, name))
    .then((a) => { if (a) label.value = ""; });
  const cost = costChoice();
  const big = (text, what, fn) => el("button", { class: "big", type: "button", disabled: !can(what), on: { click: fn } }, text);
  const body = [el("h2", {}, portraits.face(c, "big"), el("bdi", {}, c.name), " ", pips(c), owned(id) ? tag("you") : null,
                         c.hidden ? tag("hidden") : null)];
  if (c.initiative === null && !c.group) {
    const die = el("input", { class: "die", type: "number", min: "1", max: "10", placeholder: _("d10"),
                              "aria-label": fill(_("the die {name} rolled"), name) });
    body.push(el("div", { class: "buttons" }, die,
      big(_("Enter roll"), "roll", () => declare({ command: "roll", slots: [id], die: Number(die.value) }, fill(_("✓ {name} rolled {die}"), { ...name, die: die.value }))),
      big(_("Roll for me"), "roll", () => declare({ command: "roll", slots: [id] }, fill(_("✓ {name} rolled"), name)))));
  }
  body.push(el("div", { class: "buttons" },
    big(_("Minor · 1 AP"), "act", () => act("minor", _("✓ {name}: minor action"))),
    big(_("Major · 2 AP"), "act", () => act("major", _("✓ {name}: major action"))),
    el("button", { class: "big", type: "button", disabled: status.phase === "ended", on: { click: () => act("free", _("✓ {name}: free action")) } }, _("Free")),
    big(_("End turn"), "end-turn", () => declare({ command: "end-turn", id }, fill(_("✓ {name}'s turn ended"), name)))),
    el("div", { class: "buttons" },
      big(_("Seize · 1 Grit"), "seize", () => declare({ command: "seize", id }, fill(_("✓ {name} seizes the moment"), name))),
      big(_("Interrupt"), "interrupt", () => declare({ command: "interrupt", id, cost: isNaN(cost.value) ? cost.value : Number(cost.value), label: label.value }, fill(_("✓ {name} interrupts"), name))),
      cost),
    el("div", { class: "buttons" }, label));
  const up = status.up.includes(id);
  return el("article", { class: "card" + (up ? " up" : "") + (owned(id) ? " own" : ""), data: { card: id },
                         "aria-label": up ? fill(_("{name}, up now"), name) : c.name }, ...body);
}

function renderMine(byId) {
  // Every status redraws the cards, their buttons from its `mine`; what is
  // typed or chosen in them, the focus and the caret are kept (a redraw
  // skipped while a label was typed left a turn's buttons greyed).
  const mine = $("mine");
  const ids = me.role === "player" ? me.owns : [];  // (the GM's: one panel, gm.js)
  const open = document.activeElement && mine.contains(document.activeElement) ? document.activeElement : null;
  const place = (n) => [n.closest("[data-card]").dataset.card, n.getAttribute("aria-label") || n.textContent];
  const kept = [...mine.querySelectorAll("[data-card] input, [data-card] select")].map((n) => [place(n), n.value]);
  const focused = open && open.closest("[data-card]") ? place(open) : null;
  const caret = open && open.tagName === "INPUT" && open.type !== "number" ? [open.selectionStart, open.selectionEnd] : null;
  mine.replaceChildren(...ids.filter((id) => byId[id]).map((id) => card(byId[id])));
  mine.hidden = ids.length === 0;
  const find = ([cardId, name]) => [...mine.querySelectorAll('[data-card="' + CSS.escape(cardId) + '"] input, [data-card="'
    + CSS.escape(cardId) + '"] select, [data-card="' + CSS.escape(cardId) + '"] button')]
    .find((n) => (n.getAttribute("aria-label") || n.textContent) === name);
  for (const [where, value] of kept) {
    const again = find(where);
    if (again && again.tagName !== "BUTTON") again.value = value;
  }
  if (focused) {  // the person keeps their place after the card is redrawn
    const again = find(focused);
    if (again && !again.disabled) {
      again.focus();
      if (caret) again.setSelectionRange(caret[0], caret[1]);
    }
  }
}

// -- the stream: live, reconnecting, offline ----------------------------------

let badgeState = "connecting";

function badge(state) {
  const words = { live: N_("live"), reconnecting: N_("reconnecting…"), offline: N_("offline"),
                  connecting: N_("connecting…") };
  badgeState = state;
  $("live").textContent = _(words[state]);
  $("live").className = "live " + state;
}

function listen() {
  if (source) source.close();
  status = null;
  turnKey = "";
  const url = "./api/encounters/" + encodeURIComponent(encounter) + "/stream?token=" + encodeURIComponent(token) + i18n.query("&");
  source = new EventSource(url);  // (it resumes by Last-Event-ID by itself)
  source.addEventListener("status", (ev) => { render(JSON.parse(ev.data), true); badge("live"); });
  source.addEventListener("table", (ev) => followTable(JSON.parse(ev.data).encounter));
  // a refused token, or the encounter archived or deleted: said, and no reconnecting
  for (const end of ["refused", "closed"]) source.addEventListener(end, (ev) => {
    const why = JSON.parse(ev.data);
    // (an archive this page made: its own answer said so, and stays)
    if (!(why.reason === "archived" && archivedHere.has(why.encounter))) say(why.error, "error");
    source.close();
    badge("offline");
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) { badge("offline"); setTimeout(listen, 3000); }
    else badge(navigator.onLine === false ? "offline" : "reconnecting");
  };
}

function startTimer(seq) {
  // on a fresh page the turn has run since the last declaration
  api("./api/encounters/" + encodeURIComponent(encounter) + "/log?after=" + Math.max(0, seq - 1)).then((events) => {
    if (events.length) turnStart = Date.parse(events[events.length - 1].at);
  }, () => {});
}

function followTable(next) {
  if (!next || next === encounter) return;
  if (me.encounter && me.encounter !== next) {
    say(fill(_("the GM put {next} on the table; this link reaches {mine} only"), { next, mine: me.encounter }), "note");
    return;
  }
  encounter = next;
  if (window.gmPicked) window.gmPicked(next);
  listen();
}

// The page's language switch: everything is said again in the new language
// at once (the fixed words, the status, and what the server words: the
// stream is opened again, which redraws).
function relanguage() {
  badge(badgeState);
  alerts.relabel();
  if (me && me.role === "gm" && window.gmLanguage) window.gmLanguage();
  party.again();
  if (encounter) listen();
}

function start() {
  if (overlay) document.body.classList.add("overlay");
  if (!token) { location.replace("./join"); return; }
  i18n.load(token).then(() => {
    i18n.words(pageWords);
    i18n.switcher($("speaks"), token, relanguage);
    badge("connecting");
    return api("./api/me");
  }).then((who) => {
    me = who;
    document.body.classList.add(me.role);
    alerts.start(me.role, fill(_("combat-ledger · {name}"), { name: me.name }), $("alerts"));
    return api("./api/table");
  }).then((table) => {
    me.table = table.encounter;
    return api("./api/encounters");
  }).then((list) => {
    if (!list) return;
    if (!list.length) { say(_("no encounter yet: the GM starts one with `combat new ID`"), "note"); return; }
    const wanted = params.get("encounter");
    const live = list.filter((e) => e.phase !== "ended");
    const pick = list.find((e) => e.id === wanted) || list.find((e) => e.id === me.encounter)
      || list.find((e) => e.id === me.table) || live[live.length - 1] || list[list.length - 1];
    encounter = pick.id;
    $("legend").hidden = me.role !== "view";
    if (me.role === "view" && !overlay) {
      $("join").prepend(el("img", { src: "./join/qr.svg", alt: _("QR code: scan it to join this table"), width: "160", height: "160" }));
      $("join").hidden = false;
    }
    if (me.role === "gm" && window.gmStart) window.gmStart(list);
    listen();
    setInterval(tick, 1000);
  }).catch((err) => {
    if (err.status === 401 && !params.get("token")) {  // (a kept token no longer opens the page)
      try { localStorage.removeItem("combat-token"); } catch (e) { /* */ }
    }
    say(err.message, "error");
  });
  addEventListener("offline", () => badge("offline"));
}

// (after every deferred script, gm.js included: its hooks must be there
// before the first answer comes back, however slowly a script loads)
document.addEventListener("DOMContentLoaded", start, { once: true });
