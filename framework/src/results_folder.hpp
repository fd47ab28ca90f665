#pragma once
// Internal: a results folder (`run --out`, `merge --out`) belongs to simverify alone.
//  - Only a new path, an empty folder or a folder simverify wrote (it holds the marker file
//    `.simverify-results`) is used; anything else is refused, so no file we did not write is
//    ever replaced or deleted.
//  - One writer at a time: the marker is locked (a POSIX fcntl lock) while a run writes; a
//    second run into the same folder is refused instead of interleaving its files.
//  - Everything is written into a fresh staging folder beside it, which replaces the folder
//    in one atomic rename at the end (renameat2 RENAME_EXCHANGE): a run that is killed or
//    fails to write (full disk) leaves the previous results whole, series included.
//  - A mount point (a container's volume) cannot be renamed: it is staged inside and its
//    entries are swapped one rename each (not atomic; docs/runner.md "Guarantees").
//  - Refused or failed: only what this run made goes (the folder, or the marker it put into
//    an empty one); results that were computed but cannot be put in place are kept.
#include <filesystem>
#include <stdexcept>
#include <string>

namespace simverify::framework {

// A folder that cannot be used or written: names the path and the reason (exit 2).
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline constexpr const char* kResultsMarker = ".simverify-results";

class ResultsFolder {
 public:
  // Claims `dir` and prepares the staging folder; throws OutputError when `dir` is not ours
  // or another simverify is writing it.
  explicit ResultsFolder(const std::filesystem::path& dir);
  ~ResultsFolder();  // without commit(): removes the staging folder; `dir` stays as it was
  ResultsFolder(const ResultsFolder&) = delete;
  ResultsFolder& operator=(const ResultsFolder&) = delete;

  // Where the results are written until commit().
  [[nodiscard]] const std::filesystem::path& staging() const { return staging_; }
  // The folder the user named (the folder a link names, when it was a link).
  [[nodiscard]] const std::filesystem::path& path() const { return dir_; }

  // Puts the staging folder in place of `dir` atomically and deletes the previous results.
  void commit();

 private:
  std::filesystem::path dir_;
  std::filesystem::path staging_;
  [[nodiscard]] bool still_ours() const;
  void claim(const std::filesystem::path& dir);  // the constructor's work
  void lock(const std::filesystem::path& dir);   // the marker, made if need be, and its lock
  void swap_in_place();                          // commit() for a mount point
  // Keeps the staging folder (beside `dir` as dir.results-PID when it can be moved there):
  // the error to throw, naming where the results are.
  [[nodiscard]] OutputError keep_results(const std::string& why);
  void release() noexcept;  // what commit() did not keep goes

  int lock_fd_ = -1;
  bool created_ = false;         // this run made `dir`: removed again when nothing is committed
  bool marker_created_ = false;  // this run made the marker in an existing (empty) folder
  bool in_place_ = false;        // `dir` is a mount point: staged inside it
  bool keep_staging_ = false;    // the staging folder holds results that must stay
  bool committed_ = false;
};

// True when `dir` exists and is a folder simverify wrote results into (the marker, or a
// results.json of simverify's format from before the marker existed).
[[nodiscard]] bool is_results_folder(const std::filesystem::path& dir);

}  // namespace simverify::framework
