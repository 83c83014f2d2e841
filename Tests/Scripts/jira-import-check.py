#!/usr/bin/env python3
"""Checks a CSV file against the rules Jira's CSV importer documents, for a
file meant to set the estimates of existing issues and nothing else.

    jira-import-check.py FILE KEY...

KEY... are the keys of the issues that exist. The rules, from Atlassian's
"Import data from a CSV file" and "Create issues using the CSV importer":
the file is well-formed CSV with a header row; the header has a Summary
column; a row's Summary is never empty; a number field (Story Points)
holds a number. On top of them, for an export that must create nothing:
every row names, in Issue key, an issue that exists. Empty lines are no rows.

Prints each refused row with its line and reasons and exits 1; else prints
how many rows update existing issues and exits 0. Exits 2 when the file
cannot be read as CSV with such a header. Python's standard library only.
"""

import csv
import re
import sys

NUMBER = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")


def column(header, name):
    """The index of the column named `name` (case and spaces aside), or None."""
    wanted = name.lower()
    for index, field in enumerate(header):
        if field.strip().lower() == wanted:
            return index
    return None


def main(arguments):
    if len(arguments) < 1:
        print("usage: jira-import-check.py FILE KEY...", file=sys.stderr)
        return 2
    path, existing = arguments[0], {key.upper() for key in arguments[1:]}
    try:
        with open(path, encoding="utf-8-sig", newline="") as handle:
            rows = list(csv.reader(handle, strict=True))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        print(f"{path}: not a CSV file the importer reads: {error}", file=sys.stderr)
        return 2
    if not rows:
        print(f"{path}: no header row", file=sys.stderr)
        return 2
    header = rows[0]
    summary, key, points = column(header, "Summary"), column(header, "Issue key"), column(header, "Story Points")
    if summary is None:
        print(f"{path}: the header has no Summary column: {header}", file=sys.stderr)
        return 2
    if points is None:
        print(f"{path}: the header has no Story Points column: the file sets no estimate", file=sys.stderr)
        return 2

    refused, updates = [], 0
    for line, row in enumerate(rows[1:], start=2):
        if row == [] or row == [""]:
            continue
        reasons = []
        if len(row) != len(header):
            reasons.append(f"{len(row)} fields where the header has {len(header)}")
        field = lambda index: row[index].strip() if index is not None and index < len(row) else ""
        if not field(summary):
            reasons.append("Summary is empty")
        if not field(key):
            reasons.append("no Issue key: the importer would create a new issue")
        elif field(key).upper() not in existing:
            reasons.append(f"Issue key {field(key)} is no existing issue: the importer would create it")
        if not NUMBER.match(field(points)):
            reasons.append(f"Story Points {field(points)!r} is not a number")
        if reasons:
            refused.append(f"line {line}: {row}: " + "; ".join(reasons))
        else:
            updates += 1
    for text in refused:
        print(text)
    if refused:
        print(f"{path}: {len(refused)} rows refused, {updates} update existing issues", file=sys.stderr)
        return 1
    print(f"{path}: {updates} rows update existing issues, none creates one")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
