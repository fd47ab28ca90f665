#include "command_help.hpp"

#include <array>
#include <utility>

namespace simverify::framework {
namespace {

constexpr std::string_view kRun = R"(usage: simverify run PATH... [options]
  Evaluates the requirements in the files and folders PATH (level by level, stopping early
  when a level fails) and writes results.json, junit.xml and the time series to --out.
options:
  --out DIR            results folder (default simverify-out)
  --level LEVEL        only unit, integration or system; a level without requirements
                       writes empty results and passes (exit 0)
  --filter GLOB        only requirements whose id matches GLOB (* and ?); selecting none is
                       a usage error (exit 2) listing the ids
  --fail-fast MODE     level (default): stop before the next level when one failed;
                       first: stop at the first failure; none: run everything
  --jobs N             grid points evaluated in parallel, 1 to 1024 (default: the cores)
  --shard I/N          evaluate the I-th of N disjoint shares of the grid points
  --timeout S          seconds one grid point may take before it is an error (default: none)
  --isolation MODE     process (default): each point in a worker process; none: in this one
  --series WHICH       time series written as CSV: quality (default), all or none
  --progress           show a progress bar (default when the output is a terminal)
  --no-progress        no progress bar
  --verbose            one line per grid point: condition, measures, quality
  --junit-points       also a JUnit testcase per grid point
  --help               this text
exit codes: 0 releasable; 1 ran, not releasable; 2 invalid input or usage (nothing run)
)";

constexpr std::string_view kMerge = R"(usage: simverify merge DIR... --out DIR
  Combines the results folders of all shards of one sharded run (run --shard I/N) and
  recomputes every verdict as one unsharded run would.
options:
  --out DIR            the merged results folder to write
  --help               this text
exit codes: 0 releasable; 1 not releasable; 2 shards missing, mixed or unreadable
)";

constexpr std::string_view kList = R"(usage: simverify list PATH... [options]
  Lists the requirements in the files and folders PATH: level, id, component, grid points,
  title. Runs nothing.
options:
  --level LEVEL        only unit, integration or system
  --filter GLOB        only requirements whose id matches GLOB (* and ?)
  --help               this text
exit codes: 0 the files are valid; 2 invalid input (every error with file:line:column), or
  --filter selects no requirement (an empty --level alone is no error)
)";

constexpr std::string_view kValidate = R"(usage: simverify validate PATH...
  Checks the requirement files and folders PATH without running anything.
options:
  --help               this text
exit codes: 0 the files are valid; 2 invalid input (every error with file:line:column)
)";

constexpr std::string_view kGate = R"(usage: simverify gate DIR [options]
  Decides whether the run in the results folder DIR is releasable and says why: every
  requirement of the files it was run from passed, the levels the project file asks for ran,
  coverage meets its bars.
options:
  --coverage FILE      coverage summary (ci/coverage's summary.json, an lcov .info or
                       Cobertura XML)
  --config FILE        the project file with the gate's settings (default: the simverify.yaml
                       beside the requirement files, else the one the run recorded, never
                       one in the working directory)
  --tests FILE         test results as JUnit XML (repeatable); a failed test, or one that
                       could not run, blocks release
  --requirements PATH  the requirement files or folders the run was made from (repeatable;
                       default: the ones the run recorded), held against the results
  --recheck N|all      re-evaluate N points (or all) of each passed requirement, drawn at
                       random, and compare their values with the recorded ones
  --timeout S          seconds one re-evaluated point may take before it is an error
                       (with --recheck; default: none)
  --json FILE          also write the decision as JSON, never inside DIR (- : to standard
                       output, the lines then go to standard error; ./- names a file
                       called -)
  --help               this text
exit codes: 0 releasable; 1 not releasable; 2 invalid input
)";

constexpr std::string_view kReport = R"(usage: simverify report DIR [options] --out SITE
  Writes the static HTML report of the results folder DIR (written by `simverify run`).
options:
  --out SITE           the site folder to write, replaced whole; it must be new, empty or a
                       site an earlier report wrote (never the results folder)
  --coverage FILE      coverage summary (ci/coverage's summary.json, an lcov .info or
                       Cobertura XML)
  --config FILE        the project file with the gate's settings (default: the simverify.yaml
                       beside the requirement files, else the one the run recorded, never
                       one in the working directory)
  --tests FILE         test results as JUnit XML (repeatable); a failed test, or one that
                       could not run, blocks release
  --requirements PATH  the requirement files or folders the run was made from (repeatable;
                       default: the ones the run recorded), held against the results
  --recheck N|all      re-evaluate N points (or all) of each passed requirement, drawn at
                       random, and compare their values with the recorded ones
  --timeout S          seconds one re-evaluated point may take before it is an error
                       (with --recheck; default: none)
  --coverage-html DIR  the lcov HTML report to link (default: beside the coverage file, html/)
  --baseline DIR       an earlier results folder: newly failing first, margin trends,
                       "compared with <commit, date>" (as `simverify diff`)
  --history DIR...     earlier results folders: each requirement's margin over them
  --help               this text
environment: SIMVERIFY_REPORTS_DIR (renderer folder, default <prefix>/share/simverify/reports
  beside <prefix>/bin/simverify), SIMVERIFY_PYTHON (default /usr/bin/python3)
exit codes: 0 the report was rendered (the verdict is in it; `gate` exits by it); 2 invalid
  input or the renderer failed
)";

constexpr std::string_view kDiff = R"(usage: simverify diff BASE NEW [options]
  What changed between two results folders: status changes (regressions first), new and
  removed requirements, worst value and margin before and after.
options:
  --points             also the grid points whose verdict, value or margin changed
  --json               print simverify.diff/1 JSON instead of text
  --help               this text
exit codes: 0 no regression; 1 a requirement passed in BASE and failed or erred in NEW;
  2 invalid input
)";

constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kHelp = {{
    {"run", kRun},
    {"merge", kMerge},
    {"list", kList},
    {"validate", kValidate},
    {"gate", kGate},
    {"report", kReport},
    {"diff", kDiff},
}};

}  // namespace

std::optional<std::string_view> command_help(std::string_view command) {
  for (const auto& [name, text] : kHelp) {
    if (name == command) return text;
  }
  return std::nullopt;
}

}  // namespace simverify::framework
