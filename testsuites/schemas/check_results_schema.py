#!/usr/bin/python3
"""Every results.json the test suite wrote validates against schemas/simverify-results.schema.json
(draft 2020-12, checked with Debian's python3-jsonschema).

    check_results_schema.py SCHEMA MIN_FILES ROOT...

Walks each ROOT for results.json files (the integration tests' folders in the build tree and the
approval baseline); fails when any is invalid, or when fewer than MIN_FILES were found (so the
check cannot pass by finding nothing)."""
import json
import os
import sys

import jsonschema


def unmasked(value, key=""):
    """The approval baseline masks timings as "<masked>"; they were numbers when written. It
    masks the run's start time and commit too, which are texts."""
    if value == "<masked>":
        return value if key in ("started", "commit") else 0
    if isinstance(value, dict):
        return {k: unmasked(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [unmasked(v) for v in value]
    return value


def main() -> int:
    schema_path, minimum, roots = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    checked, failures = 0, []
    for root in roots:
        for folder, _, files in os.walk(root):
            if "results.json" not in files or "/fixtures" in folder:
                continue  # the report's fixtures are hand-written, older-format inputs
            path = os.path.join(folder, "results.json")
            with open(path, encoding="utf-8") as f:
                doc = unmasked(json.load(f))
            checked += 1
            for error in validator.iter_errors(doc):
                where = "/".join(str(p) for p in error.absolute_path)
                failures.append(f"{path}: {where}: {error.message}")
    for failure in failures:
        print(failure)
    print(f"{checked} results.json file(s) checked, {len(failures)} schema violation(s)")
    if checked < minimum:
        print(f"expected at least {minimum} results.json files; did the tests that write them run?")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
