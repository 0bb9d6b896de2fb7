"""Teacher review behind the store's teacher passphrase: every learner, their history, statistics, latency,
CSV export; it locks itself after 10 idle minutes."""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
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

from app.colours import AMBER, AMBER_BACKGROUND, RED
from app.errors import describe
from app.labels import person_label, tense_label, week_label
from app.settings import AppSettings
from app.views.charts import BarChart, ColumnChart
from app.views.history import HistoryView
from app.views.panel import Panel, set_text_colour
from app.worker import STORE, Report, run_job

if TYPE_CHECKING:
    from tutor.store import Store

ALL_LEARNERS = object()  # the list entry that stands for everyone


class LockPage(QWidget):
    """Asks for the teacher passphrase (kept in the store as an scrypt hash; wrong tries are throttled)."""

    unlocked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store: Store | None = None
        self.checking = False  # a passphrase check (scrypt, about half a second) runs in the background
        self.heading = QLabel(self)
        self._scale_heading()
        self.explain = QLabel(self)
        self.explain.setWordWrap(True)
        self.passphrase = QLineEdit(self)
        self.passphrase.setEchoMode(QLineEdit.EchoMode.Password)
        self.passphrase_label = QLabel(self)
        self.passphrase_label.setBuddy(self.passphrase)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        set_text_colour(self.error, RED)
        self.button = QPushButton(self)
        form = QFormLayout()
        form.addRow(self.passphrase_label, self.passphrase)
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

    def set_store(self, store: Store | None) -> None:
        """Check passphrases against this store (None: the database is unavailable, nothing opens)."""
        self.store = store
        self.passphrase.setEnabled(store is not None)
        self.button.setEnabled(store is not None)
        self.retranslate()

    def retranslate(self) -> None:
        """Set the texts in the current language."""
        self.passphrase_label.setText(self.tr("Passphr&ase:"))
        self.passphrase.setAccessibleName(self.tr("Teacher passphrase"))
        self.heading.setText(self.tr("Teacher review is locked"))
        if self.store is None:
            self.explain.setText(self.tr("The history database is not available, so Teacher review stays locked."))
        else:
            self.explain.setText(self.tr("Enter the teacher passphrase to see every learner's work."))
        self.button.setText(self.tr("&Unlock"))

    def submit(self) -> None:
        """Check the passphrase in the background; emit `unlocked` when it is right."""
        from tutor.store.lock import SecretLock

        if self.store is None or self.checking:
            return
        store, secret = self.store, self.passphrase.text()
        self._set_checking(True)
        run_job(lambda _: SecretLock(store).check_teacher(secret), success=lambda right: self._checked(store, right),
                failure=lambda exc: self._refused(store, exc), receiver=self, name="passphrase check", lane=STORE)

    def _set_checking(self, checking: bool) -> None:
        self.checking = checking
        self.button.setEnabled(not checking and self.store is not None)
        self.passphrase.setReadOnly(checking)  # read-only, not disabled: the cursor stays in the field

    def _checked(self, store: Store, right: bool) -> None:
        self._set_checking(False)
        if store is not self.store:
            return  # another database since: this answer is not about it
        if not right:
            self._fail(self.tr("That passphrase is not right. Try again."))
            return
        self.passphrase.clear()
        self.error.clear()
        self.unlocked.emit()

    def _refused(self, store: Store, exc: Exception) -> None:
        from tutor.store.lock import Throttled

        self._set_checking(False)
        if store is not self.store:
            return
        if isinstance(exc, Throttled):
            self._fail(self.tr("Too many wrong tries. Wait {0} s, then try again.").format(math.ceil(exc.retry_after)))
        else:
            self._fail(describe(exc))

    def _fail(self, text: str) -> None:
        self.error.setText(text)
        self.error.setAccessibleName(text)
        self.passphrase.selectAll()
        self.passphrase.setFocus()


class SetPassphraseDialog(QDialog):
    """Sets or changes the teacher passphrase: the new one twice, and the current one when changing it."""

    def __init__(self, store: Store, parent: QWidget | None = None, *, changing: bool) -> None:
        """`changing`: a passphrase is set already (the TeacherView knows), so the current one is asked too."""
        from tutor.store.lock import PASSPHRASE_MIN_LENGTH, SecretLock

        super().__init__(parent)
        self.lock = SecretLock(store)
        self.changing = changing
        self.setWindowTitle(self.tr("Change the teacher passphrase") if self.changing
                            else self.tr("Set a teacher passphrase"))
        self.current, self.new, self.repeat = QLineEdit(self), QLineEdit(self), QLineEdit(self)
        form = QFormLayout()
        for field, label, name in (
            (self.current, self.tr("&Current passphrase:"), self.tr("Current teacher passphrase")),
            (self.new, self.tr("&New passphrase:"), self.tr("New teacher passphrase")),
            (self.repeat, self.tr("&Repeat it:"), self.tr("Repeat the new teacher passphrase")),
        ):
            field.setEchoMode(QLineEdit.EchoMode.Password)
            field.setAccessibleName(name)
            caption = QLabel(label, self)
            caption.setBuddy(field)
            form.addRow(caption, field)
            if field is self.current and not self.changing:
                caption.hide()
                field.hide()
        note = QLabel(self.tr(
            "At least {0} characters. It guards Teacher review here and `grammar-tutor history` and every export"
            " on this database. Anyone who can copy the database file can still read it with other tools."
        ).format(PASSPHRASE_MIN_LENGTH), self)
        note.setWordWrap(True)
        self.error = QLabel(self)
        self.error.setWordWrap(True)
        set_text_colour(self.error, RED)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(self.error)
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        (self.current if self.changing else self.new).setFocus()

    def accept(self) -> None:
        """Save the new passphrase when both copies match and the current one is right; else say why."""
        from tutor.store.lock import PASSPHRASE_MIN_LENGTH, Throttled

        new = self.new.text()
        if len(new) < PASSPHRASE_MIN_LENGTH:
            self._fail(self.tr("The passphrase needs at least {0} characters.").format(PASSPHRASE_MIN_LENGTH))
            return
        if new != self.repeat.text():
            self._fail(self.tr("The two passphrases differ; type the same one twice."))
            return
        if not self.buttons.isEnabled():
            return  # the last one is still being saved
        lock, current = self.lock, self.current.text() if self.changing else None
        self.buttons.setEnabled(False)  # scrypt runs in the background

        def refused(exc: Exception) -> None:
            self.buttons.setEnabled(True)
            if isinstance(exc, Throttled):
                self._fail(self.tr("Too many wrong tries. Wait {0} s, then try again.").format(
                    math.ceil(exc.retry_after)))
            else:
                self._fail(describe(exc))

        run_job(lambda _: lock.set_teacher(new, current=current), success=lambda _: self._saved(), failure=refused,
                receiver=self, name="set passphrase", lane=STORE)

    def _saved(self) -> None:
        self.buttons.setEnabled(True)
        super().accept()

    def _fail(self, text: str) -> None:
        self.error.setText(text)
        self.error.setAccessibleName(text)


class Dashboard(QWidget):
    """The unlocked teacher page."""

    lock_requested = Signal()
    passphrase_requested = Signal()
    stats_ready = Signal(object)
    exported = Signal(int, str)  # rows written, path
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store: Store | None = None
        self._listing = 0  # bumped by every refresh; an older learner list is dropped
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
        self.passphrase_button = QPushButton(self)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        # Shown while no teacher passphrase is set: a banner above the learners and the sub-tabs, wrapped, so
        # the whole warning is read and the Statistics / History / Latency tabs keep their room.
        self.open_banner = Panel(self, radius=4)
        self.open_banner.set_colours(AMBER_BACKGROUND, AMBER)
        self.open_warning = QLabel(self.open_banner)
        self.open_warning.setWordWrap(True)
        set_text_colour(self.open_warning, AMBER)
        banner_layout = QHBoxLayout(self.open_banner)
        banner_layout.setContentsMargins(10, 6, 10, 6)
        banner_layout.addWidget(self.open_warning)
        self.protected = False

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
        buttons.addWidget(self.passphrase_button)
        buttons.addWidget(self.lock_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.open_banner)
        layout.addWidget(splitter, 1)
        layout.addLayout(buttons)

        self.learners.currentItemChanged.connect(self._learner_changed)
        self.export_button.clicked.connect(self.export_csv)
        self.refresh_button.clicked.connect(self.refresh)
        self.lock_button.clicked.connect(self.lock_requested)
        self.passphrase_button.clicked.connect(self.passphrase_requested)
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
        self.passphrase_button.setText(self.tr("Change &passphrase…") if self.protected
                                       else self.tr("Set &passphrase…"))
        self.open_warning.setText(self.tr(
            "Not protected: no teacher passphrase is set, so anyone using this computer can open this page and"
            " export every learner's history. Set passphrase… protects it."))
        if self.learners.count():
            self.learners.item(0).setText(self.tr("All learners"))
        if self._stats is not None:
            self._show_stats(self._stats)

    def set_protected(self, protected: bool) -> None:
        """Show whether a teacher passphrase guards this page (Lock works only then)."""
        self.protected = protected
        self.open_banner.setVisible(not protected)
        self.lock_button.setEnabled(protected)
        self.retranslate()

    def set_store(self, store: Store | None) -> None:
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
        """Reload the learner list in the background, keeping the selection, then the history and statistics.

        Without a store the list empties at once (a locked page shows nobody's name while a read runs)."""
        self._listing += 1
        listing, store = self._listing, self.store
        if store is None:
            self._fill_learners(listing, [])
            return

        def failed(exc: Exception) -> None:
            if listing == self._listing:
                self.failed.emit(describe(exc))
                self._fill_learners(listing, [])

        run_job(lambda _: store.learners(), success=lambda rows: self._fill_learners(listing, rows), failure=failed,
                receiver=self, name="teacher learners", lane=STORE)

    def _fill_learners(self, listing: int, rows: list[dict[str, Any]]) -> None:
        if listing != self._listing:
            return
        keep = self.selected_learner()
        self.learners.blockSignals(True)
        self.learners.clear()
        everyone = QListWidgetItem(self.tr("All learners"))
        everyone.setData(Qt.ItemDataRole.UserRole, ALL_LEARNERS)
        self.learners.addItem(everyone)
        for row in rows:
            # the number the charts add up to; the History sub-tab lists every row (the tooltip says both)
            item = QListWidgetItem(f"{row['name']} ({row['counted']})")
            item.setToolTip(self._count_tip(row["counted"], row["corrections"]))
            item.setData(Qt.ItemDataRole.UserRole, row["name"])
            self.learners.addItem(item)
        selected = 0
        for index in range(1, self.learners.count()):
            if self.learners.item(index).data(Qt.ItemDataRole.UserRole) == keep:
                selected = index
        self.learners.setCurrentRow(selected)
        self.learners.blockSignals(False)
        self._learner_changed()

    def _count_tip(self, counted: int, rows: int) -> str:
        if counted == rows:
            return self.tr("{0} corrections, all in the statistics").format(counted)
        return self.tr("{0} corrections in the statistics; the history also lists {1} retries of past mistakes and"
                       " findings I was not sure of").format(counted, rows - counted)

    def _learner_changed(self, *_: Any) -> None:
        learner = self.selected_learner()
        self.history.set_source(self.store, learner, all_learners=learner is None)
        self.export_button.setEnabled(self.store is not None)
        self.passphrase_button.setEnabled(self.store is not None)
        self.load_stats()

    def load_stats(self) -> None:
        """Compute the statistics in the background, then draw them."""
        if self.store is None:
            self._show_stats(({}, [], []))
            return
        store, learner = self.store, self.selected_learner()
        self.status.setText(self.tr("Computing statistics…"))

        def op(_: Report) -> tuple[Any, Any, Any]:
            return store.error_counts(learner), store.progress_by_week(learner), store.latency_summary()

        run_job(op, success=self._on_stats, failure=self._on_failure, receiver=self, name="statistics", lane=STORE)

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
            [(week_label(w["week"]), (w["total"], w["errors"])) for w in weeks],
            self.tr("No corrections yet."),
        )
        self._show_latency(latency)

    def _show_latency(self, latency: list[dict[str, Any]]) -> None:
        if not any(model["timed"] or model["corrections"] for model in latency):
            self.latency_text.setText(self.tr("No timings yet: correct a sentence first."))
            self.latency_chart.set_data(self.tr("Time per correction"), [], [], self.tr("No timings yet."))
            return
        lines = []
        for model in latency:
            name = model["model_name"] or self.tr("unknown model")
            if model["timed"]:
                lines.append(self.tr("{0}: {1} corrections · {2:.0f} ms per correction (median), p99 {3:.0f} ms")
                             .format(name, model["timed"], model["total_p50_ms"], model["total_p99_ms"]))
            if model["corrections"]:  # only the ablations sample under the mask; the default forces its answer
                lines.append(self.tr(
                    "{0}: {1} corrections sampled under the mask · mask p50 {2:.1f} µs/token, p99 {3:.1f} µs,"
                    " max {4:.1f} µs").format(name, model["corrections"], model["mask_p50_us"], model["mask_p99_us"],
                                            model["mask_max_us"]))
        self.latency_text.setText("\n".join(lines))
        busiest = max(latency, key=lambda model: model["timed"])
        rows = []
        previous = 0.0
        for bucket in busiest["time_histogram"]:
            edge = bucket["le_ms"]
            label = f"≤{edge:g}" if edge is not None else f">{previous:g}"
            rows.append((label, (bucket["count"],)))
            previous = edge if edge is not None else previous
        while rows and rows[-1][1][0] == 0:  # drop the empty ends so the bars stay readable
            rows.pop()
        while len(rows) > 1 and rows[0][1][0] == 0 and rows[1][1][0] == 0:
            rows.pop(0)
        self.latency_chart.set_data(
            self.tr("Time per correction (ms) · {0}").format(busiest["model_name"]),
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

        def op(_: Report) -> int:
            return store.export("csv", path, learner)

        def done(rows: int) -> None:
            self.status.setText(self.tr("Exported {0} corrections to {1}.").format(rows, path))
            self.exported.emit(rows, path)

        def failed(exc: Exception) -> None:
            self.status.clear()
            self.failed.emit(describe(exc, self.tr("exporting the history")))

        run_job(op, success=done, failure=failed, receiver=self, name="export", lane=STORE)


class TeacherView(QStackedWidget):
    """The dashboard behind the teacher passphrase once one is set (open, with a warning, until then).

    Lock, or 10 minutes without a key press or click while it is open, returns to the lock page.
    """

    IDLE_MS = 10 * 60 * 1000
    _ACTIVITY = frozenset({QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel})

    def __init__(self, settings: AppSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.lock_page = LockPage(self)
        self.dashboard = Dashboard(self)
        self.addWidget(self.lock_page)
        self.addWidget(self.dashboard)
        self.store: Store | None = None
        self.protected = True  # a teacher passphrase is set in the store (until the store says it is not)
        self.passphrase_dialog: SetPassphraseDialog | None = None
        self.idle = QTimer(self)
        self.idle.setSingleShot(True)
        self.idle.setInterval(self.IDLE_MS)
        self.idle.timeout.connect(self.lock)
        self.lock_page.unlocked.connect(self.unlock)
        self.dashboard.lock_requested.connect(self.lock)
        self.dashboard.passphrase_requested.connect(self.ask_set_passphrase)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)  # any key or click in the app counts as activity

    def eventFilter(self, watched: Any, event: QEvent) -> bool:
        """Restart the idle timer on the user's activity while the dashboard is open."""
        if event.type() in self._ACTIVITY and self.idle.isActive():
            self.idle.start()
        return False

    def is_unlocked(self) -> bool:
        """Return True while the dashboard is on show."""
        return self.currentWidget() is self.dashboard

    def set_store(self, store: Store | None) -> None:
        """Use this store: locked at once, and while it has a passphrase (or is unavailable); open with a
        warning once the store (read in the background) says no passphrase is set."""
        from tutor.store.lock import SecretLock

        self.store = store
        self.lock_page.set_store(store)
        self.protected = True  # when in doubt, stay locked
        self.dashboard.set_protected(store is not None)
        self.idle.stop()
        self.dashboard.set_store(None)
        self.setCurrentWidget(self.lock_page)
        if store is None:
            return

        def failed(exc: Exception) -> None:
            if store is self.store:
                self.dashboard.failed.emit(describe(exc))

        run_job(lambda _: SecretLock(store).teacher_set(), success=lambda found: self._protection_read(store, found),
                failure=failed, receiver=self, name="teacher protection", lane=STORE)

    def _protection_read(self, store: Store, protected: bool) -> None:
        if store is not self.store or protected:
            return  # another database since, or locked already as it should be
        self.protected = False
        self.dashboard.set_protected(False)
        self.setCurrentWidget(self.dashboard)
        self.dashboard.store = store  # loaded when the page is shown (the window refreshes it then)
        if self.isVisible():
            self.dashboard.refresh()

    def unlock(self) -> None:
        """Show the dashboard with fresh data; it locks itself again after IDLE_MS without activity."""
        self.setCurrentWidget(self.dashboard)
        self.dashboard.set_store(self.store)
        self.dashboard.learners.setFocus()
        if self.protected:
            self.idle.start()

    def lock(self) -> None:
        """Hide every learner's data behind the passphrase again (nothing to lock until one is set)."""
        if not self.protected:
            return
        self.idle.stop()
        self.dashboard.set_store(None)
        self.setCurrentWidget(self.lock_page)
        self.lock_page.passphrase.setFocus()

    def ask_set_passphrase(self) -> None:
        """Open the dialog that sets (or changes) the teacher passphrase, asking for it twice."""
        if self.store is None:
            return
        dialog = SetPassphraseDialog(self.store, self, changing=self.protected)
        self.passphrase_dialog = dialog
        dialog.accepted.connect(self._passphrase_set)
        dialog.open()

    def _passphrase_set(self) -> None:
        self.protected = True
        self.dashboard.set_protected(True)
        self.dashboard.status.setText(self.tr("The teacher passphrase is set. Lock locks this page."))
        if self.is_unlocked():
            self.idle.start()
