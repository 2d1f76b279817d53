// The pages' words in the reader's language. A message is written once, in
// English, where it is said, and marked as the server's are:
// fill(_("{name} seizes the moment"), { name }), n_(one, many, n) where a
// number decides the form. The catalogue is the server's own (GET
// /api/messages, the same .mo the refusals come from), loaded before
// anything is drawn. The language: the page's switch (kept on the device),
// else the one the GM chose for the token, else the browser's; every
// request says the switch's choice, so what the server words (refusals,
// the log) comes in the same language.
"use strict";

const i18n = (() => {
  const KEY = "combat-lang";
  // (`languages`: each the server speaks, named in itself: "English", "Deutsch")
  let catalogue = { language: "en", plural: ["one", "other"], languages: { en: "English" }, messages: {} };
  let rules = new Intl.PluralRules("en");
  let drawn = () => [], chosenNow = "";  // (storage off: the switch holds on this page)

  function own() {
    try { return localStorage.getItem(KEY) || chosenNow; } catch (e) { return chosenNow; }
  }

  // The header every request of the page carries (none: the server chooses).
  function headers() { return own() ? { "X-Combat-Language": own() } : {}; }

  // For what cannot send a header (a stream, a link): `?lang=`, or "".
  function query(sep) { return own() ? sep + "lang=" + encodeURIComponent(own()) : ""; }

  function load(token) {
    const ask = { headers: headers() };
    if (token) ask.headers.Authorization = "Bearer " + token;
    // (no catalogue, offline or refused: the page speaks English rather than nothing)
    return fetch("./api/messages", ask).then((r) => (r.ok ? r.json() : null)).catch(() => null).then((got) => {
      if (got && got.messages) catalogue = got;
      rules = new Intl.PluralRules(catalogue.language);
      document.documentElement.lang = catalogue.language;
      return catalogue.language;
    });
  }

  function _(message) {
    const said = catalogue.messages[message];
    return typeof said === "string" && said ? said : message;
  }

  function n_(singular, plural, n) {
    const forms = catalogue.messages[singular];
    if (Array.isArray(forms)) {
      const said = forms[catalogue.plural.indexOf(rules.select(n))];
      if (said) return said;
    }
    return n === 1 ? singular : plural;
  }

  // A message's {name}s filled in (a translation may move them).
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m));
  }

  // The same, as nodes: a value that is a node (a <kbd>, a link) goes in as
  // it is; a string (a name a person typed, which may run right to left)
  // is isolated in a <bdi>, so it never reorders the sentence around it.
  function nodes(text, values) {
    return text.split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
      const name = /^\{(\w+)\}$/.test(part) ? part.slice(1, -1) : null;
      if (name === null || !(name in values)) return part;
      const value = values[name];
      if (value instanceof Node) return value;
      const bdi = document.createElement("bdi");
      bdi.textContent = String(value);
      return bdi;
    });
  }

  // The page's fixed words: `table()` gives [selector, attribute or null,
  // text or nodes] at each call (in the language of the moment).
  function words(table) {
    drawn = table;
    for (const [selector, attribute, said] of drawn()) {
      for (const node of document.querySelectorAll(selector)) {
        if (attribute) node.setAttribute(attribute, said);
        else if (Array.isArray(said)) node.replaceChildren(...said);
        else node.textContent = said;
      }
    }
    document.documentElement.classList.remove("unsaid");
  }

  // The switch: a labelled <select> of the languages, each in its own name;
  // a choice is kept on the device and applied at once (`changed()`).
  function switcher(host, token, changed) {
    const id = "language-switch";
    const label = document.createElement("label");
    label.htmlFor = id;
    label.className = "sr-only";
    label.dataset.said = "language";
    const select = document.createElement("select");
    select.id = id;
    select.className = "language";
    for (const [code, name] of Object.entries(catalogue.languages)) {
      const option = document.createElement("option");
      option.value = code;
      option.lang = code;
      option.textContent = name;
      select.append(option);
    }
    const show = () => { select.value = catalogue.language; label.textContent = _("Language"); };
    select.addEventListener("change", () => {
      try { localStorage.setItem(KEY, select.value); } catch (e) { /* (storage off: this page only) */ }
      chosenNow = select.value;
      load(token).then(() => { show(); words(drawn); changed(); });
    });
    show();
    host.append(label, select);
  }

  return {
    _, n_, fill, nodes, words, switcher, load, headers, query,
    get language() { return catalogue.language; },
  };
})();
const _ = i18n._, n_ = i18n.n_, fill = i18n.fill;
const N_ = (message) => message;  // (marked for the catalogue where written, said with _ later)
