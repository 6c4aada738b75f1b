// Params: typed getters that take JSON values or the strings `${name}`
// substitution gives, and Check() refusing undeclared parameters.
#include <gtest/gtest.h>

#include "engine_test_modules.h"
#include "pipeline/registry.h"

namespace macroscope::pipeline::engine_test {
namespace {

Params Of(nlohmann::json values) { return Params("x", std::move(values)); }

TEST(Params, IntegersFromNumbersAndStrings) {
  Params p = Of({{"a", 42}, {"b", "42"}, {"c", 3.0}, {"d", "-7"}, {"e", nullptr}});
  EXPECT_EQ(p.Integer("a"), 42);
  EXPECT_EQ(p.Integer("b"), 42);
  EXPECT_EQ(p.Integer("c"), 3);
  EXPECT_EQ(p.Integer("d"), -7);
  EXPECT_EQ(p.Integer("e", 5), 5);  // null: the default
  EXPECT_EQ(p.Integer("missing", 9), 9);
}

TEST(Params, BadValuesNameTheModuleAndTheParameter) {
  Params p = Of({{"n", "abc"}, {"m", "4x"}, {"f", 2.5}, {"s", "yes"}, {"a", {1, 2}}});
  EXPECT_EQ(ErrorOf([&] { p.Integer("n"); }), "module 'x': parameter 'n': expected an integer, got \"abc\"");
  EXPECT_EQ(ErrorOf([&] { p.Integer("m"); }), "module 'x': parameter 'm': expected an integer, got \"4x\"");
  EXPECT_EQ(ErrorOf([&] { p.Integer("f"); }), "module 'x': parameter 'f': expected an integer, got 2.5");
  EXPECT_EQ(ErrorOf([&] { p.Number("n"); }), "module 'x': parameter 'n': expected a number, got \"abc\"");
  EXPECT_EQ(ErrorOf([&] { p.Bool("s"); }), "module 'x': parameter 's': expected true or false, got \"yes\"");
  EXPECT_EQ(ErrorOf([&] { p.String("a"); }), "module 'x': parameter 'a': expected a string, got [1,2]");
  EXPECT_EQ(ErrorOf([&] { p.Strings("a"); }), "module 'x': parameter 'a': expected strings, got 1 in [1,2]");
  EXPECT_EQ(ErrorOf([&] { p.String("missing"); }), "module 'x': missing parameter 'missing'");
}

TEST(Params, NumbersBoolsAndStrings) {
  Params p = Of({{"n", 2.5}, {"s", "2.5"}, {"i", 3}, {"t", true}, {"f", "false"}, {"name", "a b"}});
  EXPECT_EQ(p.Number("n"), 2.5);
  EXPECT_EQ(p.Number("s"), 2.5);
  EXPECT_EQ(p.Number("i"), 3.0);
  EXPECT_TRUE(p.Bool("t"));
  EXPECT_FALSE(p.Bool("f"));
  EXPECT_EQ(p.String("name"), "a b");
  EXPECT_EQ(p.String("i"), "3");  // a number where text is expected: as JSON writes it
  EXPECT_EQ(p.String("missing", "d"), "d");
  EXPECT_TRUE(p.Has("n"));
  EXPECT_FALSE(p.Has("missing"));
}

TEST(Params, StringListsFromArraysOrCommaSeparatedText) {
  Params p = Of({{"a", {"x", "y"}}, {"s", "x, y ,z"}, {"one", "x"}, {"empty", ""}});
  EXPECT_EQ(p.Strings("a"), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(p.Strings("s"), (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(p.Strings("one"), (std::vector<std::string>{"x"}));
  EXPECT_TRUE(p.Strings("empty").empty());
  EXPECT_EQ(p.Strings("missing", std::vector<std::string>{"d"}), (std::vector<std::string>{"d"}));
}

TEST(Params, CheckRefusesUndeclaredParametersListingTheDeclaredOnes) {
  ModuleInfo info;
  info.kind = "limit";
  info.params = {{"skip", "", false}, {"keep", "", true}};
  EXPECT_NO_THROW(Of({{"module", "limit"}, {"keep", 3}}).Check(info));
  EXPECT_EQ(ErrorOf([&] { Of({{"kep", 3}}).Check(info); }),
            "module 'x': unknown parameter 'kep' (limit takes: skip, keep)");
  EXPECT_EQ(ErrorOf([&] { Of({{"skip", 3}}).Check(info); }), "module 'x': missing parameter 'keep'");
  ModuleInfo none;
  none.kind = "merge";
  EXPECT_EQ(ErrorOf([&] { Of({{"n", 1}}).Check(none); }), "module 'x': unknown parameter 'n' (merge takes no parameters)");
  EXPECT_TRUE(Contains(ErrorOf([&] { Of(nlohmann::json::array()).Check(none); }), "parameters must be an object"));
}

}  // namespace
}  // namespace macroscope::pipeline::engine_test
