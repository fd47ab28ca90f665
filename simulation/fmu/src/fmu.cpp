// Opening an FMU: check the archive, unpack it once per process into a private folder, load
// its shared library on first use (fmu.hpp).
#include <simverify/fmu/fmu.hpp>

#include <simverify/core/interrupt.hpp>
#include <simverify/core/temp_folder.hpp>

#include "archive.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace simverify::fmu {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kRootPrefix = "simverify-fmu-";
constexpr const char* kOwnerFile = ".owner";  // locked by the process the folder is for

// A POSIX write lock on the whole of `fd`'s file; F_SETLK, so it never waits.
bool lock_whole(int fd) {
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  return ::fcntl(fd, F_SETLK, &lock) == 0;
}

// Private folders of processes that were killed (SIGKILL, or a signal no handler catches) and
// so never removed theirs: the folder's owner file is no longer locked. Only this user's real
// folders are looked at; a folder without an owner file is left alone.
void sweep_abandoned_roots(const fs::path& base) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(base, ec)) {
    if (!entry.path().filename().string().starts_with(kRootPrefix)) continue;
    struct stat info {};
    if (::lstat(entry.path().c_str(), &info) != 0 || !S_ISDIR(info.st_mode) ||
        info.st_uid != ::getuid()) {
      continue;
    }
    const int fd = ::open((entry.path() / kOwnerFile).c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    const bool abandoned = lock_whole(fd);
    ::close(fd);
    std::error_code ignored;
    if (abandoned) fs::remove_all(entry.path(), ignored);
  }
}

// The one piece of global state: the FMUs this process opened, and the private folder they
// are unpacked into. Removed when the process that created it ends normally; while it lives,
// its owner file is locked, so a later process sweeps the folder of one that was killed.
class OpenFmus {
 public:
  static OpenFmus& instance() {
    static OpenFmus registry;
    return registry;
  }
  ~OpenFmus() {
    entries_.clear();  // each Fmu removes its own folder first
    if (!root_.empty() && owner_ == ::getpid()) {
      std::error_code ignored;
      fs::remove_all(root_, ignored);
    }
    if (owner_fd_ >= 0) ::close(owner_fd_);
  }
  OpenFmus(const OpenFmus&) = delete;
  OpenFmus& operator=(const OpenFmus&) = delete;

  std::mutex mutex;

  // A fresh private folder for one FMU, below this process's root folder.
  fs::path make_folder(const std::string& stem) {
    if (root_.empty()) {
      const fs::path base = core::temporary_base();
      sweep_abandoned_roots(base);
      root_ = make_temporary(base / (std::string(kRootPrefix) + "XXXXXX"));
      owner_ = ::getpid();
      claim_root();
      // A run that abandons a thread stuck in an FMU ends without this registry's destructor
      // (it would unload the library the thread runs).
      core::remove_at_abandoning_exit(root_);
    }
    return make_temporary(root_ / (stem + "-XXXXXX"));
  }

  struct Entry {
    fs::file_time_type modified;
    std::uintmax_t size = 0;
    std::shared_ptr<const Fmu> fmu;
  };
  std::map<std::string, Entry> entries_;

 private:
  OpenFmus() = default;

  static fs::path make_temporary(const fs::path& pattern) {
    std::string text = pattern.string();
    if (::mkdtemp(text.data()) == nullptr) {
      throw FmuError("cannot create a temporary folder '" + pattern.string() + "'");
    }
    return text;
  }

  // The owner file appears locked: made and locked under another name, then renamed, so a
  // sweeping process never finds it unlocked. Without it (a file system without locks) the
  // folder is simply never swept.
  void claim_root() {
    const fs::path made = root_ / ".owner.new";
    owner_fd_ = ::open(made.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (owner_fd_ < 0) return;
    if (!lock_whole(owner_fd_) || ::rename(made.c_str(), (root_ / kOwnerFile).c_str()) != 0) {
      ::close(owner_fd_);
      owner_fd_ = -1;
      std::error_code ignored;
      fs::remove(made, ignored);
    }
  }

  fs::path root_;
  pid_t owner_ = 0;
  int owner_fd_ = -1;
};

// The ELF header of an x86_64 shared object: "\x7fELF", 64-bit, little endian, e_type
// ET_DYN (3) at offset 16, e_machine EM_X86_64 (62) at offset 18 (the System V ABI).
bool is_x86_64_shared_object(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::array<unsigned char, 20> header{};
  if (!in.read(reinterpret_cast<char*>(header.data()), header.size())) return false;
  return header[0] == 0x7f && header[1] == 'E' && header[2] == 'L' && header[3] == 'F' &&
         header[4] == 2 && header[5] == 1 && header[16] == 3 && header[17] == 0 &&
         header[18] == 62 && header[19] == 0;
}

// The functions a run looks up as required (fmi2_instance.cpp, fmi3_instance.cpp: keep them
// alike), by FMI version and interface.
std::vector<std::string> required_functions(FmiVersion version, Interface interface,
                                            bool directional_derivatives) {
  const bool fmi2 = version == FmiVersion::fmi2;
  std::vector<std::string> names = fmi2 ? std::vector<std::string>{"FreeInstance",
                                                                   "SetupExperiment",
                                                                   "EnterInitializationMode",
                                                                   "ExitInitializationMode",
                                                                   "Terminate",
                                                                   "GetReal",
                                                                   "SetReal",
                                                                   "Instantiate"}
                                        : std::vector<std::string>{"FreeInstance",
                                                                   "EnterInitializationMode",
                                                                   "ExitInitializationMode",
                                                                   "Terminate",
                                                                   "GetFloat64",
                                                                   "SetFloat64"};
  if (directional_derivatives) names.emplace_back("GetDirectionalDerivative");
  if (interface == Interface::model_exchange) {
    for (const char* name :
         {"EnterEventMode", fmi2 ? "NewDiscreteStates" : "UpdateDiscreteStates",
          "EnterContinuousTimeMode", "CompletedIntegratorStep", "SetTime", "SetContinuousStates",
          fmi2 ? "GetDerivatives" : "GetContinuousStateDerivatives", "GetEventIndicators",
          "GetContinuousStates"}) {
      names.emplace_back(name);
    }
    if (!fmi2) names.emplace_back("InstantiateModelExchange");
  } else {
    names.emplace_back("DoStep");
    if (!fmi2) names.emplace_back("InstantiateCoSimulation");
  }
  for (auto& name : names) name.insert(0, fmi2 ? "fmi2" : "fmi3");
  return names;
}

// Little-endian fields of an ELF64 file (the System V ABI, "Object Files").
template <class T>
T field(const std::string& bytes, std::size_t at) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    value |= std::uint64_t{static_cast<unsigned char>(bytes[at + i])} << (8 * i);
  }
  return static_cast<T>(value);
}

// The names of `wanted` that the x86_64 shared library `file` does not export, read from its
// dynamic symbol table (section SHT_DYNSYM and the string table it links to) without loading
// it: dlopen would run the library's constructors. Nothing is reported missing when the
// library has no section headers to read (then the run names what it lacks).
std::vector<std::string> missing_exports(const fs::path& file, std::vector<std::string> wanted) {
  std::ifstream in(file, std::ios::binary);
  std::string elf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto within = [&](std::uint64_t offset, std::uint64_t size) {
    return offset <= elf.size() && size <= elf.size() - offset;
  };
  if (!within(0, 64)) return {};
  const auto shoff = field<std::uint64_t>(elf, 0x28);
  const auto shentsize = field<std::uint16_t>(elf, 0x3a);
  const auto shnum = field<std::uint16_t>(elf, 0x3c);
  if (shentsize < 64 || !within(shoff, std::uint64_t{shentsize} * shnum)) return {};
  std::set<std::string, std::less<>> exported;
  bool found_table = false;
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::size_t header = shoff + std::size_t{i} * shentsize;
    if (field<std::uint32_t>(elf, header + 4) != 11) continue;  // SHT_DYNSYM
    const auto offset = field<std::uint64_t>(elf, header + 0x18);
    const auto size = field<std::uint64_t>(elf, header + 0x20);
    const auto link = field<std::uint32_t>(elf, header + 0x28);
    if (!within(offset, size) || link >= shnum) return {};
    const std::size_t strings_header = shoff + std::size_t{link} * shentsize;
    const auto strings = field<std::uint64_t>(elf, strings_header + 0x18);
    const auto strings_size = field<std::uint64_t>(elf, strings_header + 0x20);
    if (!within(strings, strings_size)) return {};
    found_table = true;
    for (std::uint64_t at = offset; at + 24 <= offset + size; at += 24) {  // Elf64_Sym
      const auto name = field<std::uint32_t>(elf, at);
      const auto info = static_cast<unsigned char>(elf[at + 4]);
      const auto visibility = static_cast<unsigned char>(elf[at + 5]) & 3;
      const auto section = field<std::uint16_t>(elf, at + 6);
      const int binding = info >> 4;  // GLOBAL 1, WEAK 2, GNU_UNIQUE 10
      if (section == 0 || name >= strings_size || (binding != 1 && binding != 2 && binding != 10) ||
          (visibility != 0 && visibility != 3)) {
        continue;  // undefined, local, hidden or internal: not something dlsym finds
      }
      const std::size_t begin = strings + name;
      const std::size_t end = elf.find('\0', begin);
      if (end == std::string::npos || end > strings + strings_size) continue;
      exported.emplace(elf, begin, end - begin);
    }
  }
  if (!found_table) return {};
  std::erase_if(wanted, [&](const std::string& name) { return exported.contains(name); });
  return wanted;
}

std::string binary_entry(const ModelDescription& d, const InterfaceCapabilities& c) {
  return std::string("binaries/") + platform_folder(d.version) + "/" + c.model_identifier + ".so";
}

// The platforms an archive has binaries for, for the message when ours is missing.
std::string platforms_in(const std::vector<std::string>& entries) {
  std::set<std::string> found;
  for (const auto& e : entries) {
    if (!e.starts_with("binaries/")) continue;
    const auto slash = e.find('/', 9);
    if (slash != std::string::npos && slash > 9) found.insert(e.substr(9, slash - 9));
  }
  std::string out;
  for (const auto& p : found) out += (out.empty() ? "" : ", ") + p;
  return out.empty() ? "none" : out;
}

// A model description is text listing variables: 16 MiB holds a hundred thousand of them. A
// larger one is a damaged or hostile archive, not a file to hold whole in memory and parse.
constexpr unsigned long long kMaxDescriptionBytes = 16ULL << 20;

ModelDescription checked_description(const fs::path& path, const detail::ZipArchive& archive) {
  const auto xml = archive.read("modelDescription.xml", kMaxDescriptionBytes);
  if (!xml) {
    throw FmuError("not an FMU: '" + path.string() +
                   "' has no modelDescription.xml at the top level of the archive");
  }
  ModelDescription d;
  try {
    d = parse_model_description(*xml);
  } catch (const FmuError& e) {
    // Which FMU's modelDescription.xml the line is in.
    throw FmuError("'" + path.string() + "': " + e.what());
  }
  for (const Interface i : {Interface::model_exchange, Interface::co_simulation}) {
    const InterfaceCapabilities* c = d.capabilities(i);
    if (c == nullptr) continue;
    const std::string entry = binary_entry(d, *c);
    if (!archive.contains(entry)) {
      throw FmuError("no binary for this platform (linux x86_64): '" + path.string() + "' lacks " +
                     entry + " (" + to_string(i) +
                     "); it has binaries for: " + platforms_in(archive.entries()));
    }
  }
  return d;
}

}  // namespace

const char* platform_folder(FmiVersion version) {
  return version == FmiVersion::fmi2 ? "linux64" : "x86_64-linux";
}

struct Fmu::Libraries {
  // Hashes a function's name as std::string or as const char* alike (heterogeneous lookup: no
  // std::string made per lookup). A member, not in an anonymous namespace: Libraries has
  // linkage, and in a unity batch this file is an included one (-Wsubobject-linkage).
  struct SymbolNameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };

  std::mutex mutex;
  std::array<void*, 2> handles{};
  // Looked up once per process: every run instantiates, and dlsym is a hash lookup each (so
  // is this table, without dlsym's walk over the library's symbols and versions).
  std::array<std::unordered_map<std::string, void*, SymbolNameHash, std::equal_to<>>, 2> symbols;
  std::array<std::mutex, 2> instance_mutexes;
  // shared(): its own mutex, as making the table looks symbols up (under `mutex`).
  std::mutex shared_mutex;
  std::array<std::shared_ptr<const void>, 2> shared;
  pid_t creator = ::getpid();
};

Fmu::Fmu(Key /*only open() has one*/, fs::path path, ModelDescription description,
         fs::path directory)
    : path_(std::move(path)),
      description_(std::move(description)),
      directory_(std::move(directory)),
      libraries_(std::make_unique<Libraries>()) {}

Fmu::~Fmu() {
  for (void* handle : libraries_->handles) {
    if (handle != nullptr) ::dlclose(handle);
  }
  if (libraries_->creator == ::getpid()) {
    std::error_code ignored;
    fs::remove_all(directory_, ignored);
  }
}

std::shared_ptr<const Fmu> Fmu::open(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw FmuError("no FMU at '" + path.string() + "'" +
                   (fs::exists(path, ec) ? " (not a regular file)" : " (no such file)"));
  }
  const std::string key = fs::canonical(path).string();
  const auto modified = fs::last_write_time(path);
  const auto size = fs::file_size(path);
  OpenFmus& open = OpenFmus::instance();
  const std::scoped_lock lock(open.mutex);
  if (const auto it = open.entries_.find(key);
      it != open.entries_.end() && it->second.modified == modified && it->second.size == size) {
    return it->second.fmu;
  }
  const detail::ZipArchive archive(path);
  ModelDescription description = checked_description(path, archive);
  const fs::path folder = open.make_folder(path.stem().string());
  // Owned from here on: the folder goes when the Fmu goes, also when a check below fails.
  std::shared_ptr<const Fmu> fmu =
      std::make_shared<const Fmu>(Key{}, path, std::move(description), folder);
  archive.extract_to(folder);
  for (const Interface i : {Interface::model_exchange, Interface::co_simulation}) {
    if (!fmu->implements(i)) continue;
    if (!is_x86_64_shared_object(fmu->binary(i))) {
      throw FmuError("no binary for this platform (linux x86_64): '" + path.string() +
                     "': " + binary_entry(fmu->description(), *fmu->description().capabilities(i)) +
                     " is not an x86_64 ELF shared library");
    }
    const InterfaceCapabilities& c = *fmu->description().capabilities(i);
    const auto missing = missing_exports(
        fmu->binary(i),
        required_functions(fmu->description().version, i, c.provides_directional_derivatives));
    if (!missing.empty()) {
      std::string names;
      for (const auto& name : missing) names += (names.empty() ? "" : ", ") + name;
      throw FmuError("'" + path.string() + "': its binary " + binary_entry(fmu->description(), c) +
                     " does not export " + names + ", which FMI " +
                     (fmu->description().version == FmiVersion::fmi2 ? "2.0 " : "3.0 ") +
                     to_string(i) + " requires");
    }
  }
  open.entries_[key] = {modified, size, fmu};
  return fmu;
}

fs::path Fmu::binary(Interface interface) const {
  const InterfaceCapabilities* c = description_.capabilities(interface);
  if (c == nullptr) {
    throw FmuError("FMU '" + path_.string() + "' does not implement " + to_string(interface));
  }
  return directory_ / binary_entry(description_, *c);
}

Interface Fmu::default_interface() const {
  return implements(Interface::model_exchange) ? Interface::model_exchange
                                               : Interface::co_simulation;
}

void* Fmu::symbol(Interface interface, const char* name) const {
  const auto slot = static_cast<std::size_t>(interface);
  const std::scoped_lock lock(libraries_->mutex);
  auto& known = libraries_->symbols[slot];
  if (const auto it = known.find(std::string_view(name)); it != known.end()) return it->second;
  if (libraries_->handles[slot] == nullptr) {
    const fs::path library = binary(interface);
    libraries_->handles[slot] = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (libraries_->handles[slot] == nullptr) {
      const char* why = ::dlerror();
      throw FmuError("cannot load the FMU's binary " + library.string() + ": " +
                     (why != nullptr ? why : "dlopen failed"));
    }
  }
  void* found = ::dlsym(libraries_->handles[slot], name);
  known.emplace(name, found);
  return found;
}

std::shared_ptr<const void> Fmu::shared(Interface interface, SharedMaker make) const {
  const std::scoped_lock lock(libraries_->shared_mutex);
  std::shared_ptr<const void>& kept = libraries_->shared[static_cast<std::size_t>(interface)];
  if (!kept) kept = make(*this, interface);
  return kept;
}

std::unique_lock<std::mutex> Fmu::instance_lock(Interface interface) const {
  const InterfaceCapabilities* c = description_.capabilities(interface);
  if (c == nullptr || !c->instantiated_once_per_process) return {};
  return std::unique_lock(libraries_->instance_mutexes[static_cast<std::size_t>(interface)]);
}

}  // namespace simverify::fmu
