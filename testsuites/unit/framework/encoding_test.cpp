// Text from files and from outside (a subprocess's message, a file name) on its way into
// results.json, junit.xml and the HTML report: input is checked for UTF-8 and XML's characters
// with the place of the first bad one; what simverify writes is valid UTF-8 whatever it got.
#include "detail/encoding.hpp"
#include "detail/json_writer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace detail = simverify::framework::detail;

TEST(Encoding, FindsTheFirstBadCharacterWithItsLineAndColumn) {
  EXPECT_FALSE(detail::find_encoding_problem("plain\n\tä € 𝄞\r\n").has_value());
  // Each is not UTF-8: a stray continuation byte, a lead byte at the end, an overlong '/',
  // a UTF-16 surrogate (U+D800), a code point past U+10FFFF.
  for (const std::string bad :
       {"\x80", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
    const auto problem = detail::find_encoding_problem("ok\nä " + bad + " rest");
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(problem->line, 2);
    EXPECT_EQ(problem->column, 3);  // 'ä' is one character
    EXPECT_EQ(problem->message.rfind("invalid UTF-8 (byte 0x", 0), 0u) << problem->message;
  }
  // U+FFFE and a control character are UTF-8 but not XML: refused for input reports hold
  // verbatim, allowed where JSON holds them.
  for (const std::string odd : {"\xef\xbf\xbe", "\x01"}) {
    const auto problem = detail::find_encoding_problem("a" + odd);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(problem->column, 2);
    EXPECT_NE(problem->message.find("is not allowed"), std::string::npos);
    EXPECT_FALSE(
        detail::find_encoding_problem("a" + odd, detail::Allowed::any_code_point).has_value());
  }
}

TEST(Encoding, WrittenJsonStringsAreValidUtf8WhateverTheyHeld) {
  std::string out;
  // Not UTF-8 (0xff, a truncated sequence), U+FFFE, U+FFFF and a control: each byte or
  // character becomes U+FFFD, so the JSON also holds only what junit.xml and HTML can.
  detail::append_json_string(
      out, "a\xff b\xe2\x82 c \xc3\xa4 \xf0\x9d\x84\x9e \x01\" \xef\xbf\xbe\xef\xbf\xbf\t");
  EXPECT_EQ(out,
            "\"a\\ufffd b\\ufffd\\ufffd c \xc3\xa4 \xf0\x9d\x84\x9e \\ufffd\\\" "
            "\\ufffd\\ufffd\\t\"");
  EXPECT_EQ(nlohmann::json::parse(out).get<std::string>(),
            "a\xef\xbf\xbd b\xef\xbf\xbd\xef\xbf\xbd c \xc3\xa4 \xf0\x9d\x84\x9e \xef\xbf\xbd\" "
            "\xef\xbf\xbd\xef\xbf\xbd\t");
}

TEST(Encoding, WritableTextReplacesWhatXmlCannotHold) {
  EXPECT_EQ(detail::writable_text("ok \t\n\r \xc3\xa4 \xf0\x9d\x84\x9e"),
            "ok \t\n\r \xc3\xa4 \xf0\x9d\x84\x9e");
  EXPECT_EQ(detail::writable_text("\x1b[31m\xff\xef\xbf\xbe"),
            "\xef\xbf\xbd[31m\xef\xbf\xbd\xef\xbf\xbd");
}

// Value::json() hands conditions to other programs; nlohmann's dump() throws on text that is
// not UTF-8 (type_error 316), the framework's writer does not.
TEST(Encoding, ValueJsonDoesNotThrowOnTextThatIsNotUtf8) {
  using simverify::framework::Value;
  const Value v(std::string("caf\xe9 \x02"));
  std::string text;
  ASSERT_NO_THROW(text = v.json());
  EXPECT_EQ(nlohmann::json::parse(text).get<std::string>(), "caf\xef\xbf\xbd \xef\xbf\xbd");
}

// Console lines quoting what a file brought: control characters (C0 with line breaks and tab,
// DEL, C1) and bidirectional controls are shown as escapes, bytes that are no UTF-8 as \xNN;
// everything else stays.
TEST(Encoding, TerminalTextShowsControlCharactersAsEscapes) {
  EXPECT_EQ(detail::terminal_text("plain ä € 𝄞 \\ \"q\""), "plain ä € 𝄞 \\ \"q\"");
  EXPECT_EQ(detail::terminal_text("a\x1b[2J\a\nb\tc\rd"),
            "a\\u001b[2J\\u0007\\u000ab\\u0009c\\u000dd");
  EXPECT_EQ(detail::terminal_text("\x7f \xc2\x9b \xc2\xa0"), "\\u007f \\u009b \xc2\xa0");
  EXPECT_EQ(detail::terminal_text("caf\xe9 \x9b"), "caf\\xe9 \\x9b");
  // A right-to-left override would show "ELBASAELER" as "RELEASABLE"; isolates and marks
  // reorder what follows them. Hebrew itself stays.
  EXPECT_EQ(detail::terminal_text("verdict: \u202eELBASAELER"), "verdict: \\u202eELBASAELER");
  EXPECT_EQ(detail::terminal_text("\u2066a\u2069 \u200f \u061c \u05d0"),
            "\\u2066a\\u2069 \\u200f \\u061c \u05d0");
}
