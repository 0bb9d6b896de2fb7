"""The outbox: corrections made offline while a class server was chosen, uploaded once it is back.

The outbox (Store.queue_upload, tutor/store/outbox.py) holds row UUIDs only; the rows stay in the local
store. `flush` sends them as bundles (each under the server's 16 kB limit) and forgets a row only after the
server confirmed it. A crash between the two just resends rows the server already has, which it skips by
UUID.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tutor.limits import MAX_UPLOAD_BYTES
from tutor.server.keys import StoreKeyRing
from tutor.store.bundle import make_bundle

if TYPE_CHECKING:
    from tutor.server.client import ClassClient
    from tutor.store import Store


@dataclass
class FlushSummary:
    """What one flush did: rows the server took as new, already had, or reported in conflict; rows left."""

    new: int = 0
    present: int = 0
    conflicts: list[str] = field(default_factory=list)
    left: int = 0


def queue(store: Store, correction_ids: list[str]) -> None:
    """Queue rows of the local store for upload (a row queued twice is queued once)."""
    store.queue_upload(correction_ids)


def pending(store: Store) -> int:
    """Return how many rows wait for upload."""
    return store.queued_count()


def flush(store: Store, client: ClassClient) -> FlushSummary:
    """Upload every queued row, one learner's bundle at a time, each with that learner's key from this store;
    raise Unreachable if the server goes away."""
    if not isinstance(client.keys, StoreKeyRing):
        client.keys = StoreKeyRing(store, client.url)  # the keys this app was issued live beside its outbox
    summary = FlushSummary()
    for learner, rows in store.queued_rows():
        for chunk in _chunks(learner, rows):
            answer = client.upload(make_bundle(learner, chunk))
            summary.new += answer["new"]
            summary.present += answer["present"]
            summary.conflicts += answer["conflicts"]
            store.unqueue(row["id"] for row in chunk)
    summary.left = store.queued_count()
    return summary


def _chunks(learner: dict[str, Any], rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Split rows into bundles whose JSON stays under MAX_UPLOAD_BYTES (a lone larger row goes alone)."""
    out: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    size = len(json.dumps(make_bundle(learner, []), ensure_ascii=False).encode("utf-8"))
    used = size
    for row in rows:
        cost = len(json.dumps(row, ensure_ascii=False).encode("utf-8")) + 2
        if current and used + cost > MAX_UPLOAD_BYTES:
            out.append(current)
            current, used = [], size
        current.append(row)
        used += cost
    if current:
        out.append(current)
    return out
