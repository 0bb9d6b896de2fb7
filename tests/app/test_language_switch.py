"""The UI language switches live between English and Spanish (our .qm plus Qt's qtbase_es)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
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
        result_factory("She has a cat.", ("have", "present simple", "3rd singular", "has", "ha"))
    )
    assert window.tabs.tabText(0) == "&Practice"

    choose_in_settings(qtbot, window, language="es")
    assert settings.language == "es"
    qtbot.waitUntil(lambda: window.tabs.tabText(0) != "&Practice", timeout=10000)  # LanguageChange events are posted
    assert [window.tabs.tabText(i) for i in range(3)] == ["&Práctica", "&Historial", "Pr&ofesor"]
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
    qtbot.waitUntil(lambda: window.tabs.tabText(0) != "&Práctica", timeout=10000)
    assert window.tabs.tabText(0) == "&Practice"
    assert window.practice.card.title.text() == "Correct!"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def test_temperature_is_saved_and_applied_without_reloading(qtbot, make_window, engine, settings):
    window = make_window(tutor=engine)
    choose_in_settings(qtbot, window, temperature=0.7)
    assert settings.temperature == 0.7
    assert window.tutor.settings.temperature == 0.7 and window.tutor.llm is engine.llm
    assert not window.loading


def test_the_spanish_translation_is_complete():
    from xml.etree import ElementTree

    from app.translation import I18N_DIR

    tree = ElementTree.parse(I18N_DIR / "grammar_tutor_es.ts")
    unfinished = [
        message.findtext("source")
        for message in tree.getroot().iter("message")
        if message.find("translation").get("type") == "unfinished"
    ]
    assert unfinished == []
    assert (I18N_DIR / "grammar_tutor_es.qm").stat().st_size > 1000
