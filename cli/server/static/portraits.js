// Portraits beside the names (docs/characters.md, "Portraits"): a small round
// image, or the name's initials when there is none. Which combatant has which
// comes from /api/encounters/ID/portraits, asked again only when a combatant
// the page has not asked about appears (a join, a reveal), so a hidden
// combatant's portrait never reaches a player's page or the TV: the server
// leaves it out until the players see it. Images load by digest (cached).
"use strict";

const portraits = (() => {
  let shown = {}, asked = new Set(), where = null, pending = null;

  function initials(name) {
    const words = String(name).trim().split(/\s+/).filter(Boolean);
    const letters = words.slice(0, 2).map((w) => Array.from(w)[0] || "");
    return letters.join("").toUpperCase() || "?";
  }

  // The face of combatant `c` (an element: an image, or initials).
  function face(c, size) {
    const box = document.createElement("span");
    box.className = "face" + (size ? " " + size : "") + (c.side ? " " + c.side : "");
    box.setAttribute("aria-hidden", "true");  // (the name beside it says who)
    box.dataset.face = c.id;
    box.dataset.name = c.name;
    fill(box);
    return box;
  }

  function fill(box) {
    const digest = shown[box.dataset.face], name = box.dataset.name;
    box.replaceChildren();
    box.classList.toggle("drawn", !!digest);
    if (digest) {
      const img = document.createElement("img");
      img.alt = "";
      img.decoding = "async";
      img.src = "./api/portraits/" + digest + "?token=" + encodeURIComponent(token);
      img.addEventListener("error", () => { box.classList.remove("drawn"); box.textContent = initials(name); }, { once: true });
      box.append(img);
    } else {
      box.textContent = initials(name);
    }
  }

  // Ask for the map when the encounter or its set of combatants is new to
  // the page; the faces already drawn change in place with the answer.
  function follow(encounter, ids) {
    if (encounter !== where) { where = encounter; shown = {}; asked = new Set(); }
    if (ids.every((id) => asked.has(id)) || pending === encounter + ":" + ids.join(",")) return;
    const key = pending = encounter + ":" + ids.join(",");
    api("./api/encounters/" + encodeURIComponent(encounter) + "/portraits").then((answer) => {
      if (pending === key) pending = null;
      if (encounter !== where) return;
      const before = JSON.stringify(shown);
      shown = answer.portraits || {};
      asked = new Set(ids);
      if (JSON.stringify(shown) !== before) document.querySelectorAll(".face[data-face]").forEach(fill);
    }, () => { if (pending === key) pending = null; });
  }

  return { face, follow, initials };
})();
