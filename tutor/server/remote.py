"""The remote use case: correct on a class server, and fall back to the local model (and the outbox) offline.

`ClassTutor` offers what `tutor.tutoring.Tutoring` offers (correct, check, record, is_sure, mistakes), so the
app calls either the same way. A sentence goes to the class server for a chosen learner; the server's row is
kept in the local store under the server's UUID. When the server cannot be reached, the local model corrects
it, the row is kept under the UUID the server would have given it, and the outbox (Store.queue_upload) holds
it until `tutor.server.outbox.flush` uploads it: nothing is lost or stored twice. Texts, practice retries and
sentences without a learner stay local, as with `Tutoring`.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tutor.errors import StoreError
from tutor.result import CorrectionResult
from tutor.server import records
from tutor.server.client import ClassClient, Unreachable
from tutor.server.keys import StoreKeyRing
from tutor.server.outbox import flush
from tutor.store.bundle import learner_info
from tutor.tutoring import Recorded, Tutoring

if TYPE_CHECKING:
    from tutor.api import Tutor
    from tutor.store import Store
    from tutor.text.check import CheckResult


class ClassTutor:
    """Corrects on a class server for a learner, falling back to a local tutor (and the outbox) when it is away."""

    def __init__(self, client: ClassClient, store: Store, local: Callable[[], Tutor]) -> None:
        """`local()` returns the local Tutor (loaded lazily by the caller, only when it is needed). The learner
        keys the server issues are kept in `store`, so only this app can add to its learners' records."""
        self.client, self.store, self.local = client, store, local
        if not isinstance(client.keys, StoreKeyRing):
            client.keys = StoreKeyRing(store, client.url)
        self.last_was_remote = False

    def tutoring(self) -> Tutoring:
        """Return the local use case over the same store (the fallback, and what stays local)."""
        return Tutoring(self.local(), self.store)

    def correct(self, sentence: str, *, learner: str | None, review: bool = False,
                on_token: Callable[[str], None] | None = None) -> Recorded[CorrectionResult]:
        """Correct one sentence for `learner` on the class server and keep the row here under the same UUID;
        offline, correct it with the local model and queue the row. A practice retry (`review`) or no learner:
        the local use case. A store error never loses the result: it comes back in `save_error`."""
        self.last_was_remote = False
        if review or not learner:
            return self.tutoring().correct(sentence, learner=learner, review=review, on_token=on_token)
        info = learner_info(self.store, self.store.ensure_learner(learner))
        request_id = str(uuid.uuid4())
        try:
            result, row_id = self.client.correct_detail(info["name"], sentence, learner_uuid=info["uuid"],
                                                        request_id=request_id)
        except Unreachable:
            result = self.local().correct(sentence, on_token=on_token)
            [row_id] = records.row_ids(request_id, 1)
            return self._keep(info["id"], row_id, result, queue=True)
        self.last_was_remote = True
        done = self._keep(info["id"], row_id, result, queue=False)
        if done.saved:
            flush(self.store, self.client)  # the server is back: send what waited (cheap when nothing does)
        return done

    def _keep(self, learner_id: int, row_id: str, result: CorrectionResult, *, queue: bool
              ) -> Recorded[CorrectionResult]:
        """Keep the row here (and in the outbox when the server did not get it)."""
        try:
            self.store.save_once(learner_id, [(row_id, result)])
            if queue:
                self.store.queue_upload([row_id])
        except StoreError as exc:
            return Recorded(result, save_error=exc, recorded=True)
        return Recorded(result, (row_id,), recorded=True)

    def check(self, text: str, *, learner: str | None,
              progress: Callable[[int, int], None] | None = None) -> Recorded[CheckResult]:
        """Check a whole text with the local model and record it (texts are checked locally)."""
        return self.tutoring().check(text, learner=learner, progress=progress)

    def record_check(self, result: CheckResult, *, learner: str | None) -> Recorded[CheckResult]:
        """Record a text check made here (see Tutoring.record_check)."""
        return self.tutoring().record_check(result, learner=learner)

    def is_sure(self, result: CorrectionResult) -> bool:
        """Return the local Judge's decision on a result's confidence (see Tutoring.is_sure)."""
        return self.tutoring().is_sure(result)

    def mistakes(self, learner: str, *, limit: int = 100) -> list[dict[str, Any]]:
        """Return the learner's past mistakes kept here (see Tutoring.mistakes)."""
        return self.tutoring().mistakes(learner, limit=limit)

    def push_practice(self, learner: str) -> dict[str, int] | None:
        """Send the learner's practice state (cards, answers, schedule) to the class server; it merges, so sending
        twice adds nothing. Return the totals merged, or None when the server cannot be reached (the whole state
        goes again next time, so nothing is lost)."""
        from tutor.server.practice_routes import push

        if not learner or self.store.find_learner(learner) is None:
            return None
        try:
            return push(self.store, self.client, learner)
        except Unreachable:
            return None
