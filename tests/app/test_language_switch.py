"""The UI language switches live between English and Spanish (our .qm plus Qt's qtbase_es)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt
from PySide6.QtWidgets import QDialogButtonBox


def choose_in_settings(qtbot, window, *, language: str | None = None, temperature: float | None = None):
    window.open_settings()
    dialog = window.settings_dialog
    with qtbot.waitSignal(dialog.verified, timeout=30000) as verified:
        pass
    assert verified.args == [True]
    if language is not None:
        dialog.language.setCurrentIndex(dialog.language.findData(language))
    if temperature is not None:
        dialog.temperature.setValue(temperature)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled()
    qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
    return dialog


def test_switching_to_spanish_and_back_retranslates_the_window(qtbot, make_window, engine, settings, result_factory):
    window = make_window(tutor=engine)
    window.practice.card.show_result(
        result_factory("She has a cat.", ("have", "present simple", "3rd singular", "has", "ha")),
        sure=True,
    )
    assert window.tabs.tabText(0) == "Se&ntence"

    choose_in_settings(qtbot, window, language="es")
    assert settings.language == "es"
    qtbot.waitUntil(lambda: window.tabs.tabText(0) != "Se&ntence", timeout=10000)  # LanguageChange events are posted
    assert [window.tabs.tabText(i) for i in range(3)] == ["&Frase", "&Historial", "Pr&ofesor"]
    assert window.practice.correct_button.text() == "&Corregir"
    assert window.practice.card.title.text() == "¡Correcto!"
    assert window.practice.card.tense_chip.text() == "presente simple"
    assert window.history.model.headerData(1, Qt.Orientation.Horizontal) == "Frase"
    assert window.history.verb.itemText(0) == "Todos los verbos"
    assert window.file_menu.title() == "&Archivo"
    # qtbase_es is loaded too, so Qt's own dialogs speak Spanish
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancelar"
    assert window.tutor is engine  # a language change does not reload the model

    choose_in_settings(qtbot, window, language="en")
    qtbot.waitUntil(lambda: window.tabs.tabText(0) != "&Frase", timeout=10000)
    assert window.tabs.tabText(0) == "Se&ntence"
    assert window.practice.card.title.text() == "Correct!"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def test_temperature_is_saved_and_applied_without_reloading(qtbot, make_window, engine, settings):
    window = make_window(tutor=engine)
    choose_in_settings(qtbot, window, temperature=0.7)
    assert settings.temperature == 0.7
    assert window.tutor.settings.temperature == 0.7 and window.tutor.llm is engine.llm
    assert not window.loading


def test_the_spanish_translation_is_complete(tmp_path):
    """Every string the code passes through tr() has a Spanish translation in the catalogue, and the .qm the app
    loads carries it: pyside6-lupdate reads the code afresh into a copy of the .ts and lists what is missing."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path
    from xml.etree import ElementTree

    from PySide6.QtCore import QTranslator

    from app.translation import I18N_DIR

    app_dir = I18N_DIR.parent
    lupdate = shutil.which("pyside6-lupdate", path=str(Path(sys.executable).parent)) or shutil.which("pyside6-lupdate")
    assert lupdate, "pyside6-lupdate ships with PySide6-Essentials"
    fresh = tmp_path / "fresh.ts"
    shutil.copy(I18N_DIR / "grammar_tutor_es.ts", fresh)
    sources = sorted(str(p) for p in [*app_dir.glob("*.py"), *app_dir.glob("views/*.py")])
    subprocess.run([lupdate, *sources, "-ts", str(fresh), "-no-obsolete"], check=True, capture_output=True,
                   timeout=120)
    untranslated, messages = [], []
    for context in ElementTree.parse(fresh).getroot().iter("context"):
        for message in context.iter("message"):
            translation = message.find("translation")
            messages.append((context.findtext("name"), message.findtext("source")))
            if translation.get("type") == "unfinished" or not (translation.text or "").strip():
                untranslated.append(f"{context.findtext('name')}: {message.findtext('source')!r}")
    assert len(messages) > 250
    assert untranslated == [], "not translated in app/i18n/grammar_tutor_es.ts:\n" + "\n".join(untranslated)
    catalogue = QTranslator()
    assert catalogue.load(str(I18N_DIR / "grammar_tutor_es.qm"))
    stale = [f"{context}: {source!r}" for context, source in messages if not catalogue.translate(context, source)]
    assert stale == [], "in the .ts but not in the .qm (run pyside6-lrelease):\n" + "\n".join(stale)


# -- every visible string follows the language, both ways -------------------------------------------------

# Texts that are the same in both languages: names, the model, units and the verbs themselves.
NEUTRAL = {"grammar-tutor", "smollm2-135m", "sha256", "gguf", "µs", "ms", "p50", "p99", "ok", "es", "en",
           "english", "español", "csv", "pin", "×"}


def _plain(text: str) -> str:
    from PySide6.QtGui import QTextDocumentFragment

    return QTextDocumentFragment.fromHtml(text).toPlainText() if "<" in text else text


def _texts(widgets) -> dict[tuple[int, str], str]:
    """Return every user-visible string of `widgets` (visible ones) and of their menus and actions, by
    (index in `widgets`, what)."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QAbstractItemView,
        QComboBox,
        QGroupBox,
        QLabel,
        QLineEdit,
        QMenu,
        QPlainTextEdit,
        QTabBar,
        QTableView,
        QTextEdit,
    )

    out: dict[tuple[int, str], str] = {}
    for index, widget in enumerate(widgets):
        if not widget.isVisible() and not isinstance(widget, QMenu):
            continue

        def put(what: str, text: str, index: int = index) -> None:
            if text and text.strip():
                out[(index, what)] = _plain(text)

        put("tooltip", widget.toolTip())
        put("accessible name", widget.accessibleName())
        if widget.isWindow():
            put("title", widget.windowTitle())
        if isinstance(widget, QLabel | QAbstractButton):
            put("text", widget.text())
        if isinstance(widget, QLineEdit | QPlainTextEdit | QTextEdit):
            put("placeholder", widget.placeholderText())
        if isinstance(widget, QGroupBox):
            put("title", widget.title())
        if isinstance(widget, QMenu):
            put("title", widget.title())
            for n, action in enumerate(widget.actions()):
                put(f"action {n}", action.text())
        if isinstance(widget, QTabBar):
            for n in range(widget.count()):
                put(f"tab {n}", widget.tabText(n))
        if isinstance(widget, QComboBox):
            for n in range(widget.count()):
                put(f"item {n}", widget.itemText(n))
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            if isinstance(widget, QTableView):
                for n in range(model.columnCount(QModelIndex())):
                    put(f"header {n}", str(model.headerData(n, Qt.Orientation.Horizontal) or ""))
            for n in range(min(model.rowCount(QModelIndex()), 20)):
                put(f"row {n}", str(model.index(n, 0).data() or ""))
        for n, action in enumerate(widget.actions()):
            put(f"own action {n}", action.text())
    return out


def _english_words(text: str, user_data: list[str]) -> list[str]:
    """Return the words of `text` that would need a translation (user data and NEUTRAL words removed)."""
    import re

    from tutor.scope import load_scope

    for data in sorted([*user_data, "grammar-tutor"], key=len, reverse=True):
        text = text.replace(data, " ")
    neutral = NEUTRAL | set(load_scope().verbs)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text.replace("&", "")) if w.lower() not in neutral]


def _scene(qtbot, window, engine, tmp_path):
    """Put something on every page: a correction, a checked text, the teacher's dashboard and an import
    report; return the user data on show (names, sentences, paths)."""
    from app import worker
    from tutor.store import Store
    from tutor.store.bundle import write_bundle

    sentence, text = "She has a cat.", "I am happy. You are late."
    bundle = tmp_path / "ben.grammar-tutor.json"
    with Store.open(tmp_path / "ben.db") as other:
        other.save_correction(engine.correct("He goed home."), learner="Ben")
        write_bundle(other, "Ben", bundle)
    window.learner_bar.create("Ana")
    qtbot.waitUntil(lambda: not worker.busy(worker.STORE), timeout=10000)
    window.practice.editor.setPlainText(sentence)
    with qtbot.waitSignal(window.correction_done, timeout=60000) as corrected:
        window.practice.submit()
    shown = corrected.args[0]
    window.show_tab(3)
    window.text_view.editor.setPlainText(text)
    with qtbot.waitSignal(window.text_view.check_done, timeout=60000):
        window.text_view.submit()
    window.show_tab(2)
    qtbot.waitUntil(lambda: window.teacher.is_unlocked(), timeout=10000)
    window.class_menus.import_paths([str(bundle)])
    qtbot.waitUntil(lambda: "new" in window.class_menus.last_report, timeout=10000)
    qtbot.waitUntil(lambda: not worker.busy(), timeout=10000)
    # the card's explanations are shown in both languages on purpose (ES and EN lines)
    return ["Ana", "Ben", sentence, text, "He goed home.", str(bundle), bundle.name, engine.model.name,
            "I am happy.", "You are late.", *(line.replace("*", "") for line in (shown.explanation_en,
                                                                               shown.explanation_es))]


def _switch(qtbot, window, language: str) -> None:
    from app.translation import install_language

    before = window.tabs.tabText(0)
    install_language(language)
    qtbot.waitUntil(lambda: window.tabs.tabText(0) != before, timeout=10000)  # LanguageChange events are posted
    qtbot.wait(50)


def test_every_visible_string_is_spanish_after_the_switch_and_english_after_switching_back(
        qtbot, make_window, engine, tmp_path):
    from PySide6.QtWidgets import QMenu, QWidget

    window = make_window(tutor=engine)
    user_data = _scene(qtbot, window, engine, tmp_path)
    widgets = [window, *window.findChildren(QWidget), *window.menuBar().findChildren(QMenu)]
    pages = [window.practice, window.history, window.teacher, window.text_view]
    english: dict[tuple[int, str], str] = {}
    for page in pages:  # only the page on show is visible: collect each in turn
        window.tabs.setCurrentWidget(page)
        english.update(_texts(widgets))
    assert english[(0, "title")] == "grammar-tutor — Ana"

    _switch(qtbot, window, "es")
    spanish: dict[tuple[int, str], str] = {}
    for page in pages:
        window.tabs.setCurrentWidget(page)
        spanish.update(_texts(widgets))
    untranslated = sorted({f"{type(widgets[i]).__name__} {what}: {text!r}" for (i, what), text in english.items()
                           if spanish.get((i, what)) == text and _english_words(text, user_data)})
    assert untranslated == [], "untranslated:\n" + "\n".join(untranslated)

    _switch(qtbot, window, "en")
    dialog_english = _settings_texts(qtbot, window)
    back: dict[tuple[int, str], str] = {}
    for page in pages:
        window.tabs.setCurrentWidget(page)
        back.update(_texts(widgets))
    still_spanish = sorted(f"{type(widgets[i]).__name__} {what}: {back.get((i, what))!r} (was {text!r})"
                           for (i, what), text in english.items() if back.get((i, what)) != text)
    assert still_spanish == [], "not back in English:\n" + "\n".join(still_spanish)

    _switch(qtbot, window, "es")
    dialog_spanish = _settings_texts(qtbot, window)
    from tutor.catalogue import catalogue

    user_data += [entry.title for entry in catalogue().values()] + ["English", "Español"]  # names, in any language
    untranslated = sorted(f"Settings {what}: {text!r}" for key, text in dialog_english.items()
                          for what in [key[1]] if dialog_spanish.get(key) == text and _english_words(text, user_data))
    assert untranslated == [], "untranslated in Settings:\n" + "\n".join(untranslated)


def _settings_texts(qtbot, window) -> dict[tuple[int, str], str]:
    """Open Settings, wait for the model's verification, return its texts and close it."""
    from PySide6.QtWidgets import QWidget

    window.open_settings()
    dialog = window.settings_dialog
    with qtbot.waitSignal(dialog.verified, timeout=30000):
        pass
    texts = _texts([dialog, *dialog.findChildren(QWidget)])
    dialog.reject()
    return texts
