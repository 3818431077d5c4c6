# SPDX-License-Identifier: GPL-2.0
"""What the JSON checkers share: the mismatches found so far, and the
kind of a JSON value as JSON names it (a bool is not a number)."""

errors = []


def fail(msg):
    errors.append(msg)


def kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if v is None:
        return "null"
    return type(v).__name__
