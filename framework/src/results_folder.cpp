#include "results_folder.hpp"

#include "detail/atomic_file.hpp"
#include "results_file.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace simverify::framework {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarkerText =
    "This folder holds simverify results; simverify replaces it whole on the next run.\n";

// "out/" and "out" name the same folder; the staging folder goes beside it.
fs::path normalized(const fs::path& dir) {
  fs::path p = fs::absolute(dir).lexically_normal();
  if (!p.has_filename() && p.has_parent_path() && p != p.root_path()) p = p.parent_path();
  return p;
}

std::string staging_prefix(const fs::path& dir) {
  return fmt::format(".{}.staging-", dir.filename().string());
}

// What a results folder publishes (commit() removes anything else from the staging folder).
constexpr std::string_view kPublishedNames[] = {kResultsMarker, kResultsFileName, "junit.xml",
                                                "series", "figures"};

bool is_published_name(const std::string& name) {
  return std::find(std::begin(kPublishedNames), std::end(kPublishedNames), name) !=
         std::end(kPublishedNames);
}

// A site `simverify report` wrote (its marker): the report of the results it sits in, stale
// once they are replaced (`report out --out out/site`).
bool is_report_site(const fs::path& dir) {
  std::error_code ec;
  // The marker itself, not a link to some file: the renderer writes a regular file.
  return fs::is_directory(fs::symlink_status(dir, ec)) &&
         fs::is_regular_file(fs::symlink_status(dir / ".simverify-site", ec));
}

// Replacing `dir` deletes all it holds: only what simverify wrote may be in it. Shard results
// written into it (`--out out/1`) or a user's file would be lost without a word.
void check_holds_only_ours(const fs::path& dir, const fs::path& shown) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (is_published_name(name) || is_report_site(entry.path())) continue;
    throw OutputError(fmt::format(
        "{}: holds {}, which {}; the results replace their folder whole and would delete it, so "
        "move it or give another --out",
        shown.string(), (shown / name).string(),
        is_results_folder(entry.path()) ? "is a results folder of another run"
                                        : "simverify did not write"));
  }
}

// A results folder inside another one is deleted when the outer one is replaced: the folders
// above `dir` as written and above where links lead (`L/x` with L -> out/series).
void check_not_inside_results(const fs::path& dir, const fs::path& shown) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(dir, ec);
  if (!ec && real != dir) check_not_inside_results(real, shown);
  for (fs::path above = dir.parent_path(); above.has_relative_path(); above = above.parent_path()) {
    if (is_results_folder(above)) {
      throw OutputError(fmt::format(
          "{}: is inside the results folder {}, which the next run into it replaces whole; "
          "give a folder beside it, e.g. {}",
          shown.string(), above.string(),
          (above.parent_path() / (above.filename().string() + "-" + dir.filename().string()))
              .string()));
    }
  }
}

}  // namespace

bool is_results_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  if (fs::is_regular_file(dir / kResultsMarker, ec)) return true;
  // Folders written before the marker: a results.json that starts like ours.
  if (!fs::is_regular_file(dir / kResultsFileName, ec)) return false;
  std::ifstream in(dir / kResultsFileName, std::ios::binary);
  std::string head(256, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head.find(kResultsFormat) != std::string::npos;
}

ResultsFolder::ResultsFolder(const fs::path& dir)
    : dir_(dir.empty() ? throw OutputError("the results folder is an empty path; give a folder")
                       : normalized(dir)) {
  // A constructor that throws runs no destructor: what it made so far goes here (a full disk
  // while writing the marker left the new folder and the staging folder behind).
  try {
    claim(dir);
  } catch (...) {
    release();
    throw;
  }
}

void ResultsFolder::claim(const fs::path& dir) {
  std::error_code ec;
  // A link to a folder names that folder: its contents are replaced and the link stays, as
  // `report --out` and `gate --json` treat links. Renaming over the link itself would delete
  // a file the user made.
  if (fs::is_symlink(fs::symlink_status(dir_, ec)) && fs::is_directory(dir_, ec)) {
    dir_ = fs::canonical(dir_, ec);
    if (ec) {
      throw OutputError(fmt::format("{}: cannot follow the link: {}", dir.string(), ec.message()));
    }
  }
  // Replacing the working folder (or one holding it) would leave the caller's shell in a
  // deleted folder, its results out of sight.
  if (const fs::path here = fs::current_path(ec); !ec) {
    const fs::path real = fs::weakly_canonical(dir_, ec);
    if (!ec &&
        (here == real ||
         std::mismatch(real.begin(), real.end(), here.begin(), here.end()).first == real.end())) {
      throw OutputError(fmt::format(
          "{}: is the working folder or holds it; the results replace their folder whole, so "
          "give a folder inside it, e.g. simverify-out",
          dir.string()));
    }
  }
  check_not_inside_results(dir_, dir);
  const auto status = fs::symlink_status(dir_, ec);
  if (fs::exists(status)) {
    if (fs::is_symlink(status)) {
      const std::string target = fs::read_symlink(dir_, ec).string();
      throw OutputError(fmt::format(
          "{}: is a symbolic link to {}; give a new folder for the results", dir.string(),
          fs::exists(dir_, ec) ? target + ", which is not a folder" : "nothing (" + target + ")"));
    }
    if (!fs::is_directory(dir_, ec)) {
      throw OutputError(
          fmt::format("{}: exists and is not a folder; give a new folder for the "
                      "results",
                      dir.string()));
    }
    if (!fs::is_empty(dir_, ec) && !is_results_folder(dir_)) {
      throw OutputError(fmt::format(
          "{}: is not a simverify results folder (no {} file in it); simverify replaces its "
          "results folder whole, so give a new or empty folder",
          dir.string(), kResultsMarker));
    }
    check_holds_only_ours(dir_, dir);
  } else {
    fs::create_directories(dir_, ec);
    if (ec) {
      throw OutputError(
          fmt::format("{}: cannot create the folder: {}", dir.string(), ec.message()));
    }
    created_ = true;
  }
  const fs::path marker = dir_ / kResultsMarker;
  lock_fd_ = ::open(marker.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock_fd_ < 0) {
    throw OutputError(fmt::format("{}: cannot write: {}", marker.string(), std::strerror(errno)));
  }
  // A POSIX record lock, not flock(): it belongs to this process alone, so the worker
  // processes it forks do not inherit it and it ends with the process, even when killed.
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  if (::fcntl(lock_fd_, F_SETLK, &lock) != 0) {
    const int error = errno;
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw OutputError(fmt::format("{}: {}", dir.string(),
                                  error == EACCES || error == EAGAIN
                                      ? "another simverify is writing results into it; wait "
                                        "for it or give another --out"
                                      : std::strerror(error)));
  }
  // With the lock held no other simverify writes here: staging folders left beside it are
  // from runs that were killed.
  const std::string prefix = staging_prefix(dir_);
  for (const auto& entry : fs::directory_iterator(dir_.parent_path(), ec)) {
    if (entry.path().filename().string().starts_with(prefix)) fs::remove_all(entry.path(), ec);
  }
  staging_ = dir_.parent_path() / fmt::format("{}{}", prefix, ::getpid());
  fs::create_directory(staging_, ec);
  if (ec) {
    throw OutputError(
        fmt::format("{}: cannot create the staging folder: {}", staging_.string(), ec.message()));
  }
  detail::write_atomically(staging_ / kResultsMarker, kMarkerText);
}

ResultsFolder::~ResultsFolder() {
  release();
}

void ResultsFolder::release() noexcept {
  std::error_code ec;
  if (!committed_) {
    if (!staging_.empty()) fs::remove_all(staging_, ec);
    if (created_) fs::remove_all(dir_, ec);
  }
  if (lock_fd_ >= 0) ::close(lock_fd_);
  lock_fd_ = -1;
}

// `dir` still holds the marker this object locked: it was not moved away or replaced while
// the results were written (a folder put in its place is someone else's).
bool ResultsFolder::still_ours() const {
  struct stat locked {};
  struct stat there {};
  const fs::path marker = dir_ / kResultsMarker;
  return ::fstat(lock_fd_, &locked) == 0 && ::lstat(marker.c_str(), &there) == 0 &&
         locked.st_dev == there.st_dev && locked.st_ino == there.st_ino;
}

void ResultsFolder::commit() {
  // Not ours to replace any more, and the results are not to be lost: they stay beside it.
  const auto keep_beside = [&](const std::string& why) {
    created_ = false;
    const fs::path kept = dir_.string() + fmt::format(".results-{}", ::getpid());
    std::error_code ec;
    fs::rename(staging_, kept, ec);
    if (!ec) committed_ = true;  // nothing to remove: the staging folder is `kept` now
    return OutputError(fmt::format("{}; {}", why,
                                   ec ? "the results were not kept (" + ec.message() + ")"
                                      : "the results are in " + kept.string()));
  };
  if (!still_ours()) {
    throw keep_beside(fmt::format(
        "{}: the folder was moved or replaced while the results were written, so it was left "
        "as it is",
        dir_.string()));
  }
  // What someone put into it while the run wrote would go with the previous results.
  try {
    check_holds_only_ours(dir_, dir_);
  } catch (const OutputError& e) {
    throw keep_beside(e.what());
  }
  // Only what simverify writes is published: a `command` program runs with a TMPDIR inside the
  // staging folder (so a killed run's leftovers go with it) and could leave files beside ours.
  std::error_code listing;
  for (const auto& entry : fs::directory_iterator(staging_, listing)) {
    if (!is_published_name(entry.path().filename().string())) {
      std::error_code ec;
      fs::remove_all(entry.path(), ec);
    }
  }
  // One atomic step: readers see the old results or the new ones, never a mix.
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
    const int error = errno;
    if (error != EINVAL && error != ENOSYS) {
      throw OutputError(fmt::format("{}: cannot put the new results in place: {}", dir_.string(),
                                    std::strerror(error)));
    }
    // A file system without RENAME_EXCHANGE: two renames, with the old results set aside.
    const fs::path old = staging_.string() + ".old";
    fs::rename(dir_, old);
    fs::rename(staging_, dir_);
    staging_ = old;
  }
  committed_ = true;
  std::error_code ec;
  fs::remove_all(staging_, ec);  // the previous results, now under the staging name
}

}  // namespace simverify::framework
