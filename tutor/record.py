"""The correction record: every field a stored correction has, defined once, in FIELDS.

Each Field says where a new row takes its value (the store, the learner, the CorrectionResult, its §A13
output or its timings), its type, how a bundle row must carry it, and whether and under which header
History shows it. The store's insert columns and history rows (tutor.store.records), the CSV and JSON
exports, the bundle rows and their checks (tutor.store.bundle_rows), the class server's detail
(tutor.server.records) and the History table (app.table_models) are all read from FIELDS.

One more field per correction: a Field here (appended, so older exports keep their column order), a
migration that adds its column (tutor.store.schema and tutor.store.pg_schema), and the value where the
CorrectionResult is made if it is new there. Nothing else lists the fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from tutor.limits import MAX_TEXT_CHARS

Source = Literal["store", "learner", "result", "output", "timings"]
# What a bundle row without the field means: REQUIRED when every bundle row must carry it.
REQUIRED: Any = object()

MAX_LABEL = 200  # model names and the like
_MS = {"ge": 0, "le": 2**63 - 1, "allow_inf_nan": False}  # SQLite's largest integer bounds every number
_COUNT = {"ge": 0, "le": 2**63 - 1}


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a stored correction and what each part of the tutor does with it."""

    name: str  # the key in history rows, exports and bundles; the attribute of `source`
    type: Any  # the value's type in a history row: str, int, float, bool, dict or a Literal of texts
    source: Source  # where a new row takes it: made by the store, the learner's name, the result itself,
    #                 its §A13 output, or its timings
    column: str = ""  # the SQL column, when it is not `name`
    null: bool = True  # may be None
    default: Any = REQUIRED  # what a bundle row without it means (a field added after bundles shipped)
    limits: dict[str, Any] = field(default_factory=dict)  # pydantic Field constraints a bundle row meets
    sorted_keys: bool = False  # a dict kept as JSON with its keys sorted (the output keeps the §A13 order)
    exported: bool = True  # in the CSV and JSON exports
    bundled: bool = True  # in a bundle row (the learner is named once, on top of the bundle)
    shown: int = 0  # its place among History's columns (1 is the leftmost); 0: not shown
    header: tuple[str, str] = ("", "")  # its History column title in English and in Spanish
    emphasis: bool = False  # a text with *emphasis* marks (an explanation): the CSV gives it as plain text

    @property
    def stored_as(self) -> str:
        """Return the SQL column that holds the field."""
        return self.column or self.name

    @property
    def sql_type(self) -> str:
        """Return the column's SQLite type (INTEGER for flags and the learner's id, TEXT for texts and JSON)."""
        if self.type in (bool, int) or self.source == "learner":
            return "INTEGER"
        return "REAL" if self.type is float else "TEXT"

    def to_column(self, value: Any) -> Any:
        """Return a history-row value as the column keeps it: flags as 0/1, dicts as JSON text."""
        if self.type is bool:
            return int(bool(value))
        if self.type is dict:
            return json.dumps(value, ensure_ascii=False, sort_keys=self.sorted_keys)
        return value

    def from_column(self, value: Any) -> Any:
        """Return a column's value as a history row has it: flags as bools, JSON text as a dict."""
        if self.type is bool:
            return bool(value)
        if self.type is dict:
            return json.loads(value) if value else {}
        return value

    def annotation(self) -> Any:
        """Return the type a bundle row's value must have (with None when the field may be null)."""
        return self.type | None if self.null else self.type


FIELDS: tuple[Field, ...] = (
    Field("id", str, "store", null=False),
    Field("learner", str, "learner", column="learner_id", null=False, bundled=False, shown=1,
          header=("Learner", "Alumno")),
    Field("created", str, "store", null=False, shown=2, header=("When", "Cuándo")),
    Field("original", str, "result", null=False, limits={"min_length": 1, "max_length": MAX_TEXT_CHARS}, shown=3,
          header=("Sentence", "Frase")),
    Field("verb", str, "output", shown=6, header=("Verb", "Verbo")),
    Field("tense", str, "output", shown=7, header=("Tense", "Tiempo")),
    Field("person", str, "output", shown=8, header=("Person", "Persona")),
    Field("correct_form", str, "output", shown=5, header=("Correct form", "Forma correcta")),
    Field("spanish", str, "output"),
    Field("out_of_scope", bool, "result", null=False),
    # shown as the verdict, which the flags beside it qualify (not sure, noted, out of scope), next to the
    # sentence so that a narrow window (or a longer language) never cuts it off
    Field("is_correct", bool, "result", null=False, shown=4, header=("Result", "Resultado")),
    Field("confidence", float, "result", null=False, limits={"ge": 0.0, "le": 1.0, "allow_inf_nan": False}),
    Field("error_span", str, "result", limits={"max_length": MAX_TEXT_CHARS}),
    Field("error_start", int, "result", limits={"ge": 0, "le": MAX_TEXT_CHARS}),
    Field("error_end", int, "result", limits={"ge": 0, "le": MAX_TEXT_CHARS}),
    Field("explanation_en", str, "result", limits={"max_length": 4 * MAX_TEXT_CHARS}, emphasis=True),
    Field("explanation_es", str, "result", limits={"max_length": 4 * MAX_TEXT_CHARS}, emphasis=True),
    Field("model_name", str, "result", limits={"max_length": MAX_LABEL}),
    Field("model_sha256", str, "result"),
    Field("settings", dict, "result", null=False, sorted_keys=True),
    Field("prompt_ms", float, "timings", limits=_MS),
    Field("forward_ms", float, "timings", limits=_MS),
    Field("mask_p50_us", float, "timings", limits=_MS),
    Field("mask_p99_us", float, "timings", limits=_MS),
    Field("mask_max_us", float, "timings", limits=_MS),
    Field("tokens_sampled", int, "timings", limits=_COUNT),
    Field("tokens_forced", int, "timings", limits=_COUNT),
    Field("total_ms", float, "timings", limits=_MS),
    Field("kind", Literal["correct", "check", "review"], "result", null=False, default="correct"),
    Field("source_text", str, "result", default=None, limits={"max_length": MAX_TEXT_CHARS}),
    Field("not_sure", bool, "result", null=False, default=False),
    Field("noted", bool, "result", null=False, default=False),
    Field("output", dict, "result", column="output_json", null=False),
)
BY_NAME: dict[str, Field] = {f.name: f for f in FIELDS}

# Keys of a history row (every field), in export order.
HISTORY_KEYS: tuple[str, ...] = tuple(f.name for f in FIELDS)
# The columns of the CSV export and the keys of each JSON export row.
EXPORTED_KEYS: tuple[str, ...] = tuple(f.name for f in FIELDS if f.exported)
# The keys of a bundle row, and those every bundle row must have (fields added later are optional there).
BUNDLE_KEYS: tuple[str, ...] = tuple(f.name for f in FIELDS if f.bundled)
REQUIRED_BUNDLE_KEYS: tuple[str, ...] = tuple(f.name for f in FIELDS if f.bundled and f.default is REQUIRED)
# The SQL columns a new row fills (everything but the rowid `seq`).
STORED_COLUMNS: tuple[str, ...] = tuple(f.stored_as for f in FIELDS)
# History's columns, left to right.
SHOWN: tuple[Field, ...] = tuple(sorted((f for f in FIELDS if f.shown), key=lambda f: f.shown))
