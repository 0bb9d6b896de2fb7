"""The teacher's Exercises tab: the class's (or the selected learner's) progress by §A13 cell and error type,
and the cells the class keeps getting wrong; read on app.worker's STORE lane whenever the statistics are."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent

from app.errors import describe
from app.views.exercises import ProgressView
from app.worker import STORE, Report, run_job

if TYPE_CHECKING:
    from app.views.teacher import Dashboard


class ClassProgressView(ProgressView):
    """ProgressView over every learner (or the one selected in the dashboard), with the class columns."""

    def __init__(self, dashboard: Dashboard) -> None:
        super().__init__(dashboard.tabs, per_learner=False)
        self.dashboard = dashboard

    def changeEvent(self, event: QEvent) -> None:
        """Rename the tab in the new language too."""
        if event.type() == QEvent.Type.LanguageChange:
            self._name_tab()
        super().changeEvent(event)

    def _name_tab(self) -> None:
        tabs = self.dashboard.tabs
        if tabs.indexOf(self) >= 0:
            tabs.setTabText(tabs.indexOf(self), self.tr("Exercises"))

    def load(self, *_: Any) -> None:
        """Read the progress of the selected learner (or the class) in the background, then draw it."""
        store, learner = self.dashboard.store, self.dashboard.selected_learner()
        if store is None:
            self.show_progress(None)
            return
        self.per_learner = learner is not None

        def op(_: Report) -> dict[str, Any]:
            from tutor.practice import progress

            return progress(store, learner)

        def failed(exc: Exception) -> None:
            self.dashboard.failed.emit(describe(exc, self.tr("reading the class's exercises")))

        run_job(op, success=self.show_progress, failure=failed, receiver=self, name="class practice", lane=STORE)


def install(dashboard: Dashboard) -> ClassProgressView:
    """Add the Exercises tab to the teacher's dashboard; it reloads whenever the statistics do."""
    view = ClassProgressView(dashboard)
    dashboard.tabs.addTab(view, "")
    view._name_tab()
    dashboard.stats_ready.connect(view.load)
    return view
