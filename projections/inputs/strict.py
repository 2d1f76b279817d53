"""Roster parsing as strict as TOML's own: a key given
twice in one table is refused in YAML and JSON too (both keep the last one
silently), and a number too long to read is said in the table's words, not
as Python's hint about `sys.set_int_max_str_digits`."""
from __future__ import annotations

import json

from eventlog.language import _, whole

MAX_DIGITS = 4300  # Python's own limit for reading an int from text


class DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(_("key {key} is given twice in one table").format(
                key=json.dumps(key, ensure_ascii=True)[:40]))
        out[key] = value
    return out


def load_json(text: str):
    return json.loads(text, object_pairs_hook=_no_duplicates)


def load_yaml(text: str):
    import yaml

    class Loader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            keys = set()
            for key_node, _value in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    duplicate = key in keys
                except TypeError:  # an unhashable key: SafeLoader says so itself
                    break
                if duplicate:
                    raise DuplicateKey(_("key {key} is given twice in one table at line "
                                         "{line}").format(key=repr(str(key)[:40]),
                                                          line=key_node.start_mark.line + 1))
                keys.add(key)
            return super().construct_mapping(node, deep)

    return yaml.load(text, Loader=Loader)  # noqa: S506 (a SafeLoader)


def reworded(exc: ValueError) -> str:
    """A parser's ValueError, in the table's words."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if "int_max_str_digits" in text or "integer string conversion" in text:
        return _("a number has more than {n} digits; numbers are at most {most} either "
                 "way").format(n=MAX_DIGITS, most=whole(1_000_000_000))
    return text
