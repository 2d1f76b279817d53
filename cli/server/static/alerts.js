// Alerts (app.js calls them): a player's phone tells its player "your turn"
// and "you're on deck" by vibration, a short sound and the page's title, and
// keeps the screen awake during their turn; the TV can speak whose turn it
// is. Each switch is remembered on the device (localStorage); the sound and
// the speech are off until switched on. Everything is made here, in the
// browser: the sound by WebAudio, the words by the device's own voice.
"use strict";

const alerts = (() => {
  const SWITCHES = {  // name -> [label, on by default, the roles that show it]
    vibrate: [N_("Vibrate: {state}"), true, ["player"]],
    sound: [N_("Sound: {state}"), false, ["player"]],
    speak: [N_("Speak turns: {state}"), false, ["view"]],
  };
  const shows = [];  // each switch's button redraws its words (the language may change)
  let baseTitle = document.title, said = "", lock = null, wantLock = false, audio = null;

  function isOn(name) {
    try {
      const kept = localStorage.getItem("combat-alert-" + name);
      if (kept !== null) return kept === "on";
    } catch (e) { /* (storage off: the defaults) */ }
    return SWITCHES[name][1];
  }

  function keep(name, on) {
    try { localStorage.setItem("combat-alert-" + name, on ? "on" : "off"); } catch (e) { /* */ }
  }

  function context() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) audio = new Ctx();
    if (audio.state === "suspended" && audio.resume) audio.resume();
    return audio;
  }

  function beep(kind) {
    // your turn: two rising notes; on deck: one soft note
    const ctx = context();
    if (!ctx) return;
    const notes = kind === "turn" ? [[660, 0], [880, 0.18]] : [[520, 0]];
    for (const [freq, at] of notes) {
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      const start = ctx.currentTime + at;
      osc.type = "sine";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(kind === "turn" ? 0.3 : 0.15, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.17);
    }
  }

  function awake(on) {
    // The screen stays on during the player's turn; released after (a
    // hidden page loses the lock: it is asked for again when shown).
    wantLock = on;
    if (!on) {
      if (lock) { const held = lock; lock = null; held.release().catch(() => {}); }
      return;
    }
    if (lock || !navigator.wakeLock || document.visibilityState === "hidden") return;
    navigator.wakeLock.request("screen").then((got) => {
      if (!wantLock) { got.release().catch(() => {}); return; }
      lock = got;
      got.addEventListener("release", () => { if (lock === got) lock = null; });
    }, () => { /* refused (battery saver, an old browser): the page still works */ });
  }
  // A browser lets a page sound only after a tap: after a reload, the first
  // tap anywhere on the page readies the sound the switch keeps on.
  document.addEventListener("pointerdown", () => { if (isOn("sound") && !(audio && audio.state === "running")) context(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && wantLock) awake(true);
  });

  // A player's cue: kind "turn", "deck" or "" with the names it is about,
  // said once each (app.js calls it at every status); `quiet`: the page has
  // just opened (its person is looking at it already); `moment`: round and
  // pass (the same turn again in the next pass is said again).
  function cue(kind, names, quiet, moment) {
    const now = kind ? kind + ":" + names.join(",") + (kind === "turn" ? "@" + moment : "") : "";
    document.title = kind === "turn" ? fill(_("● Your turn · {title}"), { title: baseTitle })
      : kind === "deck" ? fill(_("On deck · {title}"), { title: baseTitle }) : baseTitle;
    awake(kind === "turn");
    if (now === said) return;
    said = now;
    if (!kind || quiet) return;
    if (isOn("vibrate") && navigator.vibrate) navigator.vibrate(kind === "turn" ? [200, 100, 200] : 120);
    if (isOn("sound")) beep(kind);
  }

  // The TV: "Ash, your turn" when a new turn is up (hidden ones are not in
  // a view's status at all).
  function announce(names, quiet, moment) {
    // (a group slot is called once: its members starting one by one are no news)
    const before = said.split("@");
    const known = before[1] === moment && names.every((n) => before[0].split(",").includes(n));
    if (!names.length) { said = ""; return; }
    if (known) return;
    said = names.join(",") + "@" + moment;
    if (quiet || !names.length || !isOn("speak") || !window.speechSynthesis) return;
    const words = names.length > 1 ? fill(_("{names} and {last}"), { names: names.slice(0, -1).join(", "), last: names[names.length - 1] })
      : names[0];
    speechSynthesis.cancel();
    speechSynthesis.speak(spoken(fill(_("{names}, your turn"), { names: words })));
  }

  function start(role, title, host) {
    baseTitle = title;
    document.title = title;
    const shown = Object.entries(SWITCHES).filter(([, [, , roles]]) => roles.includes(role));
    for (const [name, [label]] of shown) {
      const button = document.createElement("button");
      const show = () => {
        const on = isOn(name);
        button.setAttribute("aria-pressed", String(on));
        button.textContent = fill(_(label), { state: on ? _("on") : _("off") });
      };
      button.type = "button";
      button.className = "toggle small";
      button.dataset.alert = name;
      button.addEventListener("click", () => {
        const on = !isOn(name);
        keep(name, on);
        show();
        // (a tap is what lets a page make sound: the sample is heard now, the alerts later)
        if (on && name === "sound") beep("deck");
        if (on && name === "speak" && window.speechSynthesis) speechSynthesis.speak(spoken(_("turns will be spoken")));
        if (!on && name === "speak" && window.speechSynthesis) speechSynthesis.cancel();
      });
      show();
      shows.push(show);
      host.append(button);
    }
    host.hidden = shown.length === 0;
    host.setAttribute("aria-label", _("alerts on this device"));
  }

  // The device's voice speaks the page's language.
  function spoken(words) {
    const said = new SpeechSynthesisUtterance(words);
    said.lang = i18n.language;
    return said;
  }

  function relabel() { for (const show of shows) show(); }

  return { cue, announce, start, isOn, relabel };
})();
