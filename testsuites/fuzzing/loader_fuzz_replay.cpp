// Replays the loader's fuzz target without libFuzzer, so every build (g++ included) tests it:
// over every shipped requirement file and malformed catalogue case, then over a fixed number
// of seeded mutations of them. Diagram files (the shipped ones, the examples' and the
// malformed diagram catalogue) and their mutations also go through the diagram reader's
// target (diagram_fuzz_target.hpp). The mutations come from std::mt19937_64, whose sequence the
// standard fixes, so a run is the same on every platform.
//   loader_fuzz_replay --source DIR [--mutations N] [--seed S] [--failure FILE]
//   loader_fuzz_replay FILE...      (replays saved inputs, e.g. a libFuzzer crash-* file)
// A broken promise stops the run with exit 1, names the input and writes it to --failure
// (default loader_fuzz_failure.yaml) so it replays with the second form; so does a crash.
#include "diagram_fuzz_target.hpp"
#include "loader_fuzz_target.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Seed {
  fs::path path;
  std::string text;
};

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<Seed> seeds_under(const fs::path& source) {
  std::vector<Seed> seeds;
  for (const char* folder :
       {"requirements", "testsuites/malformed", "testsuites/malformed_diagrams", "examples"}) {
    for (const auto& entry : fs::recursive_directory_iterator(source / folder)) {
      if (entry.is_regular_file() && entry.path().extension() == ".yaml") {
        seeds.push_back({entry.path(), read(entry.path())});
      }
    }
  }
  // Directory order differs between file systems; the mutation stream must not.
  std::sort(seeds.begin(), seeds.end(),
            [](const Seed& a, const Seed& b) { return a.path < b.path; });
  return seeds;
}

// Pieces that make YAML and our format interesting: structure, anchors, special numbers,
// generator and section names.
// clang-format off
constexpr std::array<std::string_view, 46> kTokens = {
    ":", " ", "\n", "\n  - ", "{", "}", "[", "]", ",", "- ", "&a ", "*a", "!", "? ",
    "|", "'", "\"", "#", "\t", "\r", "\xff", ".inf", "-.inf", ".nan", "1e308", "-1", "0",
    "9999999", "[1, 2, 3]", "{}", "zip: ", "linspace: ", "seed: ", "compare: ", "tube: ",
    "reference: ", "aggregate: ", "over: [h]", "statistic: order", "threshold: ",
    "type: ", "file: ", "expr: ", "algebraic_loops: ", "{solve: newton}", ".y"};
// clang-format on

class Mutator {
 public:
  Mutator(std::uint64_t seed, const std::vector<Seed>& seeds) : rng_(seed), seeds_(seeds) {}

  // Applies one to four edits to a copy of a random seed; `how` says which.
  std::string mutate(const Seed& seed, std::string& how) {
    std::string text = seed.text;
    const std::size_t edits = 1 + below(4);
    for (std::size_t i = 0; i < edits; ++i) how += (how.empty() ? "" : ", ") + edit(text);
    return text;
  }

  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }

 private:
  // Byte offsets of line starts, plus the end.
  static std::vector<std::size_t> line_starts(const std::string& text) {
    std::vector<std::size_t> starts{0};
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts.push_back(i + 1);
    }
    if (starts.back() != text.size()) starts.push_back(text.size());
    return starts;
  }

  std::string edit(std::string& text) {
    const std::size_t at = below(text.size() + 1);
    const auto starts = line_starts(text);
    const std::size_t line = below(starts.size() - 1);
    const std::size_t begin = starts[line];
    const std::size_t end = starts.size() > 1 ? starts[line + 1] : text.size();
    switch (below(8)) {
      case 0:
        if (text.empty()) return "nothing to flip";
        text[at % text.size()] = static_cast<char>(text[at % text.size()] ^ (1 << below(8)));
        return "bit flip at " + std::to_string(at % text.size());
      case 1: {
        const auto token = kTokens[below(kTokens.size())];
        text.insert(at, token);
        return "insert token at " + std::to_string(at);
      }
      case 2: {
        const std::size_t n = 1 + below(8);
        text.erase(at, n);
        return "erase " + std::to_string(n) + " at " + std::to_string(at);
      }
      case 3:  // duplicated keys and list entries
        text.insert(end, text.substr(begin, end - begin));
        return "duplicate line " + std::to_string(line + 1);
      case 4: text.erase(begin, end - begin); return "delete line " + std::to_string(line + 1);
      case 5: {  // a line of another file, e.g. a generator into a `compare:` case
        const auto& other = seeds_[below(seeds_.size())].text;
        const auto other_starts = line_starts(other);
        const std::size_t k = below(other_starts.size() - 1);
        const std::size_t k_end = other_starts.size() > 1 ? other_starts[k + 1] : other.size();
        text.replace(begin, end - begin, other.substr(other_starts[k], k_end - other_starts[k]));
        return "splice line " + std::to_string(line + 1);
      }
      case 6:
        if (below(2) == 0) {
          text.insert(begin, "  ");
          return "indent line " + std::to_string(line + 1);
        }
        if (text.compare(begin, 2, "  ") == 0) text.erase(begin, 2);
        return "dedent line " + std::to_string(line + 1);
      default: {
        const std::size_t from = below(text.size() + 1);
        const std::size_t n = below(32);
        const std::string copy = text.substr(from, n);
        text.insert(at, copy);
        return "copy " + std::to_string(copy.size()) + " bytes to " + std::to_string(at);
      }
    }
  }

  std::mt19937_64 rng_;
  const std::vector<Seed>& seeds_;
};

// A crash (a stack overflow, say) cannot return a message: the handler names the input and
// saves it with async-signal-safe calls only, on its own stack.
struct Current {
  std::string failure_path;
  std::string name;
  std::string_view text;
};
Current current;

void write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    const auto n = ::write(fd, s.data(), s.size());
    if (n <= 0) return;
    s.remove_prefix(static_cast<std::size_t>(n));
  }
}

extern "C" void on_crash(int signal) {
  write_all(2, "loader crashed on ");
  write_all(2, current.name);
  write_all(2, "\n  input written to ");
  write_all(2, current.failure_path);
  write_all(2, "\n");
  const int fd = ::open(current.failure_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    write_all(fd, current.text);
    ::close(fd);
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void install_crash_handler() {
  static std::vector<char> stack(1 << 16);
  stack_t alternate{};
  alternate.ss_sp = stack.data();
  alternate.ss_size = stack.size();
  ::sigaltstack(&alternate, nullptr);
  struct sigaction action {};
  action.sa_handler = on_crash;
  action.sa_flags = SA_ONSTACK;
  for (const int signal : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL}) {
    ::sigaction(signal, &action, nullptr);
  }
}

// Runs the target on one input, naming it for the crash handler first.
std::optional<std::string> check(const std::string& text, const std::string& name,
                                 const std::string& file_name) {
  current.name = name;
  current.text = text;
  if (auto broken = simverify::fuzzing::check_loader(text, file_name)) return broken;
  if (!simverify::fuzzing::is_diagram_document(text)) return std::nullopt;
  return simverify::fuzzing::check_diagram(text, file_name);
}

int fail(const std::string& input, const std::string& name, const std::string& broken,
         const fs::path& failure) {
  std::ofstream(failure, std::ios::binary) << input;
  std::cerr << "loader promise broken by " << name << ":\n  " << broken << "\n  input written to "
            << fs::absolute(failure).string() << " (replay: loader_fuzz_replay " << failure.string()
            << ")\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path source;
  fs::path failure = "loader_fuzz_failure.yaml";
  std::size_t mutations = 20000;
  std::uint64_t seed = 20261123;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--source" && has_value) {
      source = argv[++i];
    } else if (arg == "--mutations" && has_value) {
      mutations = std::stoul(argv[++i]);
    } else if (arg == "--seed" && has_value) {
      seed = std::stoull(argv[++i]);
    } else if (arg == "--failure" && has_value) {
      failure = argv[++i];
    } else if (arg.starts_with("--")) {
      std::cerr << "usage: loader_fuzz_replay --source DIR [--mutations N] [--seed S] "
                   "[--failure FILE] | FILE...\n";
      return 2;
    } else {
      files.emplace_back(arg);
    }
  }
  current.failure_path = fs::absolute(failure).string();
  install_crash_handler();
  if (!files.empty()) {
    for (const auto& file : files) {
      const std::string text = read(file);
      const auto broken = check(text, file.string(), simverify::fuzzing::default_file_name());
      if (broken) return fail(text, file.string(), *broken, failure);
    }
    std::cout << files.size() << " input(s) keep the loader's promises\n";
    return 0;
  }
  if (source.empty()) {
    std::cerr << "loader_fuzz_replay: --source DIR (the checkout) or input files required\n";
    return 2;
  }
  const auto seeds = seeds_under(source);
  for (const auto& s : seeds) {
    // Under its own name, so reference CSVs next to it resolve.
    if (auto broken = check(s.text, s.path.string(), s.path.string())) {
      return fail(s.text, s.path.string(), *broken, failure);
    }
  }
  Mutator mutator(seed, seeds);
  for (std::size_t i = 0; i < mutations; ++i) {
    const Seed& s = seeds[mutator.below(seeds.size())];
    std::string how;
    const std::string text = mutator.mutate(s, how);
    const std::string name =
        "mutation " + std::to_string(i) + " of " + s.path.string() + " (" + how + ")";
    if (auto broken = check(text, name, s.path.string())) return fail(text, name, *broken, failure);
  }
  std::cout << seeds.size() << " seeds and " << mutations
            << " mutations keep the loader's promises\n";
  return 0;
}
