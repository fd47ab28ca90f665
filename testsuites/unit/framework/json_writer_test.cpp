// results.json is a user contract: the writer's cheaper number and string paths (formats
// compiled, printable ASCII appended in one piece) write the same text, byte for byte, as
// fmt::format at run time and the character-by-character loop did.
#include "detail/json_writer.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace detail = simverify::framework::detail;

namespace {

// Doubles whose text is easy to get wrong: zeros, subnormals, the ends of the range, where the
// shortest text switches between fixed and exponent notation (1e-5/1e-4, 1e15/1e16), values
// that need all 17 digits, and the neighbours of powers of ten in every decade.
std::vector<double> tricky_numbers() {
  using limits = std::numeric_limits<double>;
  std::vector<double> xs = {0.0,
                            -0.0,
                            limits::denorm_min(),
                            limits::min(),
                            std::nextafter(limits::min(), 0.0),
                            limits::max(),
                            limits::epsilon(),
                            0.1,
                            0.2,
                            0.3,
                            1.0 / 3.0,
                            2.0 / 3.0,
                            1e-8,
                            17.065216560157964,
                            0.9939998038923465,
                            -4.6224829413453727e-07,
                            123456789012345680.0,
                            9007199254740993.0,
                            9.999999999999999e15,
                            1e15,
                            1e16,
                            1e-4,
                            1e-5,
                            0.00012345,
                            5e-324,
                            1.7976931348623157e308};
  for (int e = -324; e <= 308; ++e) {
    for (const double m : {1.0, 1.5, 2.5, 9.999999999999998, 1.2345678901234567}) {
      const double x = m * std::pow(10.0, e);
      if (!std::isfinite(x)) continue;
      for (const double y : {x, std::nextafter(x, 0.0), std::nextafter(x, limits::infinity())}) {
        xs.push_back(y);
        xs.push_back(-y);
      }
    }
  }
  std::mt19937_64 bits(20261127);
  for (int i = 0; i < 200000; ++i) {
    const std::uint64_t u = bits();
    double x = 0.0;
    std::memcpy(&x, &u, sizeof x);
    if (std::isfinite(x)) xs.push_back(x);
  }
  return xs;
}

// append_json_string before its ASCII fast path: every character through the UTF-8 and XML
// check.
std::string quoted_by_characters(std::string_view text) {
  std::string out = "\"";
  detail::append_json_escaped(out, text);
  return out + "\"";
}

}  // namespace

TEST(JsonWriter, NumbersAreFmtsShortestText) {
  for (const double x : tricky_numbers()) {
    std::string text;
    detail::append_json_number(text, x);
    ASSERT_EQ(text, fmt::format("{}", x)) << "bits of " << fmt::format("{:a}", x);
    ASSERT_EQ(std::strtod(text.c_str(), nullptr), x) << text;  // and it reads back exactly
  }
  for (const double x : {std::nan(""), std::numeric_limits<double>::infinity(),
                         -std::numeric_limits<double>::infinity()}) {
    std::string text;
    detail::append_json_number(text, x);
    EXPECT_EQ(text, "null");
  }
}

TEST(JsonWriter, CompiledFormatsWriteWhatFmtFormatWrites) {
  // The seconds of a point ({:.6g}) and its index ({}).
  for (const double x : tricky_numbers()) {
    std::string text;
    detail::append_formatted(text, FMT_COMPILE("{:.6g}"), x);
    ASSERT_EQ(text, fmt::format("{:.6g}", x));
  }
  for (const std::size_t i : {std::size_t{0}, std::size_t{9}, std::size_t{10}, std::size_t{1999},
                              std::numeric_limits<std::size_t>::max()}) {
    std::string text;
    detail::append_formatted(text, FMT_COMPILE("{}"), i);
    EXPECT_EQ(text, fmt::format("{}", i));
  }
}

TEST(JsonWriter, StringsAreWrittenAsCharacterByCharacter) {
  // Every byte, alone and between and after plain ASCII (the fast path stops at the first
  // byte it does not take as it is), plus quotes, backslashes, controls and UTF-8 sequences.
  std::vector<std::string> texts = {"",
                                    "arenstorf",
                                    "p.m1",
                                    "say \"hi\"",
                                    "a\\b",
                                    "tab\there",
                                    "line\nbreak\r",
                                    "ä € 𝄞 ok",
                                    "ok \xed\xa0\x80 surrogate",
                                    "\xef\xbf\xbe U+FFFE",
                                    "del \x7f end"};
  for (int b = 0; b < 256; ++b) {
    const std::string byte(1, static_cast<char>(b));
    texts.push_back(byte);
    texts.push_back("plain" + byte + "rest");
    texts.push_back("plain text " + byte);
  }
  for (const auto& text : texts) {
    std::string out;
    detail::append_json_string(out, text);
    EXPECT_EQ(out, quoted_by_characters(text)) << text;
  }
}
