// The fixed words of the table's page (the player's, the TV's and the GM's
// console), in the reader's language: i18n.words sets them once the
// catalogue is loaded, and again when the page's language switch changes.
"use strict";

function pageWords() {
  const kbd = (key) => el("kbd", {}, key);
  const side = (cls, text) => el("span", { class: "side " + cls }, text);
  return [
    ["#alerts", "aria-label", _("alerts on this device")],
    ["#mine", "aria-label", _("your combatants")],
    ["#board", "aria-label", _("initiative order")],
    ["#window", null, i18n.nodes(_("Seize window open: spend 1 Grit to act first ({rule})"),
                                 { rule: el("a", { href: "./rules/R10" + i18n.query("?") }, "R10") })],
    ["#legend", null, i18n.nodes(_("{pc} player characters · {npc} the GM's"),
                                 { pc: side("pc", _("PC")), npc: side("npc", _("NPC")) })],
    ["#scan", null, _("Scan to join")],
    ["#gm", "aria-label", _("GM console")],
    ["#confirm", "aria-label", _("confirm")],
    ["#several", "aria-label", _("several chosen at once")],
    ["#panel", "aria-label", _("the selected combatant's controls")],
    ["#keys", null, i18n.nodes(_("Keys (outside a box), as in play mode: {m} major, {n} minor, {f} free, "
      + "{i} interrupt, {s} seize, {e} end turn, {undo} undo, {redo} redo; click a row to choose who; "
      + "tick rows' boxes to change several at once ({escape} clears)."),
      { m: kbd("m"), n: kbd("n"), f: kbd("f"), i: kbd("i"), s: kbd("s"), e: kbd("e"),
        undo: kbd(_("Ctrl-Z")), redo: kbd(_("Ctrl-Y")), escape: kbd(_("Escape")) })],
    ['label[for="line"]', null, _("command")],
    ["#line", "placeholder", _("e.g. m rook shoots · add Vex --pc · t vex hp -3")],
    ["#line-form button", null, _("Declare")],
    ["#history-head", null, _("Last declarations, newest first")],
    ["#evening-head", null, _("The evening")],
    ["#encounter", "aria-label", _("Encounter")],
    ["#to-table", null, _("Put on the table")],
    ["#new-id", "aria-label", _("new encounter id")],
    ["#new-id", "placeholder", _("new encounter id")],
    ["#new-title", "aria-label", _("its title")],
    ["#new-title", "placeholder", _("title (optional)")],
    ["#roster-word", null, _("roster")],
    ["#new-start", null, _("Start encounter")],
    ["#joins-head", null, _("Players asking to join")],
    ["#joined-head", null, _("Players' phones")],
  ];
}
