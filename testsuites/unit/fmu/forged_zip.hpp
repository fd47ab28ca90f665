#pragma once
// Zip archives written byte by byte (APPNOTE.TXT 4.3: local file headers, central directory,
// end record), so that a test can make the ones no zip tool writes: headers that declare
// another size or CRC than the data has (a zip bomb's lie).
#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace simverify::fmu::testing {

// How an entry's sizes are written: in the headers' 32-bit fields, or as 0xFFFFFFFF (the zip64
// marker, APPNOTE.TXT 4.5.3) with or without the zip64 extra field that holds them.
enum class Zip64 { none, marker_only, extra_field };

struct ForgedEntry {
  std::string name;
  std::string data;
  std::optional<std::uint64_t> declared_size;  // what the headers say; else data.size()
  std::optional<std::uint32_t> declared_crc;   // else the data's CRC-32
  Zip64 zip64 = Zip64::none;
  // st_mode of an entry made on UNIX (S_IFLNK | 0777: a symbolic link); 0: no attributes.
  std::uint32_t unix_mode = 0;
};

inline std::string raw_deflate(const std::string& data) {
  z_stream stream{};
  if (deflateInit2(&stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2 failed");
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) throw std::runtime_error("deflate did not finish");
  return out;
}

inline void put_le(std::string& out, std::uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// Deflated entries, in order; no zip64 end records (fewer than 65535 entries, offsets below
// 4 GiB).
inline void write_forged_zip(const std::filesystem::path& file,
                             const std::vector<ForgedEntry>& entries) {
  std::string archive;
  std::string directory;
  for (const ForgedEntry& e : entries) {
    const std::string packed = raw_deflate(e.data);
    const std::uint32_t crc = e.declared_crc.value_or(static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(e.data.data()), static_cast<uInt>(e.data.size()))));
    const std::uint64_t size = e.declared_size.value_or(e.data.size());
    const std::uint64_t offset = archive.size();
    const bool marked = e.zip64 != Zip64::none;
    const std::uint64_t size32 = marked ? 0xffffffffULL : size;
    const std::uint64_t packed32 = marked ? 0xffffffffULL : packed.size();
    std::string extra;  // the zip64 extended information: id 1, then both sizes
    if (e.zip64 == Zip64::extra_field) {
      put_le(extra, 0x0001, 2);
      put_le(extra, 16, 2);
      put_le(extra, size, 8);
      put_le(extra, packed.size(), 8);
    }
    const std::uint64_t version = marked ? 45 : 20;
    // Local file header: signature, version 2.0 (4.5 with zip64), flags, deflate, time, date.
    put_le(archive, 0x04034b50, 4);
    put_le(archive, version, 2);
    put_le(archive, 0, 2);
    put_le(archive, 8, 2);
    put_le(archive, 0, 2);
    put_le(archive, 0x21, 2);
    put_le(archive, crc, 4);
    put_le(archive, packed32, 4);
    put_le(archive, size32, 4);
    put_le(archive, e.name.size(), 2);
    put_le(archive, extra.size(), 2);
    archive += e.name;
    archive += extra;
    archive += packed;
    // Its central directory record: made by / needed 2.0, the same fields, then no comment,
    // disk 0, the UNIX mode if any, the local header's offset.
    put_le(directory, 0x02014b50, 4);
    put_le(directory, e.unix_mode != 0 ? (3 << 8) | version : version, 2);  // 3: UNIX
    put_le(directory, version, 2);
    put_le(directory, 0, 2);
    put_le(directory, 8, 2);
    put_le(directory, 0, 2);
    put_le(directory, 0x21, 2);
    put_le(directory, crc, 4);
    put_le(directory, packed32, 4);
    put_le(directory, size32, 4);
    put_le(directory, e.name.size(), 2);
    put_le(directory, extra.size(), 2);
    put_le(directory, 0, 2);
    put_le(directory, 0, 2);
    put_le(directory, 0, 2);
    put_le(directory, std::uint64_t{e.unix_mode} << 16, 4);  // external attributes
    put_le(directory, offset, 4);
    directory += e.name;
    directory += extra;
  }
  const std::uint64_t directory_offset = archive.size();
  archive += directory;
  put_le(archive, 0x06054b50, 4);
  put_le(archive, 0, 2);
  put_le(archive, 0, 2);
  put_le(archive, entries.size(), 2);
  put_le(archive, entries.size(), 2);
  put_le(archive, directory.size(), 4);
  put_le(archive, directory_offset, 4);
  put_le(archive, 0, 2);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(archive.data(), static_cast<std::streamsize>(archive.size()));
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace simverify::fmu::testing
