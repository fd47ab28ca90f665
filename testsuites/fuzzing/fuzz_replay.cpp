#include "fuzz_replay.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

namespace simverify::fuzzing {
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

std::vector<Seed> seeds_under(const fs::path& source, const std::vector<SeedFolder>& folders) {
  std::vector<Seed> seeds;
  for (const auto& [folder, extensions] : folders) {
    for (const auto& entry : fs::recursive_directory_iterator(source / folder)) {
      const auto extension = entry.path().extension().string();
      if (entry.is_regular_file() &&
          std::find(extensions.begin(), extensions.end(), extension) != extensions.end()) {
        seeds.push_back({entry.path(), read(entry.path())});
      }
    }
  }
  // Directory order differs between file systems; the mutation stream must not.
  std::sort(seeds.begin(), seeds.end(),
            [](const Seed& a, const Seed& b) { return a.path < b.path; });
  return seeds;
}

class Mutator {
 public:
  Mutator(std::uint64_t seed, const std::vector<Seed>& seeds,
          std::span<const std::string_view> tokens)
      : rng_(seed), seeds_(seeds), tokens_(tokens) {}

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
        if (tokens_.empty()) return "no token to insert";
        text.insert(at, tokens_[below(tokens_.size())]);
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
  std::span<const std::string_view> tokens_;
};

// A crash (a stack overflow, say) cannot return a message: the handler names the input and
// saves it with async-signal-safe calls only, on its own stack.
struct Current {
  std::string target;
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
  write_all(2, current.target);
  write_all(2, " crashed on ");
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

// The process's peak resident memory so far, in MiB (Linux reports KiB).
long peak_rss_mib() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// The process's peak a reader that stays under `budget_mib` can reach. Under AddressSanitizer
// freed memory waits in a quarantine (256 MiB by default on 64-bit Linux) before it is reused,
// and the shadow adds an eighth of what is touched, so after thousands of inputs the peak is
// about (budget + 256) * 9/8 whatever the reader keeps (the asan build's long replay reached
// 513 MiB with no input above 28 MiB on its own).
long peak_allowed_mib(long budget_mib) {
  return kAddressSanitizer ? (budget_mib + 256) * 9 / 8 : budget_mib;
}

class Runner {
 public:
  Runner(const Replay& replay, fs::path failure, long max_rss_mib)
      : replay_(replay),
        failure_(std::move(failure)),
        max_rss_mib_(peak_allowed_mib(max_rss_mib)) {}

  // Runs the target on one input, naming it for the crash handler first; exit status 1 when
  // it broke a promise (reported, input saved), nothing when it kept them.
  std::optional<int> check(const std::string& text, const std::string& name,
                           const std::string& file_name) {
    current.name = name;
    current.text = text;
    auto broken = replay_.target(text, file_name);
    if (!broken && peak_rss_mib() > max_rss_mib_) {
      broken = "peak memory " + std::to_string(peak_rss_mib()) + " MiB after this input, more " +
               "than the " + std::to_string(max_rss_mib_) + " MiB allowed (--max-rss-mib" +
               (kAddressSanitizer ? " and AddressSanitizer's quarantine and shadow)" : ")");
    }
    if (!broken) return std::nullopt;
    std::ofstream(failure_, std::ios::binary) << text;
    std::cerr << replay_.name << " promise broken by " << name << ":\n  " << *broken
              << "\n  input written to " << fs::absolute(failure_).string()
              << " (replay: " << replay_.name << "_fuzz_replay " << failure_.string() << ")\n";
    return 1;
  }

 private:
  const Replay& replay_;
  fs::path failure_;
  long max_rss_mib_;
};

}  // namespace

int replay_main(int argc, char** argv, const Replay& replay) {
  const std::string usage = replay.name +
                            "_fuzz_replay --source DIR [--mutations N] [--seed S] "
                            "[--failure FILE] [--max-rss-mib M] | FILE...\n";
  fs::path source;
  fs::path failure = replay.name + "_fuzz_failure" + replay.seeds.front().extensions.front();
  std::size_t mutations = 20000;
  std::uint64_t seed = 20261123;
  long max_rss_mib = 512;
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
    } else if (arg == "--max-rss-mib" && has_value) {
      max_rss_mib = std::stol(argv[++i]);
    } else if (arg.starts_with("--")) {
      std::cerr << "usage: " << usage;
      return 2;
    } else {
      files.emplace_back(arg);
    }
  }
  current.target = replay.name;
  current.failure_path = fs::absolute(failure).string();
  install_crash_handler();
  Runner runner(replay, failure, max_rss_mib);
  if (!files.empty()) {
    for (const auto& file : files) {
      if (auto status = runner.check(read(file), file.string(), replay.default_file_name)) {
        return *status;
      }
    }
    std::cout << files.size() << " input(s) keep the promises of the " << replay.name
              << " target\n";
    return 0;
  }
  if (source.empty()) {
    std::cerr << replay.name << "_fuzz_replay: --source DIR (the checkout) or input files "
              << "required\nusage: " << usage;
    return 2;
  }
  const auto seeds = seeds_under(source, replay.seeds);
  if (seeds.empty()) {
    std::cerr << replay.name << "_fuzz_replay: no seed files under " << source << "\n";
    return 2;
  }
  for (const auto& s : seeds) {
    // Under its own name, so files it names (reference CSVs) resolve.
    if (auto status = runner.check(s.text, s.path.string(), s.path.string())) return *status;
  }
  Mutator mutator(seed, seeds, replay.tokens);
  for (std::size_t i = 0; i < mutations; ++i) {
    const Seed& s = seeds[mutator.below(seeds.size())];
    std::string how;
    const std::string text = mutator.mutate(s, how);
    const std::string name =
        "mutation " + std::to_string(i) + " of " + s.path.string() + " (" + how + ")";
    if (auto status = runner.check(text, name, s.path.string())) return *status;
  }
  std::cout << seeds.size() << " seeds and " << mutations << " mutations keep the promises of the "
            << replay.name << " target\n";
  return 0;
}

}  // namespace simverify::fuzzing
