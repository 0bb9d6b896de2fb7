"""Installing the UI language: the app's own Qt Linguist file and Qt's qtbase_es for standard dialogs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

I18N_DIR = Path(__file__).resolve().parent / "i18n"
_installed: list[QTranslator] = []


def install_language(language: str) -> bool:
    """Switch the running app to 'en' or 'es'; return False if a translation file is missing.

    Every widget receives a LanguageChange event and retranslates itself.
    """
    app = QCoreApplication.instance()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    QLocale.setDefault(QLocale(QLocale.Language.Spanish if language == "es" else QLocale.Language.English))
    if language != "es":
        return True
    ok = True
    ours = QTranslator()
    if ours.load(str(I18N_DIR / "grammar_tutor_es.qm")):
        _installed.append(ours)
    else:
        ok = False
    qtbase = QTranslator()
    if qtbase.load("qtbase_es", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        _installed.append(qtbase)
    else:
        ok = False
    for translator in _installed:
        app.installTranslator(translator)
    return ok


def ui_is_spanish() -> bool:
    """Return True when the UI speaks Spanish (install_language sets the default locale)."""
    return QLocale().language() == QLocale.Language.Spanish
