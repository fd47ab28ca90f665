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
#include <string_view>
#include <vector>

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

// Where a results folder that is a mount point is staged, and its previous results set aside
// while the entries are swapped (inside it: a mount point cannot be renamed).
constexpr std::string_view kInPlaceStaging = ".simverify-staging-";
constexpr std::string_view kInPlaceOld = ".simverify-old-";

bool is_in_place_leftover(const std::string& name) {
  return name.starts_with(kInPlaceStaging) || name.starts_with(kInPlaceOld);
}

// series/<requirement id>/<n>-<name>.csv, figures/<requirement id>/<k>.gv (series_writer.cpp):
// the first entry of `folder` that is not of that shape, or an empty path. A user's notes or
// another run's results put in there would go with the folder.
fs::path foreign_inside(const fs::path& folder, const fs::path& extension) {
  std::error_code ec;
  if (!fs::is_directory(fs::symlink_status(folder, ec))) return folder;
  for (const auto& requirement : fs::directory_iterator(folder, ec)) {
    if (!fs::is_directory(fs::symlink_status(requirement.path(), ec)) ||
        is_results_folder(requirement.path())) {
      return requirement.path();
    }
    for (const auto& file : fs::directory_iterator(requirement.path(), ec)) {
      if (!fs::is_regular_file(fs::symlink_status(file.path(), ec)) ||
          file.path().extension() != extension) {
        return file.path();
      }
    }
  }
  return {};
}

// Replacing `dir` deletes all it holds: only what simverify wrote may be in it. Shard results
// written into it (`--out out/1`) or a user's file would be lost without a word.
void check_holds_only_ours(const fs::path& dir, const fs::path& shown) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    fs::path foreign;
    if (name == "series" || name == "figures") {
      foreign = foreign_inside(entry.path(), name == "series" ? ".csv" : ".gv");
    } else if ((!is_published_name(name) || fs::is_directory(entry.symlink_status(ec))) &&
               !is_report_site(entry.path()) && !is_in_place_leftover(name)) {
      foreign = entry.path();
    }
    if (foreign.empty()) continue;
    throw OutputError(fmt::format(
        "{}: holds {}, which {}; the results replace their folder whole and would delete it, so "
        "move it or give another --out",
        shown.string(), (shown / foreign.lexically_relative(dir)).string(),
        is_results_folder(foreign) ? "is a results folder of another run"
                                   : "simverify did not write"));
  }
}

// A mount point (a container's volume) cannot be renamed: its results are swapped entry by
// entry instead. STATX_ATTR_MOUNT_ROOT sees bind mounts of the same file system too.
bool is_mount_point(const fs::path& dir) {
#ifdef STATX_ATTR_MOUNT_ROOT
  struct statx sx {};
  if (::statx(AT_FDCWD, dir.c_str(), AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0 &&
      (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0) {
    return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
  }
#endif
  struct stat here {};
  struct stat above {};
  return ::lstat(dir.c_str(), &here) == 0 && ::stat(dir.parent_path().c_str(), &above) == 0 &&
         here.st_dev != above.st_dev;
}

// A results folder inside another one is deleted when the outer one is replaced: the folders
// above `dir` as written and above where links lead (`L/x` with L -> out/series).
void check_not_inside_results(const fs::path& dir, const fs::path& shown) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(dir, ec);
  if (!ec && real != dir) check_not_inside_results(real, shown);
  for (fs::path above = dir.parent_path(); above.has_relative_path(); above = above.parent_path()) {
    if (is_report_site(above)) {
      throw OutputError(fmt::format(
          "{}: is inside the report site {}, which the next `simverify report --out {}` replaces "
          "whole; give a folder beside it",
          shown.string(), above.string(), above.string()));
    }
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
  auto status = fs::symlink_status(dir_, ec);
  if (!fs::exists(status)) {
    // mkdir() says whether this run made it: two runs started together into a new folder both
    // see none, and only the one that made it may remove it again.
    fs::create_directories(dir_.parent_path(), ec);
    if (!ec && ::mkdir(dir_.c_str(), 0777) == 0) {
      created_ = true;
    } else if (ec || errno != EEXIST) {
      throw OutputError(fmt::format("{}: cannot create the folder: {}", dir.string(),
                                    ec ? ec.message() : std::strerror(errno)));
    }
    status = fs::symlink_status(dir_, ec);
  }
  if (!created_) {
    if (fs::is_symlink(status)) {
      const std::string target = fs::read_symlink(dir_, ec).string();
      throw OutputError(fmt::format(
          "{}: is a symbolic link to {}; give a new folder for the results", dir.string(),
          fs::exists(dir_, ec) ? target + ", which is not a folder" : "nothing (" + target + ")"));
    }
    if (!fs::is_directory(status)) {
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
    in_place_ = is_mount_point(dir_);
  }
  lock(dir);
  // With the lock held no other simverify writes here: staging folders left are from runs
  // that were killed.
  if (in_place_) {
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      if (is_in_place_leftover(entry.path().filename().string())) fs::remove_all(entry.path(), ec);
    }
    staging_ = dir_ / fmt::format("{}{}", kInPlaceStaging, ::getpid());
  } else {
    const std::string prefix = staging_prefix(dir_);
    for (const auto& entry : fs::directory_iterator(dir_.parent_path(), ec)) {
      if (entry.path().filename().string().starts_with(prefix)) fs::remove_all(entry.path(), ec);
    }
    staging_ = dir_.parent_path() / fmt::format("{}{}", prefix, ::getpid());
  }
  fs::create_directory(staging_, ec);
  if (ec) {
    throw OutputError(
        fmt::format("{}: cannot create the staging folder: {}", staging_.string(), ec.message()));
  }
  // Swapped in whole, the staging folder brings its own marker; in place the locked one stays.
  if (!in_place_) detail::write_atomically(staging_ / kResultsMarker, kMarkerText);
}

void ResultsFolder::lock(const fs::path& dir) {
  const fs::path marker = dir_ / kResultsMarker;
  for (int attempt = 0;; ++attempt) {
    // O_EXCL says whether this run made the marker: a run refused later removes only that.
    lock_fd_ = ::open(marker.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    marker_created_ = lock_fd_ >= 0;
    if (lock_fd_ < 0 && errno == EEXIST)
      lock_fd_ = ::open(marker.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (lock_fd_ < 0) {
      throw OutputError(fmt::format("{}: cannot write: {}", marker.string(), std::strerror(errno)));
    }
    // A POSIX record lock, not flock(): it belongs to this process alone, so the worker
    // processes it forks do not inherit it and it ends with the process, even when killed.
    struct flock request {};
    request.l_type = F_WRLCK;
    request.l_whence = SEEK_SET;
    if (::fcntl(lock_fd_, F_SETLK, &request) != 0) {
      const int error = errno;
      ::close(lock_fd_);
      lock_fd_ = -1;
      // The folder and the marker are the other run's now, whoever made them.
      created_ = false;
      marker_created_ = false;
      throw OutputError(fmt::format("{}: {}", dir.string(),
                                    error == EACCES || error == EAGAIN
                                        ? "another simverify is writing results into it; wait "
                                          "for it or give another --out"
                                        : std::strerror(error)));
    }
    // A run refused before this one removes the marker it made: the file locked must still be
    // the one in the folder, or a third run would lock a new one beside this lock.
    if (still_ours()) return;
    ::close(lock_fd_);
    lock_fd_ = -1;
    marker_created_ = false;
    if (attempt == 10) {
      throw OutputError(
          fmt::format("{}: another simverify is writing results into it; wait for "
                      "it or give another --out",
                      dir.string()));
    }
  }
}

ResultsFolder::~ResultsFolder() {
  release();
}

void ResultsFolder::release() noexcept {
  std::error_code ec;
  if (!committed_) {
    if (!staging_.empty() && !keep_staging_) fs::remove_all(staging_, ec);
    // Refused or failed: the folder as it was, so only what this run made goes.
    if (created_) {
      if (lock_fd_ >= 0) {
        fs::remove_all(dir_, ec);
      } else {
        fs::remove(dir_, ec);  // only while empty
      }
    } else if (marker_created_ && lock_fd_ >= 0) {
      fs::remove(dir_ / kResultsMarker, ec);
    }
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

OutputError ResultsFolder::keep_results(const std::string& why) {
  // Not ours to replace, and the results of a finished run are not to be lost: they stay
  // beside it (or where they were written, when they cannot be moved there).
  created_ = false;
  marker_created_ = false;
  keep_staging_ = true;
  const fs::path kept = dir_.string() + fmt::format(".results-{}", ::getpid());
  std::error_code ec;
  fs::rename(staging_, kept, ec);
  if (ec) {
    return OutputError(fmt::format("{}; the results are in {} (not moved beside it: {})", why,
                                   staging_.string(), ec.message()));
  }
  staging_ = kept;
  return OutputError(fmt::format("{}; the results are in {}", why, kept.string()));
}

// A mount point: the previous entries go aside and the new ones move in, one rename each.
// results.json goes first and comes last: a reader who finds one finds the new set whole.
void ResultsFolder::swap_in_place() {
  static constexpr std::string_view kOrder[] = {kResultsFileName, "junit.xml", "series", "figures"};
  const fs::path old = dir_ / fmt::format("{}{}", kInPlaceOld, ::getpid());
  std::error_code ec;
  fs::create_directory(old, ec);
  if (ec)
    throw keep_results(
        fmt::format("{}: cannot set aside the previous results: {}", dir_.string(), ec.message()));
  std::vector<std::string_view> moved;
  for (const std::string_view name : kOrder) {
    if (!fs::exists(fs::symlink_status(dir_ / name, ec))) continue;
    fs::rename(dir_ / name, old / name, ec);
    if (ec) {
      const std::string why =
          fmt::format("{}: cannot set aside {}: {}", dir_.string(), name, ec.message());
      for (const std::string_view back : moved) fs::rename(old / back, dir_ / back, ec);
      fs::remove(old, ec);
      throw keep_results(why);
    }
    moved.push_back(name);
  }
  for (auto name = std::rbegin(kOrder); name != std::rend(kOrder); ++name) {
    if (!fs::exists(fs::symlink_status(staging_ / *name, ec))) continue;
    fs::rename(staging_ / *name, dir_ / *name, ec);
    if (ec) {
      keep_staging_ = true;
      throw OutputError(fmt::format(
          "{}: cannot move {} in: {}; the previous results are in {}, the new ones in {}",
          dir_.string(), *name, ec.message(), old.string(), staging_.string()));
    }
  }
  if (marker_created_) {  // the marker's text is a courtesy to whoever looks in
    const std::string_view text = kMarkerText;
    [[maybe_unused]] const ssize_t written = ::pwrite(lock_fd_, text.data(), text.size(), 0);
  }
  fs::remove_all(old, ec);
}

void ResultsFolder::commit() {
  if (!still_ours()) {
    throw keep_results(fmt::format(
        "{}: the folder was moved or replaced while the results were written, so it was left "
        "as it is",
        dir_.string()));
  }
  // What someone put into it while the run wrote would go with the previous results.
  try {
    check_holds_only_ours(dir_, dir_);
  } catch (const OutputError& e) {
    throw keep_results(e.what());
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
  if (in_place_) {
    swap_in_place();
  } else if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) !=
             0) {
    // One atomic step above: readers see the old results or the new ones, never a mix.
    const int error = errno;
    if (error != EINVAL && error != ENOSYS) {
      throw keep_results(fmt::format("{}: cannot put the new results in place: {}", dir_.string(),
                                     std::strerror(error)));
    }
    // A file system without RENAME_EXCHANGE: two renames, with the old results set aside.
    const fs::path old = staging_.string() + ".old";
    std::error_code ec;
    fs::rename(dir_, old, ec);
    if (ec) {
      throw keep_results(
          fmt::format("{}: cannot put the new results in place: {}", dir_.string(), ec.message()));
    }
    fs::rename(staging_, dir_, ec);
    if (ec) {
      const std::string why =
          fmt::format("{}: cannot put the new results in place: {}", dir_.string(), ec.message());
      fs::rename(old, dir_, ec);
      throw keep_results(why);
    }
    staging_ = old;
  }
  committed_ = true;
  std::error_code ec;
  fs::remove_all(staging_, ec);  // the previous results (or, in place, the emptied staging)
}

}  // namespace simverify::framework
