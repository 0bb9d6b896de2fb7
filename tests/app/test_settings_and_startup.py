"""Settings (a GGUF file verified before use), the About box, and starting the app from the command line."""

from __future__ import annotations

import os
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from app.main_window import MainWindow
from tutor.catalogue import resolve


def open_dialog(qtbot, window):
    window.open_settings()
    dialog = window.settings_dialog
    with qtbot.waitSignal(dialog.verified, timeout=30000):
        pass
    return dialog


def test_a_chosen_gguf_file_is_verified_before_it_can_be_used(qtbot, make_window, tmp_path, monkeypatch):
    window = make_window()
    dialog = open_dialog(qtbot, window)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.isEnabled() and "Verified" in dialog.model_status.text()

    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("these are my notes")
    monkeypatch.setattr(dialog, "ask_model_path", lambda: str(not_a_model))
    with qtbot.waitSignal(dialog.verified, timeout=30000) as blocker:
        dialog.browse.click()
    assert blocker.args == [False]
    assert dialog.chosen_model() == str(not_a_model)
    assert "not a GGUF" in dialog.model_status.text() and not ok.isEnabled()

    real = str(resolve().path)
    monkeypatch.setattr(dialog, "ask_model_path", lambda: real)
    with qtbot.waitSignal(dialog.verified, timeout=30000) as blocker:
        dialog.browse.click()
    assert blocker.args == [True]
    assert ok.isEnabled() and "Apache-2.0" in dialog.model_status.text()
    dialog.reject()


@pytest.mark.model
def test_a_missing_model_is_fixed_in_settings_and_loads_with_progress(qtbot, make_window, settings, tmp_path):
    settings.model = str(tmp_path / "gone.gguf")
    window = make_window(load_model=False)
    with qtbot.waitSignal(window.model_failed, timeout=30000):
        window.load_model()
    window.messages.bars["model"].buttons[0].click()  # "Open Settings"
    dialog = window.settings_dialog
    with qtbot.waitSignal(dialog.verified, timeout=30000) as blocker:
        pass
    assert blocker.args == [False]
    real = str(resolve().path)
    dialog.ask_model_path = lambda: real
    with qtbot.waitSignal(dialog.verified, timeout=30000) as blocker:
        dialog.browse.click()
    assert blocker.args == [True]

    seen: list[int] = []
    window.load_progress.valueChanged.connect(seen.append)
    with qtbot.waitSignal(window.model_ready, timeout=120000):
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        assert window.load_progress.isVisible() and not window.practice.correct_button.isEnabled()
    assert settings.model == real
    assert seen and max(seen) == 100 and window.load_progress.isHidden()
    assert window.practice.correct_button.isEnabled() and window.messages.message("model") == ""
    assert "smollm2-135m" in window.model_label.text()
    window.tutor.close()


def test_about_shows_the_model_licence(qtbot, make_window, engine):
    window = make_window(tutor=engine)
    window.about_action.trigger()
    box = window.about_box
    assert box is not None and box.isVisible()
    assert engine.model.licence in box.text() and engine.model.name in box.text()
    box.close()


def test_the_licence_line_follows_the_ui_language(qtbot, make_window, engine):
    """The catalogue's licence line has a Spanish version; the Spanish About box shows it, not the English one."""
    from app.translation import install_language

    assert engine.model.licence_es and engine.model.licence_es != engine.model.licence
    window = make_window(tutor=engine)
    install_language("es")
    window.show_about()
    text = window.about_box.text()
    window.about_box.close()
    assert engine.model.licence_es in text and engine.model.licence not in text


def test_about_without_a_model_says_so(make_window):
    window = make_window()
    window.show_about()
    assert "No model is loaded" in window.about_box.text()
    window.about_box.close()


def test_grammar_tutor_without_arguments_opens_the_window(qtbot, settings, db_path, tmp_path, monkeypatch):
    import app.main
    from app.launch import main

    monkeypatch.setattr(app.main, "AppSettings", lambda: settings)  # never the user's own settings
    settings.model = str(tmp_path / "absent.gguf")  # fails at once: this test is about start-up, not the model
    monkeypatch.setattr(app.main.logging, "basicConfig", lambda **kwargs: None)
    seen: dict[str, object] = {}
    # Windows other tests left open are not ours. Kept as objects, not id()s: the wrapper of a widget Python never
    # touched is a temporary, and its id can be reused by the new window, which would then never be found.
    earlier = QApplication.topLevelWidgets()
    deadline = time.monotonic() + 120

    def look_then_close() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()
                   and not any(w is old for old in earlier)]
        if time.monotonic() > deadline:  # fail, never hang: the window did not show up or never finished loading
            seen["timeout"] = f"{len(windows)} new window(s) after 120 s"
            QApplication.exit(1)
            return
        if not windows or windows[0].loading:
            QTimer.singleShot(50, look_then_close)
            return
        window = windows[0]
        seen["db"] = window.db
        seen["message"] = window.messages.message("model")
        seen["hook"] = app.main.sys.excepthook
        window.close()

    QTimer.singleShot(100, look_then_close)
    assert main(["--db", str(db_path)]) == 0, seen.get("timeout")
    assert seen["db"] == str(db_path) and "absent.gguf" in str(seen["message"])
    assert seen["hook"] is not app.main.sys.__excepthook__  # errors in slots become messages while it runs
    assert app.main.sys.excepthook is app.main.sys.__excepthook__
    assert os.path.exists(db_path)


def test_a_model_whose_chat_template_is_broken_is_not_verified(qtbot, make_window, broken_template_model,
                                                               tmp_path, monkeypatch):
    """'Verified' means the model loaded and ran one forward pass in a child process."""
    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path))
    window = make_window()
    dialog = open_dialog(qtbot, window)
    monkeypatch.setattr(dialog, "ask_model_path", lambda: str(broken_template_model))
    with qtbot.waitSignal(dialog.verified, timeout=120000) as blocker:
        dialog.browse.click()
    assert blocker.args == [False]
    text = dialog.model_status.text()
    assert "Verified" not in text and "could not be loaded" in text and "Traceback" not in text


def test_the_model_list_says_which_models_are_not_installed(qtbot, make_window, tmp_path, monkeypatch):
    import importlib.util

    from PySide6.QtCore import Qt

    from tutor.catalogue import catalogue, default_model_name

    monkeypatch.setenv("GRAMMAR_TUTOR_CACHE", str(tmp_path / "cache"))  # nothing assembled before
    window = make_window()
    dialog = open_dialog(qtbot, window)
    titles = {dialog.model.itemData(i): dialog.model.itemText(i) for i in range(dialog.model.count())}
    assert "not installed" not in titles[default_model_name()]  # the tests run on it
    for entry in catalogue().values():
        packages = [entry.source["package"]] if "package" in entry.source else [
            p for p, _ in entry.source.get("parts", ())]
        if packages and any(importlib.util.find_spec(p) is None for p in packages):
            i = dialog.model.findData(entry.name)
            assert titles[entry.name].endswith(" — not installed")
            tip = dialog.model.itemData(i, Qt.ItemDataRole.ToolTipRole)
            assert tip.startswith("To install it: pip install ") and tip.count("pip install") == 1


def test_temperature_and_the_sha256_sit_under_an_advanced_fold_closed_by_default(qtbot, make_window):
    window = make_window()
    window.show()
    dialog = open_dialog(qtbot, window)
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    model = resolve()
    assert "Verified" in dialog.model_status.text()
    assert "sha256" not in dialog.model_status.text() and model.sha256[:12] not in dialog.model_status.text()
    assert not dialog.temperature.isVisible() and not dialog.sha256.isVisible()
    assert not dialog.advanced_button.isChecked()
    qtbot.mouseClick(dialog.advanced_button, Qt.MouseButton.LeftButton)
    assert dialog.temperature.isVisible() and dialog.sha256.isVisible()
    assert "".join(dialog.sha256.text().split()) == model.sha256
    qtbot.mouseClick(dialog.advanced_button, Qt.MouseButton.LeftButton)
    assert not dialog.temperature.isVisible()
    dialog.reject()


def test_the_whole_sha256_fits_when_the_fold_is_open(qtbot, make_window):
    window = make_window()
    dialog = open_dialog(qtbot, window)
    qtbot.mouseClick(dialog.advanced_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.sha256.isVisible(), timeout=5000)
    needed = max(dialog.sha256.fontMetrics().horizontalAdvance(line) for line in dialog.sha256.text().splitlines())
    assert dialog.sha256.width() >= needed
    assert dialog.sha256.mapTo(dialog, dialog.sha256.rect().topRight()).x() <= dialog.width()
    dialog.reject()
