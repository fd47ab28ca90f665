#include "wire.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace simverify::framework::wire {
namespace {

enum class ValueKind : std::uint8_t { number = 0, vector = 1, series = 2 };
enum Flags : std::uint8_t { kHasValue = 1, kHasError = 2 };

template <class T>
void put(std::string& out, T x) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &x, sizeof(T));
  out.append(bytes, sizeof(T));
}

void put_text(std::string& out, std::string_view text) {
  put(out, static_cast<std::uint32_t>(text.size()));
  out.append(text);
}

void put_numbers(std::string& out, const std::vector<double>& v) {
  put(out, static_cast<std::uint64_t>(v.size()));
  if (!v.empty()) out.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
}

class Reader {
 public:
  Reader(const char* data, std::size_t size) : data_(data), size_(size) {}
  template <class T>
  T get() {
    need(sizeof(T));
    T x;
    std::memcpy(&x, data_ + at_, sizeof(T));
    at_ += sizeof(T);
    return x;
  }
  std::string text() {
    const auto n = get<std::uint32_t>();
    need(n);
    std::string s(data_ + at_, n);
    at_ += n;
    return s;
  }
  std::vector<double> numbers() {
    const auto n = get<std::uint64_t>();
    if (n > (size_ - at_) / sizeof(double)) throw std::runtime_error("wire: truncated vector");
    std::vector<double> v(static_cast<std::size_t>(n));
    if (n != 0) std::memcpy(v.data(), data_ + at_, v.size() * sizeof(double));
    at_ += v.size() * sizeof(double);
    return v;
  }

 private:
  void need(std::size_t n) const {
    if (size_ - at_ < n) throw std::runtime_error("wire: truncated record");
  }
  const char* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace

void append(std::string& buffer, std::size_t position, const PointResult& point) {
  const std::size_t start = buffer.size();
  put(buffer, std::uint32_t{0});  // size, patched below
  put(buffer, static_cast<std::uint64_t>(position));
  put(buffer, static_cast<std::uint64_t>(point.index));
  std::uint8_t flags = 0;
  if (point.value) flags |= kHasValue;
  if (point.error) flags |= kHasError;
  put(buffer, flags);
  put(buffer, point.value.value_or(0.0));
  put(buffer, point.seconds);
  if (point.error) put_text(buffer, *point.error);
  const auto& entries = point.measures.entries();
  put(buffer, static_cast<std::uint32_t>(entries.size()));
  for (const auto& [name, measure] : entries) {
    put_text(buffer, name);
    if (const auto* d = std::get_if<double>(&measure)) {
      put(buffer, ValueKind::number);
      put(buffer, *d);
    } else if (const auto* v = std::get_if<std::vector<double>>(&measure)) {
      put(buffer, ValueKind::vector);
      put_numbers(buffer, *v);
    } else {
      const auto& ts = std::get<TimeSeries>(measure);
      put(buffer, ValueKind::series);
      put(buffer, static_cast<std::uint32_t>(ts.names.size()));
      for (const auto& n : ts.names) put_text(buffer, n);
      put_numbers(buffer, ts.time);
      put(buffer, static_cast<std::uint32_t>(ts.columns.size()));
      for (const auto& c : ts.columns) put_numbers(buffer, c);
    }
  }
  const auto size = static_cast<std::uint32_t>(buffer.size() - start - sizeof(std::uint32_t));
  std::memcpy(buffer.data() + start, &size, sizeof(size));
}

std::optional<Decoded> take(std::string& buffer, std::size_t& offset) {
  if (buffer.size() - offset < sizeof(std::uint32_t)) return std::nullopt;
  std::uint32_t size = 0;
  std::memcpy(&size, buffer.data() + offset, sizeof(size));
  if (buffer.size() - offset - sizeof(size) < size) return std::nullopt;
  Reader in(buffer.data() + offset + sizeof(size), size);
  Decoded d;
  d.position = static_cast<std::size_t>(in.get<std::uint64_t>());
  d.point.index = static_cast<std::size_t>(in.get<std::uint64_t>());
  const auto flags = in.get<std::uint8_t>();
  const auto value = in.get<double>();
  if ((flags & kHasValue) != 0) d.point.value = value;
  d.point.seconds = in.get<double>();
  if ((flags & kHasError) != 0) d.point.error = in.text();
  const auto count = in.get<std::uint32_t>();
  for (std::uint32_t i = 0; i < count; ++i) {
    std::string name = in.text();
    switch (static_cast<ValueKind>(in.get<std::uint8_t>())) {
      case ValueKind::number: d.point.measures.set(std::move(name), in.get<double>()); break;
      case ValueKind::vector: d.point.measures.set(std::move(name), in.numbers()); break;
      case ValueKind::series: {
        TimeSeries ts;
        const auto names = in.get<std::uint32_t>();
        for (std::uint32_t j = 0; j < names; ++j) ts.names.push_back(in.text());
        ts.time = in.numbers();
        const auto columns = in.get<std::uint32_t>();
        for (std::uint32_t j = 0; j < columns; ++j) ts.columns.push_back(in.numbers());
        d.point.measures.set(std::move(name), std::move(ts));
        break;
      }
      default: throw std::runtime_error("wire: unknown measure kind");
    }
  }
  offset += sizeof(size) + size;
  return d;
}

}  // namespace simverify::framework::wire
