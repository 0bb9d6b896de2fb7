"""Where a learner's app keeps the learner keys a class server issued (tutor.server.access): in memory, or in
the app's own store, so that the key outlives the app and only this learner's app can add to their record.

A key is kept per server address and learner UUID (or name, for a client that sends none). In the store it
lives in the `secrets` table as it is (the app must send it back): like the history beside it, it is as safe
as the database file (docs/access.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tutor.store.learner_keys import app_key, keep_app_key
from tutor.store.names import name_key

if TYPE_CHECKING:
    from tutor.store import Store

def _ref(name: str | None, learner_uuid: str | None) -> str:
    return f"uuid:{learner_uuid}" if learner_uuid else f"name:{name_key(name or '')}"


class KeyRing:
    """Learner keys in memory (a script, the load test); the app uses StoreKeyRing."""

    def __init__(self) -> None:
        self._keys: dict[str, str] = {}

    def get(self, name: str | None, learner_uuid: str | None) -> str | None:
        """Return the key for a learner (by UUID when known, else by name), or None."""
        return self._keys.get(_ref(name, learner_uuid)) or (self._keys.get(_ref(name, None)) if name else None)

    def put(self, name: str | None, learner_uuid: str | None, key: str) -> None:
        """Remember the key the server issued for a learner (under its UUID and its name)."""
        if learner_uuid:
            self._keys[_ref(None, learner_uuid)] = key
        if name:
            self._keys[_ref(name, None)] = key


class StoreKeyRing(KeyRing):
    """Learner keys kept in the app's store, per server address and learner UUID (tutor.store.learner_keys)."""

    def __init__(self, store: Store, server_url: str) -> None:
        super().__init__()
        self.store, self.server_url = store, server_url.rstrip("/")

    def get(self, name: str | None, learner_uuid: str | None) -> str | None:
        """Return the stored key for the learner's UUID on this server (or one learned by name this session)."""
        if learner_uuid:
            kept = app_key(self.store, learner_uuid, self.server_url)
            if kept is not None:
                return kept
        return super().get(name, None)

    def put(self, name: str | None, learner_uuid: str | None, key: str) -> None:
        """Keep the key (replacing an older one: the server's database may have been started afresh)."""
        super().put(name, learner_uuid, key)
        if learner_uuid:
            keep_app_key(self.store, learner_uuid, self.server_url, key)
