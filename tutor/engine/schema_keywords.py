"""Which JSON Schema keywords constrain a value, per dialect; the rest are annotations and are ignored.

A validator enforces only the keywords its dialect defines (jsonschema, for one, ignores any other
key), so the compiler does the same: `enforced(schema, dialect)` lists the keys that constrain,
and every other key (`title`, `$id`, `x-…`, `examples`, `format`, unknown words) is ignored.
`format` is an annotation in every dialect unless a validator is asked to check it.
"""

from __future__ import annotations

from typing import Any

DIALECTS = {
    "http://json-schema.org/draft-03/schema": 3,
    "http://json-schema.org/draft-04/schema": 4,
    "http://json-schema.org/draft-06/schema": 6,
    "http://json-schema.org/draft-07/schema": 7,
    "https://json-schema.org/draft/2019-09/schema": 2019,
    "https://json-schema.org/draft/2020-12/schema": 2020,
}
LATEST = 2020

_CORE = frozenset({
    "type", "enum", "properties", "required", "additionalProperties", "patternProperties", "items",
    "minItems", "maxItems", "uniqueItems", "minLength", "maxLength", "pattern", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "$ref",
    "allOf", "anyOf", "oneOf", "not",
})
_BY_DIALECT = {
    4: _CORE | {"additionalItems", "dependencies"},
    6: _CORE | {"additionalItems", "dependencies", "const", "contains", "propertyNames"},
    7: _CORE | {"additionalItems", "dependencies", "const", "contains", "propertyNames", "if"},
    2019: _CORE | {"additionalItems", "const", "contains", "propertyNames", "if", "dependentRequired",
                   "dependentSchemas", "minContains", "maxContains", "unevaluatedItems", "unevaluatedProperties",
                   "$recursiveRef"},
    2020: _CORE | {"prefixItems", "const", "contains", "propertyNames", "if", "dependentRequired",
                   "dependentSchemas", "minContains", "maxContains", "unevaluatedItems", "unevaluatedProperties",
                   "$dynamicRef"},
}
# Enforced keywords this compiler does not compile: a schema using them is refused, never narrowed.
REFUSED = frozenset({
    "dependencies", "contains", "propertyNames", "if", "dependentRequired", "dependentSchemas",
    "minContains", "maxContains", "unevaluatedItems", "unevaluatedProperties", "$recursiveRef", "$dynamicRef",
})
STRING_KEYWORDS = frozenset({"minLength", "maxLength", "pattern"})
NUMBER_KEYWORDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
OBJECT_KEYWORDS = frozenset({"properties", "required", "additionalProperties", "patternProperties",
                             "minProperties", "maxProperties"})
ARRAY_KEYWORDS = frozenset({"items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems"})
KINDS = ("null", "boolean", "number", "string", "array", "object")


def dialect_of(root: Any) -> int:
    """Return the dialect a root schema's `$schema` names (3, 4, 6, 7, 2019, 2020; 2020 if none or unknown)."""
    if not isinstance(root, dict) or not isinstance(root.get("$schema"), str):
        return LATEST
    uri = root["$schema"].strip()
    return DIALECTS.get(uri[:-1] if uri.endswith("#") else uri, LATEST)


def enforced(schema: dict[str, Any], dialect: int) -> list[str]:
    """Return the keys of `schema` that its dialect's validator enforces, in the schema's order."""
    known = _BY_DIALECT[dialect]
    keys = [k for k in schema if k in known]
    if "if" in keys and "then" not in schema and "else" not in schema:
        keys.remove("if")  # 'if' alone constrains nothing
    return keys


def is_trivial(schema: Any, dialect: int) -> bool:
    """Return True for a schema that accepts every value (true, or no enforced keyword)."""
    return schema is True or (isinstance(schema, dict) and not enforced(schema, dialect))
