"""The main window: learner bar, the Sentence / History / Teacher / Text / Exercises tabs, messages, status line
and menus."""

from __future__ import annotations

import logging
from html import escape
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMessageBox, QProgressBar, QTabWidget, QVBoxLayout, QWidget

from app import worker
from app.context import ViewContext
from app.errors import describe
from app.labels import licence_label
from app.settings import AppSettings
from app.translation import install_language
from app.views import class_progress, class_server
from app.views.class_server import ClassMenus
from app.views.elided_label import ElidedLabel
from app.views.exercises import ExercisesView
from app.views.history import HistoryView
from app.views.learners import LearnerBar
from app.views.messages import MessageArea
from app.views.practice import PracticeView
from app.views.settings_dialog import SettingsDialog
from app.views.teacher import TeacherView
from app.views.text_check import TextCheckView
from tutor import __version__
from tutor.catalogue import default_model_name
from tutor.errors import InputError, StoreError
from tutor.result import OUTSIDE_VERBS, PLURAL_SUBJECT, CorrectionResult
from tutor.tutoring import Recorded, Tutoring

if TYPE_CHECKING:
    from tutor.api import Tutor
    from tutor.store import Store

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    """The whole app. Slow work (model load, correction, statistics, export) goes through app.worker."""

    model_ready = Signal()
    model_failed = Signal(str)
    correction_done = Signal(object)  # the CorrectionResult, after the card is drawn and the row saved
    correction_failed = Signal(str)

    def __init__(
        self,
        settings: AppSettings,
        *,
        db: str | None = None,
        tutor: Tutor | None = None,
        load_model: bool = True,
    ) -> None:
        """`tutor` is a loaded engine (tests share one); otherwise the model loads in the background."""
        super().__init__()
        self.settings = settings
        self.db = db
        self.tutor: Tutor | None = None
        self.store: Store | None = None
        self.review: list[dict[str, Any]] = []
        self.review_index = -1
        self.settings_dialog: SettingsDialog | None = None
        self.about_box: QMessageBox | None = None
        self.loading = False
        self.shown_result: CorrectionResult | None = None  # the correction the status line speaks of
        self.practice_pushed: dict[str, int] | None = None  # what the class server merged of the last push

        self.messages = MessageArea(self)
        # the pages see the window only through this context; the window places their tabs and actions
        self.context = ViewContext(self.use_case, lambda: self.store, self.messages, self)
        self.learner_bar = LearnerBar(settings, self)
        self.practice = PracticeView(self)
        self.history = HistoryView(self)
        self.teacher = TeacherView(settings, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.practice, "")
        self.tabs.addTab(self.history, "")
        self.tabs.addTab(self.teacher, "")
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.addWidget(self.messages)
        layout.addWidget(self.learner_bar)
        layout.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

        self.model_label = ElidedLabel(self)
        self.load_progress = QProgressBar(self)
        self.load_progress.setRange(0, 100)
        self.load_progress.setMaximumWidth(220)
        self.load_progress.hide()
        self.mask_label = ElidedLabel(self, elide=Qt.TextElideMode.ElideLeft)
        self.mask_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.statusBar().addWidget(self.model_label, 2)
        self.statusBar().addWidget(self.load_progress)
        self.statusBar().addWidget(self.mask_label, 3)

        self._make_actions()
        self.class_menus = ClassMenus(self.context, settings.q, self.teacher.is_unlocked, self)
        self.text_view = TextCheckView(self.context, self)  # whole texts, underlined in place
        self.exercises = ExercisesView(self.context, self)  # practise my mistakes, progress
        self.exercises.daily = settings.daily_schedule
        self._place_pages()
        self.class_progress = class_progress.install(self.teacher.dashboard)  # the teacher's Practice tab
        self.practice.correct_requested.connect(self.correct)
        self.practice.review_next_requested.connect(self.next_review)
        self.practice.review_stop_requested.connect(self.stop_review)
        self.history.review_requested.connect(self.start_review)
        self.history.model.failed.connect(self._on_store_failure)
        self.teacher.dashboard.history.model.failed.connect(self._on_store_failure)
        self.teacher.dashboard.failed.connect(lambda text: self.messages.show_message(text, key="teacher"))
        self.learner_bar.learner_changed.connect(self._on_learner_changed)
        self.learner_bar.failed.connect(lambda text: self.messages.show_message(text, key="learner", level="warning"))
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.retranslate()
        self.resize(960, 720)

        self.open_store()
        if tutor is not None:
            self._on_model_loaded(tutor)
        elif load_model:
            self.load_model()
        self.practice.editor.setFocus()

    # -- chrome ----------------------------------------------------------------------------------

    def _make_actions(self) -> None:
        self.file_menu = self.menuBar().addMenu("")
        self.view_menu = self.menuBar().addMenu("")
        self.tools_menu = self.menuBar().addMenu("")
        self.help_menu = self.menuBar().addMenu("")
        self.new_learner_action = QAction(self, shortcut=QKeySequence("Ctrl+N"))
        self.new_learner_action.triggered.connect(self.learner_bar.ask_new_learner)
        self.export_action = QAction(self, shortcut=QKeySequence("Ctrl+E"))
        self.export_action.triggered.connect(self.export_csv)
        self.quit_action = QAction(self, shortcut=QKeySequence.StandardKey.Quit)
        self.quit_action.triggered.connect(self.close)
        self.file_menu.addActions([self.new_learner_action, self.export_action])
        self.file_menu.addSeparator()
        self.file_menu.addAction(self.quit_action)
        self.tab_actions = []
        for index in range(3):
            action = QAction(self, shortcut=QKeySequence(f"Ctrl+{index + 1}"))
            action.triggered.connect(lambda _=False, i=index: self.show_tab(i))
            self.tab_actions.append(action)
            self.view_menu.addAction(action)
        self.focus_sentence_action = QAction(self, shortcut=QKeySequence("Ctrl+L"))
        self.focus_sentence_action.triggered.connect(self.focus_sentence)
        self.view_menu.addAction(self.focus_sentence_action)
        self.settings_action = QAction(self, shortcut=QKeySequence("Ctrl+,"))
        self.settings_action.triggered.connect(self.open_settings)
        self.reload_action = QAction(self)
        self.reload_action.triggered.connect(self.load_model)
        self.tools_menu.addActions([self.settings_action, self.reload_action])
        self.about_action = QAction(self, shortcut=QKeySequence("F1"))
        self.about_action.triggered.connect(self.show_about)
        self.help_menu.addAction(self.about_action)

    @property
    def learner(self) -> str:
        """Return the learner in use ("" for none): the context's, which the pages follow."""
        return self.context.learner()

    @learner.setter
    def learner(self, name: str) -> None:
        self.context.set_learner(name)

    def _place_pages(self) -> None:
        """Put the pages' tabs and actions in the window: the Text (Ctrl+4) and Exercises (Ctrl+5) tabs in the
        View menu, the class actions in File, Teacher and Tools."""
        for page, keys, focus in ((self.text_view, "Ctrl+4", self.text_view.editor),
                                  (self.exercises, "Ctrl+5", self.exercises.answer)):
            self.tabs.addTab(page, page.title())
            page.show_action.setShortcut(QKeySequence(keys))
            page.show_action.triggered.connect(lambda _=False, p=page, f=focus: (self.tabs.setCurrentWidget(p),
                                                                                   f.setFocus()))
            self.view_menu.addAction(page.show_action)
        menus = self.class_menus
        menus.send_action.setShortcut(QKeySequence("Ctrl+Shift+S"))
        menus.import_action.setShortcut(QKeySequence("Ctrl+Shift+I"))
        menus.server_action.setShortcut(QKeySequence("Ctrl+Shift+K"))
        actions = self.file_menu.actions()
        after = actions.index(self.export_action) + 1
        self.file_menu.insertAction(actions[after] if after < len(actions) else None, menus.send_action)
        self.menuBar().insertMenu(self.tools_menu.menuAction(), menus.teacher_menu)
        self.tools_menu.addAction(menus.server_action)
        menus.teacher_needed.connect(self._show_teacher_lock)
        menus.imported.connect(lambda: self.teacher.dashboard.refresh() if self.teacher.is_unlocked() else None)
        self.model_ready.connect(self.context.use_case_changed)
        self.model_failed.connect(self.context.use_case_changed)
        self.context.use_case_changed.connect(self.text_view.update_ready)
        self.correction_done.connect(lambda _: self.exercises.reload() if self.tabs.currentWidget() is self.exercises
                                     else None)
        self.exercises.answered.connect(lambda _: self.push_practice())

    def push_practice(self) -> None:
        """Send the learner's practice state to the class server, when one is chosen, in the background; when it
        cannot be reached the state goes with the next answer (the server merges, so nothing is counted twice)."""
        remote = class_server.class_tutor(self.settings.q, self.store, lambda: self.tutor)
        learner = self.learner
        if remote is None or not learner:
            return

        def pushed(totals: dict[str, int] | None) -> None:
            self.practice_pushed = totals
            if totals is None:
                self.statusBar().showMessage(self.tr("The class server cannot be reached: your exercise answers "
                                                     "will be sent with the next one."), 8000)

        worker.run_job(lambda _: remote.push_practice(learner), success=pushed,
                       failure=lambda exc: pushed(None), receiver=self, name="push-practice")

    def _show_teacher_lock(self) -> None:
        """Show the Teacher page with the cursor in its passphrase box (it is locked)."""
        self.tabs.setCurrentWidget(self.teacher)
        self.teacher.lock_page.passphrase.setFocus()

    def use_case(self) -> Tutoring | None:
        """Return the local use case over the loaded model and the open store, or None while no model is ready."""
        if self.tutor is None or self.loading:
            return None
        return Tutoring(self.tutor, self.store)

    def changeEvent(self, event: QEvent) -> None:
        """Retranslate on a language switch."""
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def retranslate(self) -> None:
        """Set every fixed text of the window in the current language."""
        self.file_menu.setTitle(self.tr("&File"))
        self.view_menu.setTitle(self.tr("&View"))
        self.tools_menu.setTitle(self.tr("&Tools"))
        self.help_menu.setTitle(self.tr("&Help"))
        self.new_learner_action.setText(self.tr("&New learner…"))
        self.export_action.setText(self.tr("&Export history as CSV…"))
        self.quit_action.setText(self.tr("&Quit"))
        for action, text in zip(
            self.tab_actions,
            (self.tr("Se&ntence"), self.tr("&History"), self.tr("&Teacher review")),
            strict=True,
        ):
            action.setText(text)
        self.focus_sentence_action.setText(self.tr("Go to the &sentence box"))
        self.settings_action.setText(self.tr("&Settings…"))
        self.reload_action.setText(self.tr("&Reload the model"))
        self.about_action.setText(self.tr("&About grammar-tutor"))
        self.tabs.setTabText(0, self.tr("Se&ntence"))
        self.tabs.setTabText(1, self.tr("Histor&y"))
        self.tabs.setTabText(2, self.tr("T&eacher"))
        for page in (self.text_view, self.exercises):
            self.tabs.setTabText(self.tabs.indexOf(page), page.title())
        self.tabs.setAccessibleName(self.tr("Pages"))
        self.model_label.setAccessibleName(self.tr("Model status"))
        self.load_progress.setAccessibleName(self.tr("Model loading progress"))
        self.mask_label.setAccessibleName(self.tr("Masking latency of the last correction"))
        if self.shown_result is not None:
            self.mask_label.setText(self.status_line(self.shown_result))
            self.mask_label.setToolTip(self.status_details(self.shown_result))
        self._update_title()
        self._update_model_label()

    def _update_title(self) -> None:
        if self.learner:
            self.setWindowTitle(self.tr("grammar-tutor — {0}").format(self.learner))
        else:
            self.setWindowTitle("grammar-tutor")

    def _update_model_label(self) -> None:
        if self.loading:
            return
        if self.tutor is not None:
            self.model_label.setText(self.tr("Model: {0} · ready").format(self.tutor.model.name))
        else:
            self.model_label.setText(self.tr("No model loaded"))

    def show_tab(self, index: int) -> None:
        """Show a page by its index (Ctrl+1, Ctrl+2, Ctrl+3)."""
        self.tabs.setCurrentIndex(index)

    def focus_sentence(self) -> None:
        """Show Practice and put the cursor in the sentence box."""
        self.tabs.setCurrentWidget(self.practice)
        self.practice.editor.setFocus()

    def _on_tab_changed(self, index: int) -> None:
        # the status line speaks of the sentence on the Sentence page: elsewhere it would describe another text
        self.mask_label.setVisible(self.tabs.widget(index) is self.practice)
        if self.tabs.widget(index) is self.history:
            self.history.apply_filters()
        elif self.tabs.widget(index) is self.exercises:
            self.exercises.reload()
        elif self.tabs.widget(index) is self.teacher and self.teacher.is_unlocked():
            self.teacher.dashboard.refresh()

    # -- the store -------------------------------------------------------------------------------

    def open_store(self, *, fresh: bool = False) -> None:
        """Open the history database; a damaged one gets a message with a 'fresh database' button."""
        from tutor.store import Store

        if self.store is not None:
            worker.wait_for_jobs()  # a job may be using it: closing a connection under a query crashes SQLite
            self.store.close()
            self.store = None
        try:
            self.store = Store.open(self.db, fresh=fresh)
        except StoreError as exc:
            self.messages.show_message(
                describe(exc)
                + " "
                + self.tr("You can still correct sentences, but they will not be saved until this is fixed."),
                key="store",
                actions=[  # a district database is never replaced from here: only a file can be moved aside
                    *([] if str(self.db).startswith("postgresql://") else
                      [(self.tr("Start a fresh database"), lambda: self.open_store(fresh=True))]),
                    (self.tr("Try again"), self.open_store),
                ],
            )
        else:
            self.messages.dismiss("store")
            if self.store.moved_aside is not None:
                self.messages.show_message(
                    self.tr("A fresh, empty database was started. The damaged file was kept as {0}.").format(
                        str(self.store.moved_aside)
                    ),
                    key="store",
                    level="info",
                )
        self.learner_bar.set_store(self.store)
        self.teacher.set_store(self.store)
        self.history.set_source(self.store, self.learner or None)

    def _on_store_failure(self, exc: Exception) -> None:
        self.messages.show_message(describe(exc), key="store")

    def _on_learner_changed(self, name: str) -> None:
        if name != self.learner:
            self.stop_review()
        self.learner = name
        self.history.set_source(self.store, name or None)
        self._update_title()
        if name:  # the "choose a learner" hints are answered
            for view in (self.practice, self.text_view):
                if view.hint_kind == "no_learner":
                    view.hint.hide()
                    view.hint_kind = ""

    # -- the model -------------------------------------------------------------------------------

    def load_model(self) -> None:
        """Load the chosen model in the background, showing progress; correcting waits until it is ready."""
        from tutor.api import Tutor

        if self.loading:
            return
        self.loading = True
        self.practice.set_ready(False)
        self.messages.dismiss("model")
        choice = self.settings.model or None
        temperature = self.settings.temperature
        self.load_progress.setValue(0)
        self.load_progress.show()
        self.model_label.setText(self.tr("Loading the model…"))

        def op(report: worker.Report) -> Tutor:
            return Tutor.load(choice, temperature=temperature, progress=lambda done, what: report((done, what)))

        worker.run_job(
            op,
            success=self._on_model_loaded,
            failure=self._on_model_failed,
            progress=self._on_load_progress,
            receiver=self,
            name="load model",
        )

    def _on_load_progress(self, item: tuple[float, str]) -> None:
        done, what = item
        self.load_progress.setValue(round(max(0.0, min(done, 1.0)) * 100))
        self.model_label.setText(self.tr("Loading the model: {0}").format(what))

    def _on_model_loaded(self, tutor: Tutor) -> None:
        self.loading = False
        self.tutor = tutor
        self.load_progress.hide()
        self.practice.set_ready(True)
        self._update_model_label()
        self.model_ready.emit()

    def _on_model_failed(self, exc: Exception) -> None:
        self.loading = False
        self.load_progress.hide()
        self.tutor = None
        self.practice.set_ready(False, self.tr("No model is loaded. Open Settings (Ctrl+,) to choose one."))
        self._update_model_label()
        text = describe(exc, self.tr("loading the model"))
        self.messages.show_message(
            text,
            key="model",
            actions=[(self.tr("Open Settings"), self.open_settings), (self.tr("Try again"), self.load_model)],
        )
        self.model_failed.emit(text)

    # -- correcting ------------------------------------------------------------------------------

    def correct(self, sentence: str) -> None:
        """Correct `sentence` in the background, streaming the model's output; record it for the learner
        (tutor.tutoring.Tutoring, as the CLI does), or correct on the class server when one is set."""
        if self.tutor is None or self.practice.working:
            return
        tutor, store, learner = self.tutor, self.store, self.learner
        self.practice.set_working(True)
        self.messages.dismiss("engine")

        reviewing = self.review_index >= 0  # a retry in "review my mistakes": kept apart, out of the statistics
        # the class server when one is chosen (the local model and the outbox when it is away), else the local one
        use_case = class_server.class_tutor(self.settings.q, store, lambda: tutor) or Tutoring(tutor, store)

        def op(report: worker.Report) -> Recorded[CorrectionResult]:
            return use_case.correct(sentence, learner=learner, review=reviewing, on_token=report)

        worker.run_job(
            op,
            success=self._on_corrected,
            failure=lambda exc: self._on_correct_failed(exc, sentence),
            progress=self.practice.append_token,
            receiver=self,
            name="correct",
        )

    def _on_corrected(self, done: Recorded[CorrectionResult]) -> None:
        result, saved_error = done.result, done.save_error
        self.practice.set_working(False)
        # the Judge decides whether the card shows a fact or a question (no model: the result came as it is)
        self.practice.card.show_result(result, sure=self.tutor is None or Tutoring(self.tutor).is_sure(result))
        self.shown_result = result
        self.mask_label.setText(self.status_line(result))
        self.mask_label.setToolTip(self.status_details(result))
        if saved_error is not None:
            self.messages.show_message(
                self.tr("The correction is shown but was not saved: {0}").format(describe(saved_error)),
                key="save",
                level="warning",
            )
        elif not self.learner and self.store is not None:
            self.practice.show_hint(self.tr("Choose or create a learner to keep a history of your corrections."),
                                    "no_learner")
        if self.review_index >= 0 and result.is_correct and not result.out_of_scope:
            self.practice.review_label.setText(self.tr("Fixed! Press Next mistake to go on."))
        self.correction_done.emit(result)

    def status_line(self, result: CorrectionResult) -> str:
        """Return what the last correction took, in words a learner can use (status_details has the tokens)."""
        timings = result.timings
        if timings.tokens_sampled + timings.tokens_forced == 0:
            return self.tr("answered without the model: {0} · {1:.0f} ms").format(self._why_no_model(result),
                                                                                 timings.total_ms)
        if timings.tokens_sampled == 0 and not timings.model_judged:
            return self.tr("decided by the sentence itself · {0:.0f} ms").format(timings.total_ms)
        return self.tr("checked with the model · {0:.0f} ms").format(timings.total_ms)

    def status_details(self, result: CorrectionResult) -> str:
        """Return the decoding details of the last correction (the status line's tooltip; the Latency tab)."""
        timings = result.timings
        if timings.tokens_sampled + timings.tokens_forced == 0:
            return ""
        if timings.tokens_sampled == 0 and timings.model_judged:
            return self.tr("judged by the model in {0:.0f} ms · answer forced: {1} tokens · {2:.0f} ms").format(
                timings.prompt_ms, timings.tokens_forced, timings.total_ms)
        if timings.tokens_sampled == 0:
            return self.tr("decided by the sentence itself, no model step · {0} tokens forced · {1:.0f} ms").format(
                timings.tokens_forced, timings.total_ms)
        return timings.status_line()

    def _why_no_model(self, result: CorrectionResult) -> str:
        """Return why a correction needed no model step, as the card explains it (tutor.result's reasons)."""
        if result.noted:
            return self.tr("a pattern I note but do not correct")
        if result.out_of_scope_reason == PLURAL_SUBJECT:
            return self.tr("the subject is plural, and I check singular subjects only")
        if result.out_of_scope_reason == OUTSIDE_VERBS:
            return self.tr("no verb of the 20 to fix")
        return self.tr("no answer to choose")

    def _on_correct_failed(self, exc: Exception, sentence: str) -> None:
        self.practice.set_working(False)
        text = describe(exc, self.tr("correcting your sentence"))
        if isinstance(exc, InputError):
            self.practice.show_hint(text, "input")
        else:
            self.messages.show_message(
                text, key="engine", actions=[(self.tr("Try again"), lambda: self.correct(sentence))]
            )
        self.correction_failed.emit(text)

    # -- review my mistakes ----------------------------------------------------------------------

    def start_review(self) -> None:
        """Read the learner's past mistakes in the background, then re-ask them one by one in the Sentence page."""
        if self.store is None or not self.learner:
            return
        store, learner = self.store, self.learner
        worker.run_job(lambda _: store.mistakes(learner), success=lambda rows: self._review(learner, rows),
                       failure=self._on_store_failure, receiver=self, name="mistakes", lane=worker.STORE)

    def _review(self, learner: str, mistakes: list[dict[str, Any]]) -> None:
        if learner != self.learner:
            return  # another learner was chosen meanwhile: never show their mistakes under this name
        self.review = mistakes
        if not self.review:
            self.messages.show_message(
                self.tr("{0} has no mistakes to review. Well done!").format(self.learner),
                key="review",
                level="info",
            )
            return
        self.review_index = -1
        self.tabs.setCurrentWidget(self.practice)
        self.next_review()

    def next_review(self) -> None:
        """Show the next past mistake, or end the review after the last one."""
        self.review_index += 1
        if self.review_index >= len(self.review):
            self.stop_review()
            self.messages.show_message(
                self.tr("Review finished: you went through all your mistakes."), key="review", level="info"
            )
            return
        row = self.review[self.review_index]
        self.practice.set_review(
            self.tr("Review {0} of {1}: you wrote this on {2}. Fix the verb and press Ctrl+Enter.").format(
                self.review_index + 1, len(self.review), row["created"][:10]
            ),
            sentence=row["original"],
        )

    def stop_review(self) -> None:
        """Leave review mode."""
        self.review = []
        self.review_index = -1
        self.practice.set_review(None)

    # -- settings, export, about -----------------------------------------------------------------

    def open_settings(self) -> None:
        """Open the Settings dialog; its changes apply when accepted."""
        dialog = SettingsDialog(self.settings, self)
        self.settings_dialog = dialog
        dialog.accepted.connect(lambda: self.apply_settings(dialog))
        dialog.open()

    def apply_settings(self, dialog: SettingsDialog) -> None:
        """Save the dialog's choices; reload the model or switch language when they changed."""
        model, temperature, language = (
            dialog.chosen_model(),
            dialog.chosen_temperature(),
            dialog.chosen_language(),
        )
        reload_needed = self.tutor is None or model != (self.settings.model or default_model_name())
        if not reload_needed and temperature != self.tutor.settings.temperature:
            self.tutor = self.tutor.with_settings(temperature=temperature)  # same model, no reload
        self.settings.model = model
        self.settings.temperature = temperature
        self.settings.daily_schedule = self.exercises.daily = dialog.chosen_daily()
        if language != self.settings.language:
            self.settings.language = language
            if not install_language(language):
                self.messages.show_message(
                    self.tr("Some translation files are missing; part of the window stays in English."),
                    key="language",
                    level="warning",
                )
        self.settings.sync()
        if reload_needed:
            self.load_model()

    def export_csv(self) -> None:
        """Export from the Teacher page (it asks for the passphrase first if locked)."""
        self.tabs.setCurrentWidget(self.teacher)
        if self.teacher.is_unlocked():
            self.teacher.dashboard.export_csv()
        else:
            self.teacher.lock_page.passphrase.setFocus()

    def show_about(self) -> None:
        """Show version, model and the model's licence."""
        model = self.tutor.model if self.tutor is not None else None
        lines = [
            f"<h3>grammar-tutor {escape(__version__)}</h3>",
            "<p>" + self.tr("An offline English verb tutor for Spanish speakers.") + "</p>",
        ]
        if model is not None:
            lines.append(
                "<p>"
                + self.tr("Model: {0}<br>sha256: {1}<br>Licence: {2}").format(
                    escape(model.name), escape(model.sha256[:16]) + "…", escape(licence_label(model))
                )
                + "</p>"
            )
        else:
            lines.append("<p>" + self.tr("No model is loaded.") + "</p>")
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("About grammar-tutor"), "".join(lines), parent=self)
        box.setTextFormat(Qt.TextFormat.RichText)
        self.about_box = box
        box.open()

    def closeEvent(self, event: QCloseEvent) -> None:
        """Let running jobs finish (the engine cannot be interrupted mid-token), then close the store."""
        if worker.busy():
            self.model_label.setText(self.tr("Finishing the current job…"))
            worker.wait_for_jobs()
        if self.store is not None:
            self.store.close()
            self.store = None
        super().closeEvent(event)
