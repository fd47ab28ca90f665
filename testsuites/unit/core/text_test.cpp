// excerpt: what a message quotes of a file stays one line of sensible size, however large or
// strange the file (a 50 MB header of NULs once became 300 MB of error text).
#include <simverify/core/text.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace core = simverify::core;

TEST(Excerpt, ShortTextIsKeptAsItIs) {
  EXPECT_EQ(core::excerpt("t,x,v"), "t,x,v");
  EXPECT_EQ(core::excerpt(""), "");
  EXPECT_EQ(core::excerpt("€ and ü"), "€ and ü");
}

TEST(Excerpt, LongTextIsCutWithItsSize) {
  const std::string header(5'000'000, 'y');
  EXPECT_EQ(core::excerpt(header, 10), "yyyyyyyyyy... (5000000 bytes)");
  EXPECT_EQ(core::excerpt(header).size(), 80 + std::string("... (5000000 bytes)").size());
}

TEST(Excerpt, ControlCharactersAreShownNotObeyed) {
  using namespace std::string_literals;
  EXPECT_EQ(core::excerpt("a\0b"s), "a\\u0000b");
  EXPECT_EQ(core::excerpt("line\r\nnext\x1b[2J\x7f"), "line\\u000d\\u000anext\\u001b[2J\\u007f");
  // Cut counts bytes of the file, not of the escapes.
  EXPECT_EQ(core::excerpt(std::string(100, '\0'), 2), "\\u0000\\u0000... (100 bytes)");
  // As the console shows any outside text: C1 controls, bidi overrides (which would reorder
  // the line quoting the excerpt) and bytes that are not UTF-8.
  EXPECT_EQ(core::excerpt("a\u202eb\u0085c\xff"), "a\\u202eb\\u0085c\\xff");
}

TEST(Excerpt, NeverCutsInsideACharacter) {
  // "ü" is two bytes: a cut after 3 bytes would split the second one.
  EXPECT_EQ(core::excerpt("aüü", 4), "aü... (5 bytes)");
  EXPECT_EQ(core::excerpt("aüü", 3), "aü... (5 bytes)");
  EXPECT_EQ(core::excerpt("aüü", 2), "a... (5 bytes)");
}

TEST(Excerpt, AJoinIsCutLikeText) {
  EXPECT_EQ(core::join_excerpt({"t", "x", "v"}), "t, x, v");
  EXPECT_EQ(core::join_excerpt({}), "");
  // A million columns: cut after about `longest` bytes, with the size of the whole list.
  const std::vector<std::string> columns(1'000'000, "col");
  EXPECT_EQ(core::join_excerpt(columns, 12), "col, col, co... (4999998 bytes)");
  const std::vector<std::string> one_huge{std::string(1'000'000, 'z')};
  EXPECT_EQ(core::join_excerpt(one_huge, 3), "zzz... (1000000 bytes)");
}
