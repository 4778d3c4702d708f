# SPDX-License-Identifier: ISC
"""Subset matching of JSON documents and bounded retries, in the manner of FRR's topotests.

json_cmp(actual, expected) -> None when `expected` is contained in `actual`, else a
JsonDiff listing every mismatch with its path:
  - dict: every key of `expected` must be in `actual` with a matching value; a key whose
    expected value is None must be ABSENT from `actual`; extra keys in `actual` are fine.
  - list: every element of `expected` must match a distinct element of `actual` (any
    order); with exact=True the lists must also be the same length.
  - anything else: equality (1 and 1.0 are equal, True and 1 are not).
"""

import json
import time


class JsonDiff:
    def __init__(self, errors):
        self.errors = errors

    def __str__(self):
        return "\n".join(self.errors)

    __repr__ = __str__

    def __bool__(self):
        return bool(self.errors)


def _short(value, limit=200):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _same_scalar(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    return a == b


def _cmp(actual, expected, path, exact, errors):
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            errors.append("%s: expected an object, got %s" % (path, _short(actual)))
            return
        for key, want in expected.items():
            sub = "%s.%s" % (path, key) if path else str(key)
            if want is None:
                if key in actual:
                    errors.append("%s: expected absent, got %s" % (sub, _short(actual[key])))
                continue
            if key not in actual:
                errors.append("%s: missing (expected %s)" % (sub, _short(want)))
                continue
            _cmp(actual[key], want, sub, exact, errors)
        if exact:
            extra = sorted(set(actual) - set(expected), key=str)
            if extra:
                errors.append("%s: unexpected keys %s" % (path or "<root>", extra))
        return
    if isinstance(expected, list):
        if not isinstance(actual, list):
            errors.append("%s: expected a list, got %s" % (path, _short(actual)))
            return
        if exact and len(actual) != len(expected):
            errors.append("%s: expected %d elements, got %d" % (path, len(expected),
                                                                len(actual)))
        used = set()
        for i, want in enumerate(expected):
            for j, have in enumerate(actual):
                if j in used:
                    continue
                sub_errors = []
                _cmp(have, want, "", exact, sub_errors)
                if not sub_errors:
                    used.add(j)
                    break
            else:
                errors.append("%s[%d]: no element matches %s" % (path, i, _short(want)))
        return
    if not _same_scalar(actual, expected):
        errors.append("%s: expected %s, got %s" % (path or "<root>", _short(expected),
                                                   _short(actual)))


def json_cmp(actual, expected, exact=False):
    errors = []
    _cmp(actual, expected, "", exact, errors)
    return JsonDiff(errors) if errors else None


def run_and_expect(func, expected, count=20, wait=1.0, check=None):
    """Call func() up to `count` times, `wait` seconds apart, until its result matches.

    `expected` is either a JSON subset (compared with json_cmp) or a callable that takes the
    result and returns a falsy value when it is acceptable, else a message saying what is
    wrong.  Returns (ok, last result, last mismatch or None).  `check` runs before every try
    (e.g. to fail fast when a daemon died) and may raise.  A func() that raises counts as
    one unsuccessful try.
    """
    diff = "never ran"
    result = None
    for attempt in range(max(1, count)):
        if check is not None:
            check()
        try:
            result = func()
        except Exception as e:  # a query failing is one more unsuccessful try
            result, diff = None, "%s: %s" % (type(e).__name__, e)
        else:
            diff = expected(result) if callable(expected) else json_cmp(result, expected)
            if not diff:
                return True, result, None
        if attempt + 1 < count:
            time.sleep(wait)
    return False, result, diff


def flat(doc, path=""):
    """A JSON document as {dotted path: leaf value} (lists are leaves)."""
    out = {}
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.update(flat(v, "%s.%s" % (path, k) if path else str(k)))
    else:
        out[path] = doc
    return out


def side_by_side(want, got, a="FRR", b="skua"):
    """Every path whose leaf differs between two documents, one line each, both values."""
    fw, fg = flat(want), flat(got)
    return "\n".join("  %s: %s %s, %s %s" % (k, a, json.dumps(fw.get(k, "<absent>")), b,
                                             json.dumps(fg.get(k, "<absent>")))
                     for k in sorted(set(fw) | set(fg))
                     if fw.get(k, "<absent>") != fg.get(k, "<absent>"))
