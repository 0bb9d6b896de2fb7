"""What a page of the window may use, and nothing else: the use case, the store to read, the message sink, the
learner.

MainWindow owns one ViewContext and hands it to the pages it places (the Text and Exercises tabs, the class
menus); a page never reaches into the window, and the window alone decides where each page's actions and tabs
go. The context answers at the moment a page asks (the model may be reloading, the store reopened).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from tutor.store import Store
    from tutor.tutoring import Tutoring


class MessageSink(Protocol):
    """Where a page says what went wrong or what happened (app.views.messages.MessageArea)."""

    def show_message(self, text: str | Callable[[], str], *, key: str, level: str = "error",
                     actions: Sequence[tuple[str, Callable[[], Any]]] = ()) -> Any:
        """Show (or replace) the banner called `key`."""

    def dismiss(self, key: str) -> None:
        """Hide the banner called `key`."""


class ViewContext(QObject):
    """The window's narrow face for its pages: getters for the use case and the store, the messages, the learner."""

    learner_changed = Signal(str)  # the learner in use ("" for none)
    use_case_changed = Signal()  # a model finished loading, failed, or started reloading
    recorded = Signal(object)  # a correction was recorded for the learner (the CorrectionResult)

    def __init__(self, use_case: Callable[[], Tutoring | None], store: Callable[[], Store | None],
                 messages: MessageSink, parent: QObject | None = None) -> None:
        """`use_case()` is the local use case (None while no model is ready); `store()` the open store (None when
        it did not open); both are asked each time, never kept."""
        super().__init__(parent)
        self._use_case, self._store, self.messages = use_case, store, messages
        self._learner = ""

    def use_case(self) -> Tutoring | None:
        """Return the local use case (correct, check and record with the loaded model), or None while none is ready."""
        return self._use_case()

    def store(self) -> Store | None:
        """Return the open store, to read from in the background (tutor.store.Store), or None."""
        return self._store()

    def learner(self) -> str:
        """Return the learner in use ("" for none)."""
        return self._learner

    def set_learner(self, name: str) -> None:
        """Change the learner in use and tell the pages (the window calls this)."""
        if name != self._learner:
            self._learner = name
            self.learner_changed.emit(name)
