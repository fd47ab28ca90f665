#!/usr/bin/env bash
# The CI template (ci/templates/simverify.gitlab-ci.yml) on two variants of examples/ci-project,
# each run with ci/gitlab-ci-local against the Debian package DEB:
#   failing  a system requirement no cup meets: the shards whose share failed are allowed to
#            fail, merge and pages (the report) still run, and the gate fails the pipeline with
#            gate.json saying "releasable": false (--expect not-releasable);
#   no-unit  no unit-level requirement (the project file asks the gate for integration and
#            system only): every job passes. It also takes the inputs `simverify` (a wrapper
#            script of the project, which every job must run) and `timeout` (on the shards'
#            run), and a `.simverify: before_script:` of its own (which every job must run).
# usage: template_variants.sh SOURCE_DIR DEB WORK_DIR   (exit 77: skipped inside a pipeline)
set -euo pipefail
source_dir="$1" deb="$2" work="$3"
example="$source_dir/examples/ci-project"
rm -rf "$work"
mkdir -p "$work"

cp -r "$example" "$work/failing"
serving="$work/failing/requirements/system/serving.yaml"
sed -i 's/threshold: "<= 15"/threshold: "<= 5"/' "$serving"
grep -q 'threshold: "<= 5"' "$serving" || { echo "no threshold to tighten in $serving" >&2; exit 1; }
"$source_dir/ci/gitlab-ci-local" --user-project "$work/failing" --deb "$deb" \
  --expect not-releasable --work "$work/gcl-failing"

cp -r "$example" "$work/no-unit"
rm -r "$work/no-unit/requirements/unit"
project="$work/no-unit/requirements/simverify.yaml"
sed -i 's/levels: \[unit, integration, system\]/levels: [integration, system]/' "$project"
grep -q 'levels: \[integration, system\]' "$project" || { echo "no levels in $project" >&2; exit 1; }
mkdir "$work/no-unit/tools"
cat > "$work/no-unit/tools/simverify" <<'SH'
#!/bin/sh
echo "project wrapper: simverify $*" >&2
exec simverify "$@"
SH
chmod +x "$work/no-unit/tools/simverify"
/usr/bin/python3 - "$work/no-unit/.gitlab-ci.yml" <<'PY'
import sys, yaml
path = sys.argv[1]
doc = yaml.safe_load(open(path))
inputs = doc["include"][0]["inputs"]
inputs["simverify"] = "tools/simverify"
inputs["timeout"] = "120"
doc[".simverify"] = {"before_script": ["echo project setup ran in $CI_JOB_NAME"]}
yaml.safe_dump(doc, open(path, "w"), sort_keys=False)
PY
"$source_dir/ci/gitlab-ci-local" --user-project "$work/no-unit" --deb "$deb" \
  --work "$work/gcl-no-unit" --keep
log="$work/gcl-no-unit/logs/branch.log"
for job in simverify-validate "simverify-system: [1/2]" simverify-merge pages simverify-gate; do
  grep -qF "$job > project setup ran in $job" "$log" ||
    { echo "$job did not run the project's .simverify before_script; log: $log" >&2; exit 1; }
  grep -qF "$job > project wrapper: simverify" "$log" ||
    { echo "$job did not run the simverify input (tools/simverify); log: $log" >&2; exit 1; }
done
grep -qF 'project wrapper: simverify run requirements --shard 2/2 --timeout 120 --out' "$log" ||
  { echo "the shards' run did not get the timeout input; log: $log" >&2; exit 1; }
rm -rf "$work"
