"""Schema-level conjunction (`allOf`) and the normal form the compiler reads.

`merge(a, b)` returns one schema accepting exactly the values both accept, for the keywords it
knows how to combine, or False when no value can pass both; it raises GrammarError when it cannot
combine them exactly (the compiler then refuses the schema rather than guess). Property schemas
that meet are combined lazily as `{"allOf": [x, y]}`, merged again when compiled.
"""

from __future__ import annotations

import json
import math
from typing import Any

from tutor.engine.errors import GrammarError
from tutor.engine.schema_keywords import KINDS, OBJECT_KEYWORDS, enforced

Schema = dict[str, Any] | bool


def canonical(value: Any) -> str:
    """Return the canonical JSON text of a value: keys sorted, integral floats as integers."""
    def norm(v: Any) -> Any:
        if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
            return int(v)
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, list):
            return [norm(x) for x in v]
        return v
    return json.dumps(norm(value), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def type_set(schema: dict[str, Any]) -> set[str] | None:
    """Return the set of type names a schema's `type` allows, 'integer' kept apart (None: any type)."""
    types = schema.get("type")
    if types is None:
        return None
    names = [types] if isinstance(types, str) else types
    if not isinstance(names, list) or not names or not all(isinstance(t, str) for t in names):
        raise GrammarError("'type' must be a type name or a non-empty list of names")
    return set(names)


def _meet_types(a: set[str] | None, b: set[str] | None) -> set[str] | None:
    if a is None or b is None:
        return b if a is None else a
    out = a & b
    if ("integer" in a and "number" in b) or ("integer" in b and "number" in a):
        out.add("integer")
    return out


def literal_kind(value: Any) -> str:
    """Return the JSON kind of a Python value ('number' for int and float)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def kinds(schema: Schema, dialect: int) -> set[str]:
    """Return the JSON kinds (KINDS) a schema may accept: a superset, from `type`, `enum` and `const`."""
    if schema is False:
        return set()
    if schema is True:
        return set(KINDS)
    out = set(KINDS)
    keys = enforced(schema, dialect)
    types = type_set(schema) if "type" in keys else None
    if types is not None:
        out = {"number" if t == "integer" else t for t in types} & set(KINDS)
    for key in ("enum", "const"):
        if key in keys:
            values = schema["const"] if key == "const" else schema["enum"]
            values = [values] if key == "const" else values if isinstance(values, list) else []
            out &= {literal_kind(v) for v in values}
    return out


def literal_texts(schema: Schema, dialect: int) -> set[str] | None:
    """Return the canonical texts of the only values a schema allows (from enum/const), or None."""
    if not isinstance(schema, dict):
        return None
    keys = enforced(schema, dialect)
    if "const" in keys:
        return {canonical(schema["const"])}
    if "enum" in keys and isinstance(schema["enum"], list):
        return {canonical(v) for v in schema["enum"]}
    return None


def conjoin(parts: list[Schema]) -> Schema:
    """Return the lazy conjunction of schemas: True if none constrain, False if one is False."""
    kept = [p for p in parts if p is not True]
    if any(p is False for p in kept):
        return False
    if not kept:
        return True
    return kept[0] if len(kept) == 1 else {"allOf": kept}


def merge(a: dict[str, Any], b: dict[str, Any], dialect: int) -> Schema:
    """Return a schema accepting exactly what both dereferenced schemas accept (False: nothing)."""
    ka, kb = set(enforced(a, dialect)), set(enforced(b, dialect))
    out: dict[str, Any] = {}
    for key in [*(k for k in a if k in ka), *(k for k in b if k in kb and k not in ka)]:
        if key in OBJECT_KEYWORDS:
            continue
        if key in ka and key in kb:
            value = _meet(key, a[key], b[key], dialect)
            if value is False:
                return False
            if value is not None:
                out[key] = value
        else:
            out[key] = a[key] if key in ka else b[key]
    if "type" in out:
        types = _meet_types(type_set(a) if "type" in ka else None, type_set(b) if "type" in kb else None)
        if not types:
            return False
        out["type"] = sorted(types)
    if "enum" in ka and "enum" in kb:
        texts = {canonical(v) for v in b["enum"]}
        values = [v for v in a["enum"] if canonical(v) in texts]
        if not values:
            return False
        out["enum"] = values
    objects = _merge_objects(a, b, ka, kb, dialect)
    if objects is False:
        return False
    out.update(objects)
    return out


def _meet(key: str, x: Any, y: Any, dialect: int) -> Any:
    """Return the combined value of one keyword both schemas hold (False: unsatisfiable, None: drop)."""
    if key in ("type", "enum"):
        return x  # handled by merge() once all keys are seen
    if key in ("minimum", "minLength", "minItems", "exclusiveMinimum", "minProperties"):
        return max(x, y) if _numbers(x, y) else _same(key, x, y)
    if key in ("maximum", "maxLength", "maxItems", "exclusiveMaximum", "maxProperties"):
        return min(x, y) if _numbers(x, y) else _same(key, x, y)
    if key == "const":
        return x if canonical(x) == canonical(y) else False
    if key == "pattern":
        xs, ys = (x if isinstance(x, list) else [x]), (y if isinstance(y, list) else [y])
        return list(dict.fromkeys([*xs, *ys]))
    if key == "multipleOf":
        if _integers(x, y):
            return math.lcm(int(x), int(y))
        return _same(key, x, y)
    if key == "uniqueItems":
        return bool(x) or bool(y)
    if key == "items" and not isinstance(x, list) and not isinstance(y, list):
        return conjoin([x, y])
    if key == "allOf":
        return [*x, *y]
    if key == "not":  # neither x nor y
        return {"anyOf": [x, y]}
    if key == "anyOf":
        if len(x) * len(y) > 64:
            raise GrammarError("allOf of two anyOf lists with more than 64 combinations is not supported")
        return [conjoin([p, q]) for p in x for q in y]
    return _same(key, x, y)


def _numbers(x: Any, y: Any) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y))


def _integers(x: Any, y: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in (x, y))


def _same(key: str, x: Any, y: Any) -> Any:
    if canonical(x) == canonical(y):
        return x
    raise GrammarError(f"allOf combines two different {key!r} values; this compiler cannot merge them")


def _merge_objects(a: dict[str, Any], b: dict[str, Any], ka: set[str], kb: set[str],
                   dialect: int) -> dict[str, Any] | bool:
    """Return the object keywords of the conjunction of a and b (False: unsatisfiable)."""
    oa, ob = ka & OBJECT_KEYWORDS, kb & OBJECT_KEYWORDS
    if not oa or not ob:
        src, keys = (b, ob) if not oa else (a, oa)
        return {k: src[k] for k in src if k in keys}
    if "patternProperties" in oa | ob:
        raise GrammarError("allOf of two object schemas with 'patternProperties' is not supported")
    pa, pb = a.get("properties", {}), b.get("properties", {})
    if not isinstance(pa, dict) or not isinstance(pb, dict):
        raise GrammarError("'properties' must be an object")
    extra_a, extra_b = a.get("additionalProperties", True), b.get("additionalProperties", True)
    props: dict[str, Any] = {}
    for name in [*pa, *(n for n in pb if n not in pa)]:
        props[name] = conjoin([pa.get(name, extra_a), pb.get(name, extra_b)])
    out: dict[str, Any] = {"properties": props}
    required = list(dict.fromkeys([*a.get("required", []), *b.get("required", [])]))
    if required:
        out["required"] = required
    extra = conjoin([extra_a, extra_b])
    if extra is not True:
        out["additionalProperties"] = extra
    for key, pick in (("minProperties", max), ("maxProperties", min)):
        values = [s[key] for s, k in ((a, oa), (b, ob)) if key in k]
        if values:
            out[key] = pick(values)
    return out
