"""The app's preferences, kept in QSettings: model, temperature, UI language, last learner.

Secrets are not preferences: the teacher passphrase and learner PINs live in the store (tutor.store.lock).
"""

from __future__ import annotations

from PySide6.QtCore import QSettings

LANGUAGES = ("en", "es")
DEFAULT_TEMPERATURE = 0.0


class AppSettings:
    """Typed access to one QSettings store (the user's, or a temporary INI file in tests)."""

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.q = qsettings if qsettings is not None else QSettings("grammar-tutor", "grammar-tutor")

    def _str(self, key: str, default: str = "") -> str:
        value = self.q.value(key, default)
        return default if value is None else str(value)

    @property
    def model(self) -> str:
        """Return the chosen model: a catalogue name, a GGUF path, or '' for the default."""
        return self._str("engine/model")

    @model.setter
    def model(self, value: str) -> None:
        self.q.setValue("engine/model", value)

    @property
    def temperature(self) -> float:
        """Return the sampling temperature (0 = always the most likely answer)."""
        try:
            return float(self.q.value("engine/temperature", DEFAULT_TEMPERATURE))
        except (TypeError, ValueError):
            return DEFAULT_TEMPERATURE

    @temperature.setter
    def temperature(self, value: float) -> None:
        self.q.setValue("engine/temperature", float(value))

    @property
    def language(self) -> str:
        """Return the UI language code, 'en' or 'es'."""
        value = self._str("ui/language", "en")
        return value if value in LANGUAGES else "en"

    @language.setter
    def language(self, value: str) -> None:
        self.q.setValue("ui/language", value if value in LANGUAGES else "en")

    @property
    def daily_schedule(self) -> bool:
        """Return True when exercises answered right come back after a day or more (no steps of minutes)."""
        return str(self.q.value("practice/daily", "false")).lower() == "true"

    @daily_schedule.setter
    def daily_schedule(self, value: bool) -> None:
        self.q.setValue("practice/daily", "true" if value else "false")

    @property
    def learner(self) -> str:
        """Return the learner who practised last, or ''."""
        return self._str("ui/learner")

    @learner.setter
    def learner(self, value: str) -> None:
        self.q.setValue("ui/learner", value)

    def sync(self) -> None:
        """Write pending changes to disk."""
        self.q.sync()
