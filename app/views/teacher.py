"""Teacher review behind a passphrase: every learner, their history, statistics, latency, CSV export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.errors import describe
from app.labels import person_label, tense_label
from app.passphrase import MIN_LENGTH, hash_secret, verify_secret
from app.settings import AppSettings
from app.views.charts import BarChart, ColumnChart
from app.views.history import HistoryView
from app.views.panel import set_text_colour
from app.worker import run_job

ALL_LEARNERS = object()  # the list entry that stands for everyone


class LockPage(QWidget):
    """Asks for the teacher passphrase; on first use, asks to choose one (stored as an scrypt hash)."""

    unlocked = Signal()

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.heading = QLabel(self)
        self._scale_heading()
        self.explain = QLabel(self)
        self.explain.setWordWrap(True)
        self.passphrase = QLineEdit(self)
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.confirm = QLineEdit(self)
        self.confirm.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase_label, self.confirm_label = QLabel(self), QLabel(self)
        self.passphrase_label.setBuddy(self.passphrase)
        self.confirm_label.setBuddy(self.confirm)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        set_text_colour(self.error, "#b3261e")
        self.button = QPushButton(self)
        form = QFormLayout()
        form.addRow(self.passphrase_label, self.passphrase)
        form.addRow(self.confirm_label, self.confirm)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.heading)
        layout.addWidget(self.explain)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addStretch(2)
        self.button.clicked.connect(self.submit)
        self.passphrase.returnPressed.connect(self.submit)
        self.confirm.returnPressed.connect(self.submit)
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() == QEvent.Type.FontChange:
            self._scale_heading()
        super().changeEvent(event)

    def _scale_heading(self) -> None:
        font = QFont(self.font())
        font.setPointSizeF(font.pointSizeF() * 1.3)
        font.setBold(True)
        self.heading.setFont(font)

    def first_use(self) -> bool:
        """Return True while no passphrase has been set."""
        return not self.settings.teacher_hash

    def retranslate(self) -> None:
        """Set the texts for 'choose a passphrase' or 'enter the passphrase'."""
        first = self.first_use()
        self.confirm.setVisible(first)
        self.confirm_label.setVisible(first)
        self.passphrase_label.setText(self.tr("Passphr&ase:"))
        self.confirm_label.setText(self.tr("Repeat &it:"))
        self.passphrase.setAccessibleName(self.tr("Teacher passphrase"))
        self.confirm.setAccessibleName(self.tr("Repeat the teacher passphrase"))
        if first:
            self.heading.setText(self.tr("Choose a teacher passphrase"))
            self.explain.setText(
                self.tr(
                    "Teacher review shows every learner's history. Choose a passphrase of at least {0}"
                    " characters; learners will need it to open this page, so keep it to yourself."
                ).format(MIN_LENGTH)
            )
            self.button.setText(self.tr("Set passphrase and &open"))
        else:
            self.heading.setText(self.tr("Teacher review is locked"))
            self.explain.setText(self.tr("Enter the teacher passphrase to see every learner's work."))
            self.button.setText(self.tr("&Unlock"))

    def submit(self) -> None:
        """Set or check the passphrase; emit `unlocked` when it is right."""
        secret = self.passphrase.text()
        if self.first_use():
            if len(secret) < MIN_LENGTH:
                self._fail(self.tr("The passphrase needs at least {0} characters.").format(MIN_LENGTH))
                return
            if secret != self.confirm.text():
                self._fail(self.tr("The two passphrases differ; type the same one twice."))
                return
            self.settings.teacher_hash = hash_secret(secret)
            self.settings.sync()
        elif not verify_secret(secret, self.settings.teacher_hash):
            self._fail(self.tr("That passphrase is not right. Try again."))
            return
        self.passphrase.clear()
        self.confirm.clear()
        self.error.clear()
        self.retranslate()
        self.unlocked.emit()

    def _fail(self, text: str) -> None:
        self.error.setText(text)
        self.error.setAccessibleName(text)
        self.passphrase.selectAll()
        self.passphrase.setFocus()


class Dashboard(QWidget):
    """The unlocked teacher page."""

    lock_requested = Signal()
    stats_ready = Signal(object)
    exported = Signal(int, str)  # rows written, path
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store: Any = None
        self.learners_label = QLabel(self)
        self.learners = QListWidget(self)
        self.learners_label.setBuddy(self.learners)
        self.tabs = QTabWidget(self)
        self.history = HistoryView(self, with_review=False)
        self.verb_chart, self.tense_chart, self.person_chart = BarChart(), BarChart(), BarChart()
        self.week_chart = ColumnChart()
        self.latency_chart = ColumnChart()
        self.latency_text = QLabel()
        self.latency_text.setWordWrap(True)
        self.latency_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        stats = QWidget()
        stats_layout = QGridLayout(stats)
        stats_layout.addWidget(self.week_chart, 0, 0, 1, 2)
        stats_layout.addWidget(self.verb_chart, 1, 0, 2, 1)
        stats_layout.addWidget(self.tense_chart, 1, 1)
        stats_layout.addWidget(self.person_chart, 2, 1)
        stats_layout.setRowStretch(3, 1)
        stats_layout.setHorizontalSpacing(24)
        self.stats_scroll = QScrollArea()
        self.stats_scroll.setWidget(stats)
        self.stats_scroll.setWidgetResizable(True)
        latency = QWidget()
        latency_layout = QVBoxLayout(latency)
        latency_layout.addWidget(self.latency_text)
        latency_layout.addWidget(self.latency_chart, 1)
        self.tabs.addTab(self.stats_scroll, "")
        self.tabs.addTab(self.history, "")
        self.tabs.addTab(latency, "")

        self.export_button = QPushButton(self)
        self.refresh_button = QPushButton(self)
        self.lock_button = QPushButton(self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)

        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.learners_label)
        left_layout.addWidget(self.learners, 1)
        splitter = QSplitter(self)
        splitter.addWidget(left)
        splitter.addWidget(self.tabs)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([180, 600])
        splitter.setChildrenCollapsible(False)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.lock_button)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)

        self.learners.currentItemChanged.connect(self._learner_changed)
        self.export_button.clicked.connect(self.export_csv)
        self.refresh_button.clicked.connect(self.refresh)
        self.lock_button.clicked.connect(self.lock_requested)
        self._stats: tuple[Any, Any, Any] | None = None
        self.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Set every fixed text in the current language and redraw the charts' labels."""
        self.learners_label.setText(self.tr("Lea&rners:"))
        self.learners.setAccessibleName(self.tr("Learners"))
        self.tabs.setTabText(0, self.tr("Statistics"))
        self.tabs.setTabText(1, self.tr("History"))
        self.tabs.setTabText(2, self.tr("Latency"))
        self.export_button.setText(self.tr("E&xport CSV…"))
        self.export_button.setToolTip(self.tr("Save the selected learner's history (or everyone's) as CSV"))
        self.refresh_button.setText(self.tr("Refre&sh"))
        self.lock_button.setText(self.tr("Loc&k"))
        if self.learners.count():
            self.learners.item(0).setText(self.tr("All learners"))
        if self._stats is not None:
            self._show_stats(self._stats)

    def set_store(self, store: Any) -> None:
        """Use this store (None when the database is unavailable) and reload everything."""
        self.store = store
        self.refresh()

    def selected_learner(self) -> str | None:
        """Return the selected learner's name, or None for 'All learners'."""
        item = self.learners.currentItem()
        if item is None:
            return None
        value = item.data(Qt.ItemDataRole.UserRole)
        return None if value is ALL_LEARNERS else str(value)

    def refresh(self) -> None:
        """Reload the learner list, keeping the selection, then the history and statistics."""
        keep = self.selected_learner()
        self.learners.blockSignals(True)
        self.learners.clear()
        everyone = QListWidgetItem(self.tr("All learners"))
        everyone.setData(Qt.ItemDataRole.UserRole, ALL_LEARNERS)
        self.learners.addItem(everyone)
        rows = []
        if self.store is not None:
            try:
                rows = self.store.learners()
            except Exception as exc:
                self.failed.emit(describe(exc))
        for row in rows:
            item = QListWidgetItem(f"{row['name']} ({row['corrections']})")
            item.setData(Qt.ItemDataRole.UserRole, row["name"])
            self.learners.addItem(item)
        selected = 0
        for index in range(1, self.learners.count()):
            if self.learners.item(index).data(Qt.ItemDataRole.UserRole) == keep:
                selected = index
        self.learners.setCurrentRow(selected)
        self.learners.blockSignals(False)
        self._learner_changed()

    def _learner_changed(self, *_: Any) -> None:
        learner = self.selected_learner()
        self.history.set_source(self.store, learner, all_learners=learner is None)
        self.export_button.setEnabled(self.store is not None)
        self.load_stats()

    def load_stats(self) -> None:
        """Compute the statistics in the background, then draw them."""
        if self.store is None:
            self._show_stats(({}, [], []))
            return
        store, learner = self.store, self.selected_learner()
        self.status.setText(self.tr("Computing statistics…"))

        def op(report: Any) -> tuple[Any, Any, Any]:
            return store.error_counts(learner), store.progress_by_week(learner), store.latency_summary()

        run_job(op, success=self._on_stats, failure=self._on_failure, receiver=self, name="statistics")

    def _on_stats(self, stats: tuple[Any, Any, Any]) -> None:
        self.status.clear()
        self._show_stats(stats)
        self.stats_ready.emit(stats)

    def _on_failure(self, exc: Exception) -> None:
        self.status.clear()
        self.failed.emit(describe(exc, self.tr("reading the statistics")))

    def _show_stats(self, stats: tuple[Any, Any, Any]) -> None:
        self._stats = stats
        counts, weeks, latency = stats
        empty = self.tr("No mistakes yet.")
        self.verb_chart.set_data(
            self.tr("Mistakes per verb"),
            [self.tr("mistakes")],
            [(k, (v,)) for k, v in counts.get("verb", {}).items()],
            empty,
        )
        self.tense_chart.set_data(
            self.tr("Mistakes per tense"),
            [self.tr("mistakes")],
            [(tense_label(k), (v,)) for k, v in counts.get("tense", {}).items()],
            empty,
        )
        self.person_chart.set_data(
            self.tr("Mistakes per person"),
            [self.tr("mistakes")],
            [(person_label(k), (v,)) for k, v in counts.get("person", {}).items()],
            empty,
        )
        self.week_chart.set_data(
            self.tr("Corrections per week"),
            [self.tr("corrections"), self.tr("mistakes")],
            [(str(w["week"])[5:], (w["total"], w["errors"])) for w in weeks],
            self.tr("No corrections yet."),
        )
        self._show_latency(latency)

    def _show_latency(self, latency: list[dict[str, Any]]) -> None:
        if not latency:
            self.latency_text.setText(self.tr("No timings yet: correct a sentence first."))
            self.latency_chart.set_data(self.tr("Masking time per token"), [], [], self.tr("No timings yet."))
            return
        lines = []
        for model in latency:
            lines.append(
                self.tr("{0}: {1} corrections · mask p50 {2:.1f} µs/token, p99 {3:.1f} µs, max {4:.1f} µs").format(
                    model["model_name"] or self.tr("unknown model"),
                    model["corrections"],
                    model["mask_p50_us"],
                    model["mask_p99_us"],
                    model["mask_max_us"],
                )
            )
        self.latency_text.setText("\n".join(lines))
        first = latency[0]
        rows = []
        previous = 0.0
        for bucket in first["histogram"]:
            edge = bucket["le_us"]
            label = f"≤{edge:g}" if edge is not None else f">{previous:g}"
            rows.append((label, (bucket["count"],)))
            previous = edge if edge is not None else previous
        while rows and rows[-1][1][0] == 0:  # drop the empty ends so the bars stay readable
            rows.pop()
        while len(rows) > 1 and rows[0][1][0] == 0 and rows[1][1][0] == 0:
            rows.pop(0)
        self.latency_chart.set_data(
            self.tr("Masking time per token (µs, median of each correction) · {0}").format(first["model_name"]),
            [self.tr("corrections")],
            rows,
            self.tr("No timings yet."),
        )

    def ask_export_path(self) -> str:
        """Ask where to save the CSV; return '' when cancelled."""
        learner = self.selected_learner() or "all-learners"
        suggested = str(Path.home() / f"grammar-tutor-{learner}.csv")
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export history as CSV"), suggested, self.tr("CSV files (*.csv)")
        )
        return path

    def export_csv(self) -> None:
        """Export the selected learner's history (or everyone's) to a CSV file, in the background."""
        if self.store is None:
            return
        path = self.ask_export_path()
        if not path:
            return
        store, learner = self.store, self.selected_learner()
        self.status.setText(self.tr("Exporting…"))

        def op(report: Any) -> int:
            return store.export("csv", path, learner)

        def done(rows: int) -> None:
            self.status.setText(self.tr("Exported {0} corrections to {1}.").format(rows, path))
            self.exported.emit(rows, path)

        def failed(exc: Exception) -> None:
            self.status.clear()
            self.failed.emit(describe(exc, self.tr("exporting the history")))

        run_job(op, success=done, failure=failed, receiver=self, name="export")


class TeacherView(QStackedWidget):
    """The lock page until the passphrase is given, then the dashboard; Lock returns to the lock page."""

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lock_page = LockPage(settings, self)
        self.dashboard = Dashboard(self)
        self.addWidget(self.lock_page)
        self.addWidget(self.dashboard)
        self.store: Any = None
        self.lock_page.unlocked.connect(self.unlock)
        self.dashboard.lock_requested.connect(self.lock)

    def is_unlocked(self) -> bool:
        """Return True while the dashboard is on show."""
        return self.currentWidget() is self.dashboard

    def set_store(self, store: Any) -> None:
        """Use this store; the dashboard reloads only while unlocked."""
        self.store = store
        if self.is_unlocked():
            self.dashboard.set_store(store)

    def unlock(self) -> None:
        """Show the dashboard with fresh data."""
        self.setCurrentWidget(self.dashboard)
        self.dashboard.set_store(self.store)
        self.dashboard.learners.setFocus()

    def lock(self) -> None:
        """Hide every learner's data behind the passphrase again."""
        self.dashboard.set_store(None)
        self.setCurrentWidget(self.lock_page)
        self.lock_page.passphrase.setFocus()
