// Speed as a user sees it (issue 19): `simverify run` on a pack of N Arenstorf periods read
// only through x_end (ode45, rtol = atol = 1e-8, --jobs 1) against arenstorf_odeint, a plain
// Boost.Odeint program doing the same N solves -- whole processes, start-up, loading and
// writing results included. Rounds alternate the two; each round's ratio is ours / odeint's,
// in CPU time (user + system of the process and its workers, which other load on a shared
// machine distorts less) and in wall time. Prints every round, then median and best.
// Goal: median CPU ratio <= 1.2 with --series none.
//   cli_bench [--points N] [--rounds R] [--callgrind M]
//     defaults 2000 and 9; --callgrind M also counts instructions (valgrind) at M solves and
//     per solve; --benchmark_* arguments (ci/bench passes Google Benchmark's) are ignored,
//     any other is an error (exit 2); --help prints the usage
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "process.hpp"

namespace fs = std::filesystem;

namespace {

using simverify::bench::Cost;
using simverify::bench::instructions;
using simverify::bench::run;

// The pack: N identical Arenstorf periods (a `seed` axis makes N points; it changes nothing
// for a model without random input), the quality reading x_end only.
void write_pack(const fs::path& file, long points) {
  std::ofstream out(file);
  out << "requirements:\n"
         "  - id: BENCH-ARENSTORF\n"
         "    title: ode45 returns to the Arenstorf orbit's start after one period\n"
         "    level: integration\n"
         "    component: simulate\n"
         "    conditions:\n"
         "      model: arenstorf\n"
         "      method: ode45\n"
         "      rtol: 1.0e-8\n"
         "      atol: 1.0e-8\n"
         "      tf: 17.0652165601579625588917206249\n"
         "      seed: {range: [1, "
      << points
      << ", 1]}\n"
         "    quality:\n"
         "      measure: x_end\n"
         "      compare: {reference: [0.994, 0.0, 0.0, -2.00158510637908252240537862224], "
         "norm: max_abs}\n"
         "      threshold: \"<= 1e-2\"\n";
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double best(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

// The processes compared, for a pack of `points` solves in `dir`.
struct Commands {
  fs::path dir;
  std::vector<std::string> odeint(long points) const {
    return {SIMVERIFY_ARENSTORF_ODEINT, std::to_string(points)};
  }
  // isolation: "process" as a user runs it; callgrind counts with "none" (one thread in the
  // process), since a worker killed at the end of the run never writes its counts. Each
  // series choice has its own results folder, as a user rerunning one command has: otherwise
  // every --series none run would also delete the quality run's trajectories before it.
  std::vector<std::string> simverify(long points, const char* series,
                                     const char* isolation = "process") const {
    const fs::path pack = dir / ("arenstorf-" + std::to_string(points) + ".yaml");
    if (!fs::exists(pack)) write_pack(pack, points);
    return {SIMVERIFY_BIN,
            "run",
            pack.string(),
            "--jobs",
            "1",
            "--series",
            series,
            "--isolation",
            isolation,
            "--out",
            (dir / (std::string("out-") + series)).string(),
            "--no-progress"};
  }
};

// --callgrind: whole-process instructions at `points` solves, and per solve as the difference
// to a one-solve run (start-up, loading and reporting cancel out).
void count_instructions(const Commands& commands, long points) {
  struct Row {
    const char* name;
    std::function<std::vector<std::string>(long)> argv;
  };
  const std::vector<Row> rows = {
      {"arenstorf_odeint (std::array)", [&](long n) { return commands.odeint(n); }},
      {"simverify run --series none",
       [&](long n) { return commands.simverify(n, "none", "none"); }},
      {"simverify run (--series quality)",
       [&](long n) { return commands.simverify(n, "quality", "none"); }}};
  std::printf("\ncallgrind, %ld solves: instructions per process and per solve\n", points);
  std::printf("%-34s %16s %10s %16s %10s\n", "process", "process", "ratio", "per solve", "ratio");
  double base_process = 0.0, base_solve = 0.0;
  for (const auto& row : rows) {
    const double all = instructions(row.argv(points), commands.dir);
    const double one = instructions(row.argv(1), commands.dir);
    const double per_solve = (all - one) / static_cast<double>(points - 1);
    if (base_process == 0.0) {
      base_process = all;
      base_solve = per_solve;
    }
    std::printf("%-34s %16.0f %10.3f %16.0f %10.3f\n", row.name, all, all / base_process, per_solve,
                per_solve / base_solve);
  }
}

}  // namespace

int main(int argc, char** argv) {
  long points = 2000;
  int rounds = 9;
  long callgrind_points = 0;
  constexpr const char* usage =
      "usage: cli_bench [--points N] [--rounds R] [--callgrind M]\n"
      "  N solves per process (default 2000), R rounds (default 9); --callgrind M also counts\n"
      "  instructions at M solves (valgrind). --benchmark_* options (ci/bench) are ignored.\n";
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    }
    if (a.starts_with("--benchmark_")) continue;
    if (a != "--points" && a != "--rounds" && a != "--callgrind") {
      std::fprintf(stderr, "cli_bench: unknown argument '%s'\n%s", argv[i], usage);
      return 2;
    }
    char* end = nullptr;
    const long value = i + 1 < argc ? std::strtol(argv[i + 1], &end, 10) : 0;
    if (end == nullptr || *end != '\0' || end == argv[i + 1] || value <= 0) {
      std::fprintf(stderr, "cli_bench: %s needs a positive whole number\n%s", argv[i], usage);
      return 2;
    }
    ++i;
    if (a == "--points") points = value;
    if (a == "--rounds") rounds = static_cast<int>(value);
    if (a == "--callgrind") callgrind_points = value;
  }
  const Commands commands{fs::temp_directory_path() /
                          ("simverify-cli-bench-" + std::to_string(::getpid()))};
  fs::create_directories(commands.dir);
  struct Row {
    const char* name;
    std::vector<std::string> argv;
    std::vector<double> cpu, wall, cpu_ratio, wall_ratio;
  };
  std::vector<Row> rows = {
      {"simverify run --series none", commands.simverify(points, "none"), {}, {}, {}, {}},
      {"simverify run (--series quality)", commands.simverify(points, "quality"), {}, {}, {}, {}}};
  Row peer{"arenstorf_odeint (std::array)", commands.odeint(points), {}, {}, {}, {}};
  std::printf("%ld Arenstorf periods per process, %d rounds\n", points, rounds);
  try {
    for (int r = 0; r < rounds; ++r) {
      // Alternate who goes first, so a slow phase of the machine hits both alike.
      Cost o;
      if (r % 2 == 0) o = run(peer.argv);
      std::vector<Cost> ours;
      for (auto& row : rows) ours.push_back(run(row.argv));
      if (r % 2 == 1) o = run(peer.argv);
      peer.cpu.push_back(o.cpu);
      peer.wall.push_back(o.wall);
      for (std::size_t k = 0; k < rows.size(); ++k) {
        rows[k].cpu.push_back(ours[k].cpu);
        rows[k].wall.push_back(ours[k].wall);
        rows[k].cpu_ratio.push_back(ours[k].cpu / o.cpu);
        rows[k].wall_ratio.push_back(ours[k].wall / o.wall);
      }
      std::printf("round %d: odeint %.3f s cpu", r + 1, o.cpu);
      for (const auto& row : rows) {
        std::printf(", %.3f s (x%.2f)", row.cpu.back(), row.cpu_ratio.back());
      }
      std::printf("\n");
    }
    std::printf("\n%-34s %12s %12s %12s %12s %14s %14s\n", "process", "cpu median", "cpu best",
                "wall median", "wall best", "cpu ratio med", "wall ratio med");
    std::printf("%-34s %11.3fs %11.3fs %11.3fs %11.3fs %14s %14s\n", peer.name, median(peer.cpu),
                best(peer.cpu), median(peer.wall), best(peer.wall), "1", "1");
    for (const auto& row : rows) {
      std::printf("%-34s %11.3fs %11.3fs %11.3fs %11.3fs %14.3f %14.3f\n", row.name,
                  median(row.cpu), best(row.cpu), median(row.wall), best(row.wall),
                  median(row.cpu_ratio), median(row.wall_ratio));
    }
    if (callgrind_points > 1) count_instructions(commands, callgrind_points);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cli_bench: %s\n", e.what());
    fs::remove_all(commands.dir);
    return 1;
  }
  fs::remove_all(commands.dir);
  return 0;
}
