"""Snapshots of the folded state, so a command on a long encounter folds only
the events since the last one (instant commands).

A snapshot is the State struct as msgpack (never pickle: a database file may
come from elsewhere, and reading it must execute nothing), stored with the
seq and chain hash of the event it was taken at, the version of the fold
code, and a seal: a keyed digest of those and of the bytes, made with a key
kept on this machine outside the store. A snapshot whose seal does not match
(edited in the store, or written elsewhere) is never believed: the state is
folded from the log instead. `combat verify` re-folds and compares it too.
"""
from __future__ import annotations

import os
import zlib

import msgspec

from eventlog.events import Amended, Payload, Redone, Undone

from projections.domain.state import State

_HERE = os.path.dirname(os.path.realpath(__file__))


def _source(name: str) -> bytes:
    with open(os.path.join(_HERE, name), "rb") as f:
        return f.read()


# A fingerprint of the fold code (not a security check: the seal is);
# crc32 because loading hashlib's OpenSSL costs every command milliseconds.
FOLD_VERSION = format(zlib.crc32(b"".join(
    _source(name)
    for name in ("domain/state.py", "domain/evolve.py", "domain/ties.py", "domain/tracks.py",
                 "snapshot.py"))), "08x")

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(State)


def encode(s: State) -> bytes:
    return _encoder.encode(s)


def decode(blob: bytes, encounter: str) -> State:
    """The state in `blob`; msgspec.DecodeError (or ValidationError) if it is
    not one."""
    state = _decoder.decode(blob)
    state.encounter = encounter
    return state


def clone(s: State) -> State:
    """A deep copy of `s` (its caches start empty)."""
    return _decoder.decode(_encoder.encode(s))


def _key() -> bytes:
    """This machine's sealing key, made on first use (0600, beside the
    user's remembered current encounters)."""
    from eventlog.userstate import state_folder
    path = os.path.join(state_folder(), "snapshot.key")
    try:
        with open(path, "rb") as f:
            key = f.read()
        if len(key) == 32:
            return key
    except OSError:
        pass
    key = os.urandom(32)
    try:
        os.makedirs(state_folder(), exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(key)
    except OSError:
        pass  # unwritable home: snapshots sealed with this key live one process
    return key


_KEY: bytes | None = None


def seal(encounter: str, seq: int, chain_hash: str, blob: bytes) -> str:
    """The keyed digest that vouches for a snapshot written on this machine."""
    global _KEY
    if _KEY is None:
        _KEY = _key()
    try:
        from _blake2 import blake2b  # the builtin module: hashlib loads OpenSSL (~4 ms)
    except ImportError:  # pragma: no cover - another Python
        from hashlib import blake2b
    digest = blake2b(key=_KEY, digest_size=16)
    digest.update(f"{FOLD_VERSION}\0{encounter}\0{seq}\0{chain_hash}\0".encode())
    digest.update(blob)
    return digest.hexdigest()


def reaches_back(corrections: list[tuple[int, Payload]], seq: int) -> bool:
    """Does a correction after `seq` change a batch at or before it?"""
    for marker_seq, p in corrections:
        if marker_seq <= seq:
            continue
        if isinstance(p, Undone) and min(p.batches) <= seq:
            return True
        if isinstance(p, Redone) and p.batch <= seq:
            return True
        if isinstance(p, Amended) and (p.batch <= seq or any(b <= seq for b in p.retracted)):
            return True
    return False


__all__ = ["FOLD_VERSION", "clone", "decode", "encode", "reaches_back", "seal"]
