#pragma once
// An FMU file (FMI 2.0 or 3.0, "FMU Distribution"): checked, unpacked once per process into a
// private temporary folder, and its shared library loaded on first use.
//
// Fmu::open() keeps one Fmu per file and process (a later open of the same, unchanged file
// returns it), so every run of a grid shares the unpacked folder; each run instantiates the
// model itself. The folders live under one private folder per process ($TMPDIR/simverify-fmu-
// XXXXXX), removed when the process that created it ends normally (including the runner's
// Ctrl-C); worker processes forked after an FMU was opened use the parent's folder.
#include <simverify/fmu/model_description.hpp>

#include <filesystem>
#include <memory>
#include <mutex>

namespace simverify::fmu {

// "linux64" (FMI 2.0) or "x86_64-linux" (FMI 3.0): the binaries/ folder for this platform.
[[nodiscard]] const char* platform_folder(FmiVersion version);

class Fmu {
 public:
  // Opens the FMU at `path`: a zip archive with a modelDescription.xml of FMI 2.0 or 3.0 and,
  // for every interface it declares, an x86_64 ELF shared library in the platform's binaries
  // folder. Throws FmuError naming what is missing. Thread-safe.
  [[nodiscard]] static std::shared_ptr<const Fmu> open(const std::filesystem::path& path);

  // Only open() can make the key, so only open() constructs an Fmu.
  class Key {
    friend class Fmu;
    Key() = default;
  };
  Fmu(Key, std::filesystem::path path, ModelDescription description,
      std::filesystem::path directory);
  ~Fmu();
  Fmu(const Fmu&) = delete;
  Fmu& operator=(const Fmu&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] const ModelDescription& description() const { return description_; }
  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }
  [[nodiscard]] std::filesystem::path binary(Interface interface) const;
  [[nodiscard]] std::filesystem::path resources() const { return directory_ / "resources"; }
  // Model exchange when the FMU implements it, co-simulation otherwise.
  [[nodiscard]] Interface default_interface() const;
  [[nodiscard]] bool implements(Interface interface) const {
    return description_.capabilities(interface) != nullptr;
  }

  // A function of the FMU's shared library for `interface` (dlopen on first use in this
  // process), nullptr when the library does not export it. Throws FmuError when the library
  // cannot be loaded.
  [[nodiscard]] void* symbol(Interface interface, const char* name) const;

  // What all instances of `interface` share (the FMI version's table of the library's
  // functions, instance.hpp): made by `make` on first use in this process, then kept with the
  // loaded library, so that a run does not look its functions up again. Thread-safe; when
  // `make` throws, nothing is kept and the next call tries again.
  using SharedMaker = std::shared_ptr<const void> (*)(const Fmu& fmu, Interface interface);
  [[nodiscard]] std::shared_ptr<const void> shared(Interface interface, SharedMaker make) const;

  // Held by a run while its instance lives, for FMUs that may be instantiated only once per
  // process (canBeInstantiatedOnlyOncePerProcess): runs on threads then take turns.
  [[nodiscard]] std::unique_lock<std::mutex> instance_lock(Interface interface) const;

 private:
  struct Libraries;

  std::filesystem::path path_;
  ModelDescription description_;
  std::filesystem::path directory_;
  std::unique_ptr<Libraries> libraries_;
};

}  // namespace simverify::fmu
