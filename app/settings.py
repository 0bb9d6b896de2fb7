"""The app's preferences, kept in QSettings: model, temperature, UI language, last learner, secrets."""

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
    def learner(self) -> str:
        """Return the learner who practised last, or ''."""
        return self._str("ui/learner")

    @learner.setter
    def learner(self, value: str) -> None:
        self.q.setValue("ui/learner", value)

    @property
    def teacher_hash(self) -> str:
        """Return the scrypt hash of the teacher passphrase, or '' before it is set."""
        return self._str("teacher/passphrase")

    @teacher_hash.setter
    def teacher_hash(self, value: str) -> None:
        self.q.setValue("teacher/passphrase", value)

    def learner_pin_hash(self, learner: str) -> str:
        """Return the scrypt hash of a learner's PIN, or '' when the profile has none."""
        return self._str(f"learner-pins/{learner.encode('utf-8').hex()}")

    def set_learner_pin_hash(self, learner: str, value: str) -> None:
        """Store (or, with '', remove) the hash of a learner's PIN."""
        key = f"learner-pins/{learner.encode('utf-8').hex()}"
        if value:
            self.q.setValue(key, value)
        else:
            self.q.remove(key)

    def sync(self) -> None:
        """Write pending changes to disk."""
        self.q.sync()
