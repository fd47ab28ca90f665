#!/usr/bin/python3
"""Checks schemas/simverify-requirements.schema.json with python3-jsonschema (Debian):

1. every shipped requirement pack and every example validates against it;
2. every case of the malformed catalogue (testsuites/malformed) is classified below: the
   schema must reject the cases in SCHEMA_REJECTS, YAML itself the cases in YAML_REJECTS;
   the rest need what only `simverify validate` knows (registered components, models,
   reference files, the whole grid) or what YAML parsers drop silently (duplicate keys).
   A new catalogue case must be classified here, so the list cannot fall behind.

Usage: check_requirements_schema.py SOURCE_DIR
"""
import pathlib
import re
import sys

import jsonschema
import yaml

# Catalogue cases the schema rejects: the mistake is in the shape of the file.
SCHEMA_REJECTS = {
    "aggregate_key_typo", "bad_level", "compare_missing_reference",
    "compare_reference_unknown_key",
    "compare_tube_and_norm", "compare_tube_negative", "compare_tube_unknown_key",
    "compare_unknown_key_block_style", "compare_unknown_norm", "conditions_not_a_mapping",
    "depends_on_not_a_list", "empty_file", "empty_list", "generator_extra_key",
    "id_lower_case", "id_not_a_string", "id_only_dots", "linspace_arity", "linspace_not_numbers",
    "missing_conditions", "missing_id", "missing_level", "missing_measure", "missing_quality",
    "missing_threshold", "quantile_out_of_range", "requirement_not_a_mapping",
    "requirements_not_a_list", "threshold_infinite", "threshold_not_a_number",
    "threshold_without_relation", "title_not_a_string", "top_level_list", "trace_not_a_mapping",
    "uniform_without_seed", "unknown_key_did_you_mean", "unknown_quality_key",
    "unknown_statistic", "unknown_top_level_key", "zip_not_a_mapping", "compare_reduced_measure",
    "measure_unknown_reduction", "statistic_typo", "id_too_long",
}
# Cases YAML reading itself refuses (syntax, encoding, a second document where one is
# expected), before any schema applies.
YAML_REJECTS = {"yaml_bad_indentation", "yaml_unclosed_bracket", "second_document",
                "yaml_nested_past_the_reader",
                "invalid_utf8", "xml_illegal_character", "stray_flow_entry", "yaml_unknown_tag"}

# The YAML 1.2 core schema, as editors (yaml-language-server) and simverify read scalars:
# 1e-3 is a number and yes/no/on/off are strings (PyYAML follows YAML 1.1 otherwise).
class CoreLoader(yaml.SafeLoader):
    pass

CoreLoader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers
          if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:float",
                         "tag:yaml.org,2002:int")]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:bool",
                                 re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                 list("tTfF"))
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?[0-9]+$"),
                                 list("-+0123456789"))
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
               r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def construct_float(loader, node):
    text = loader.construct_scalar(node).lower()
    if text in (".inf", "+.inf"):
        return float("inf")
    if text == "-.inf":
        return float("-inf")
    if text == ".nan":
        return float("nan")
    return float(text)


CoreLoader.add_constructor("tag:yaml.org,2002:float", construct_float)


def load(path):
    # Bytes, so PyYAML's reader judges the encoding (a YAMLError, like a syntax error).
    return yaml.load(path.read_bytes(), Loader=CoreLoader)


def is_diagram(path):
    """A block-diagram file beside the packs (DIAGRAM-FORMAT.md): the loader skips it, as here."""
    document = load(path)
    return isinstance(document, dict) and "diagram" in document and "requirements" not in document


def problems_of(validator, path):
    return sorted(validator.iter_errors(load(path)), key=lambda e: list(e.absolute_path))


def main():
    source = pathlib.Path(sys.argv[1])
    schema = yaml.safe_load((source / "schemas/simverify-requirements.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    failures = []

    shipped = [p for folder in ("requirements", "examples", "testsuites/fmus/packs/passing",
                                "testsuites/fmus/packs/failing")
               for p in sorted((source / folder).rglob("*.yaml"))
               if p.name != "simverify.yaml" and not is_diagram(p)]
    for path in shipped:
        for error in problems_of(validator, path):
            failures.append(f"{path}: /{'/'.join(map(str, error.absolute_path))}: "
                            f"{error.message}")
    if len(shipped) < 10:
        failures.append(f"only {len(shipped)} shipped files found under {source}")

    catalogue = sorted((source / "testsuites/malformed").glob("*.yaml"))
    names = {p.stem for p in catalogue}
    for missing in sorted((SCHEMA_REJECTS | YAML_REJECTS) - names):
        failures.append(f"{missing}: listed here but not in testsuites/malformed")
    rejected = 0
    for path in catalogue:
        if path.stem in YAML_REJECTS:
            try:
                load(path)
                failures.append(f"{path}: YAML should refuse it, but it parsed")
            except (yaml.YAMLError, RecursionError):  # PyYAML recurses per nesting level
                rejected += 1
            continue
        try:
            document = load(path)
        except yaml.YAMLError as e:
            failures.append(f"{path}: unexpected YAML error ({e}); list it in YAML_REJECTS")
            continue
        valid = validator.is_valid(document)
        if path.stem in SCHEMA_REJECTS:
            if valid:
                failures.append(f"{path}: the schema should reject it but accepts it")
            else:
                rejected += 1
        elif not valid:
            message = next(iter(validator.iter_errors(document))).message
            failures.append(f"{path}: the schema rejects it ({message}); add it to SCHEMA_REJECTS")

    for failure in failures:
        print(failure)
    print(f"{len(shipped)} shipped files valid; {rejected} of {len(catalogue)} catalogue cases "
          f"rejected by the schema or YAML, the rest need simverify validate")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
