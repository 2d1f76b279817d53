"""Roster parsing as strict as TOML's own: a key given
twice in one table is refused in YAML and JSON too (both keep the last one
silently), and a number too long to read is said in the table's words, not
as Python's hint about `sys.set_int_max_str_digits`."""
from __future__ import annotations

import json

MAX_DIGITS = 4300  # Python's own limit for reading an int from text


class DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple]) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(f"key {json.dumps(key, ensure_ascii=True)[:40]} is given twice "
                               "in one table")
        out[key] = value
    return out


def load_json(text: str):
    return json.loads(text, object_pairs_hook=_no_duplicates)


def load_yaml(text: str):
    import yaml

    class Loader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            keys = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                try:
                    duplicate = key in keys
                except TypeError:  # an unhashable key: SafeLoader says so itself
                    break
                if duplicate:
                    raise DuplicateKey(f"key {str(key)[:40]!r} is given twice in one "
                                       f"table at line {key_node.start_mark.line + 1}")
                keys.add(key)
            return super().construct_mapping(node, deep)

    return yaml.load(text, Loader=Loader)  # noqa: S506 (a SafeLoader)


def reworded(exc: ValueError) -> str:
    """A parser's ValueError, in the table's words."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if "int_max_str_digits" in text or "integer string conversion" in text:
        return (f"a number has more than {MAX_DIGITS} digits; numbers are at most "
                "1,000,000,000 either way")
    return text
