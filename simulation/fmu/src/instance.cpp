#include "instance.hpp"

#include <charconv>

namespace simverify::fmu::detail {

void LogBuffer::add(std::string_view status, std::string_view category, std::string_view message) {
  // (append, not operator+: g++ 12 reports a false -Wrestrict for "[" + std::string)
  std::string line = "[";
  line.append(status);
  if (!category.empty()) line.append(" ").append(category);
  line.append("] ");
  line += message.substr(0, kMaxLength);
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  messages_.push_back(std::move(line));
  if (messages_.size() > kKept) messages_.pop_front();
  if (observer_) observer_(text());
}

std::string LogBuffer::text() const {
  std::string out;
  for (const auto& m : messages_) out += (out.empty() ? "" : "; ") + m;
  return out;
}

Instance::Instance(std::shared_ptr<const Fmu> fmu, Interface interface, LogObserver observer)
    : fmu_(std::move(fmu)),
      interface_(interface),
      log_(std::move(observer)),
      once_per_process_(fmu_->instance_lock(interface)) {
  if (interface == Interface::model_exchange) {
    states_.assign(fmu_->description().states.size(), std::numeric_limits<double>::quiet_NaN());
  }
}

void Instance::fail(const char* function, std::string_view status) {
  broken_ = true;
  char time[32];
  const auto written = std::to_chars(time, time + sizeof time, time_);  // shortest round trip
  std::string message = "FMU '" + fmu_->path().filename().string() + "': " + function +
                        " returned " + std::string(status) +
                        " at t = " + std::string(time, written.ptr);
  const std::string log = log_.text();
  message += log.empty() ? " (it logged nothing)" : "; its log: " + log;
  throw FmuError(message);
}

void* required_symbol(const Fmu& fmu, Interface interface, const char* name) {
  void* f = fmu.symbol(interface, name);
  if (f == nullptr) {
    throw FmuError("FMU '" + fmu.path().filename().string() + "': its binary " +
                   fmu.binary(interface).filename().string() + " does not export " + name);
  }
  return f;
}

PlainDerivatives plain_derivatives(FmiVersion version, std::size_t n) {
  return version == FmiVersion::fmi2 ? plain_derivatives_fmi2(n) : plain_derivatives_fmi3(n);
}

void throw_no_instance() {
  throw FmuError(
      "an FMU's f on the fixed-size path before its run started (initial_state or "
      "initial_mode)");
}

std::unique_ptr<Instance> instantiate(std::shared_ptr<const Fmu> fmu, Interface interface,
                                      LogObserver observer) {
  if (!fmu->implements(interface)) {
    throw FmuError("FMU '" + fmu->path().filename().string() + "' does not implement " +
                   to_string(interface));
  }
  return fmu->description().version == FmiVersion::fmi2
             ? instantiate_fmi2(std::move(fmu), interface, std::move(observer))
             : instantiate_fmi3(std::move(fmu), interface, std::move(observer));
}

}  // namespace simverify::fmu::detail
