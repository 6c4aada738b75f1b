// Runs `macroscope overview` on small CSV models: the SVG's partition view
// and legend, the PNG's size and pixels (visual aggregation), bad output
// paths (exit 1, one line, no file left behind); on traces: the time axis
// in seconds from the trace start, and a kernel trace's wall clock.
#include <cairo.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "render/canvas.h"
#include "render/palette.h"
#include "test_support.h"

namespace macroscope::render {
namespace {

struct Result {
  int exit_code;
  std::string out;
  std::string err;
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A scratch directory per test (ctest runs tests in parallel).
std::string TestDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string dir = ::testing::TempDir() + "/render." + info->test_suite_name() + "." + info->name();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

std::string WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

Result RunMacroscope(const std::string& dir, const std::string& args) {
  const std::string out = dir + "/stdout.txt";
  const std::string err = dir + "/stderr.txt";
  const std::string command = std::string("'") + MACROSCOPE_BINARY + "' " + args + " >'" + out +
                              "' 2>'" + err + "'";
  const int status = std::system(command.c_str());
  Result result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, Slurp(out), Slurp(err)};
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return result;
}

// Two resources x 10 slices, two types.
const char* kModel =
    "resource,slice,type,value\n"
    "s1,0,run,23\ns1,1,run,25\ns1,2,run,22\ns1,3,run,30\ns1,4,run,55\n"
    "s1,5,run,21\ns1,6,run,26\ns1,7,run,35\ns1,8,run,19\ns1,9,run,30\n"
    "s2,0,wait,75\ns2,1,wait,72\ns2,2,wait,71\ns2,3,wait,69\ns2,4,wait,92\n"
    "s2,5,wait,73\ns2,6,run,75\ns2,7,run,35\ns2,8,wait,70\ns2,9,wait,71\n";

// How cairo's SVG output writes a fill of `color`.
std::string SvgFill(const Color& color) {
  Canvas canvas(4, 4, ImageFormat::kSvg);
  canvas.FillRect({0, 0, 2, 2}, color);
  const std::string svg = canvas.Encode();
  std::regex fill("fill:rgb\\([^)]*\\)");
  std::string last;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), fill); it != std::sregex_iterator();
       ++it) {
    last = it->str();
  }
  return last;
}

int64_t Count(const std::string& text, const std::string& needle) {
  int64_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

int64_t PartCount(const std::string& dir, const std::string& csv, const std::string& p) {
  Result run = RunMacroscope(dir, "aggregate --model-in '" + csv + "' --p " + p + " --format csv");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return Count(run.out, "\n") - 1;  // minus the header
}

TEST(OverviewCommandTest, SvgHasOneRectanglePerPartAndListsTheTypes) {
  const std::string dir = TestDir();
  const std::string csv = WriteFile(dir + "/model.csv", kModel);
  for (const std::string p : {"0.0095", "0.3", "0.99"}) {
    const int64_t parts = PartCount(dir, csv, p);
    ASSERT_GT(parts, 0);
    const std::string svg_path = dir + "/overview.svg";
    Result run = RunMacroscope(dir, "overview --model-in '" + csv + "' --p " + p + " -o '" + svg_path + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "");
    const std::string svg = Slurp(svg_path);
    int64_t rectangles = 0;
    for (int i = 0; i < PartPaletteSize(); ++i) rectangles += Count(svg, SvgFill(PartColor(i)) + ";");
    EXPECT_EQ(rectangles, parts) << "p = " << p;
    // The legend names every type (cairo draws glyphs; the <desc> holds the text).
    const std::string desc = svg.substr(svg.find("<desc>"), svg.find("</desc>") - svg.find("<desc>"));
    EXPECT_NE(desc.find("\nrun\n"), std::string::npos);
    EXPECT_NE(desc.find("\nwait\n"), std::string::npos);
    EXPECT_NE(svg.find("<title>model.csv</title>"), std::string::npos);
  }
}

// The searchable text of an SVG (every string drawn, one a line).
std::string SvgText(const std::string& svg) {
  const size_t from = svg.find("<desc>"), to = svg.find("</desc>");
  return from == std::string::npos || to == std::string::npos ? "" : svg.substr(from, to - from);
}

TEST(OverviewCommandTest, CsvAxisKeepsTheModelsNumbers) {
  const std::string dir = TestDir();
  const std::string csv = WriteFile(dir + "/model.csv", kModel);
  Result run = RunMacroscope(dir, "overview --model-in '" + csv + "' -o '" + dir + "/o.svg'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(SvgText(Slurp(dir + "/o.svg")).find("\nslice\n"), std::string::npos);
  run = RunMacroscope(dir, "overview --model-in '" + csv + "' --start 0 --end 50 -o '" + dir + "/o.svg'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = SvgText(Slurp(dir + "/o.svg"));
  EXPECT_NE(text.find("\n50\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\ntime (model units)\n"), std::string::npos) << text;
}

TEST(OverviewCommandTest, PajeAxisIsInSecondsFromTheTraceStart) {
  const std::string dir = TestDir();
  const std::string trace = std::string(MACROSCOPE_SOURCE_DIR) + "/examples/synthetic.trace";
  Result run = RunMacroscope(dir, "overview --no-cache '" + trace + "' -o '" + dir + "/o.svg'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string text = SvgText(Slurp(dir + "/o.svg"));
  for (const char* label : {"\n+0 s\n", "\n+1000 s\n", "\n+3000 s\n", "\ntime from trace start\n"})
    EXPECT_NE(text.find(label), std::string::npos) << label << " in " << text;
  EXPECT_EQ(text.find("trace units"), std::string::npos) << text;
  EXPECT_EQ(text.find("UTC"), std::string::npos) << "a Pajé trace has no wall clock: " << text;
}

TEST(OverviewCommandTest, KernelTraceAxisIsRelativeWithTheWallClockOfItsStart) {
  MACROSCOPE_NEEDS_SHARED_TESTDATA();
  const std::string dir = TestDir();
  const std::string trace = ::macroscope::testing::SharedTestData() + "/ctf/bug446190";
  Result run = RunMacroscope(dir, "overview --no-cache '" + trace + "' -o '" + dir + "/o.svg'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::string text = SvgText(Slurp(dir + "/o.svg"));
  for (const char* label : {"\n+0 s\n", "\n+1 s\n", "\n+6 s\n", "\ntime from trace start\n",
                            "\ntrace start: 2014-10-07 08:36:01.211260539 UTC\n"})
    EXPECT_NE(text.find(label), std::string::npos) << label << " in " << text;
  // Not the clock's own seconds (1412670961...).
  EXPECT_FALSE(std::regex_search(text, std::regex("[0-9]{10}"))) << text;
  // A 4 ms window: milliseconds from its start, and where it starts.
  run = RunMacroscope(dir, "overview --no-cache '" + trace + "' --start +2.5s --end +2504ms -o '" + dir + "/o.svg'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  text = SvgText(Slurp(dir + "/o.svg"));
  for (const char* label : {"\n+0 ms\n", "\n+2 ms\n", "\n+4 ms\n", "\ntime from range start\n",
                            "\nrange start: 2014-10-07 08:36:03.711260539 UTC\n"})
    EXPECT_NE(text.find(label), std::string::npos) << label << " in " << text;
}

TEST(OverviewCommandTest, SpatiotemporalSvgNamesTheResources) {
  const std::string dir = TestDir();
  const std::string csv = WriteFile(dir + "/model.csv", kModel);
  const std::string svg_path = dir + "/st.svg";
  Result run = RunMacroscope(dir, "overview --model-in '" + csv + "' --mode spatiotemporal -o '" + svg_path +
                            "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string svg = Slurp(svg_path);
  EXPECT_NE(svg.find("\ns1\n"), std::string::npos);
  EXPECT_NE(svg.find("\ns2\n"), std::string::npos);
}

TEST(OverviewCommandTest, PngHasTheRequestedSize) {
  const std::string dir = TestDir();
  const std::string csv = WriteFile(dir + "/model.csv", kModel);
  for (const std::string mode : {"temporal", "spatiotemporal"}) {
    const std::string png_path = dir + "/overview.png";
    Result run = RunMacroscope(dir, "overview --model-in '" + csv + "' --mode " + mode +
                              " --width 900 --height 500 -o '" + png_path + "'");
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string png = Slurp(png_path);
    ASSERT_GE(png.size(), 24u);
    EXPECT_EQ(png.substr(0, 8), "\x89PNG\r\n\x1a\n");
    EXPECT_EQ(png.substr(12, 4), "IHDR");
    auto be32 = [&](size_t at) {
      return (static_cast<uint32_t>(static_cast<unsigned char>(png[at])) << 24) |
             (static_cast<uint32_t>(static_cast<unsigned char>(png[at + 1])) << 16) |
             (static_cast<uint32_t>(static_cast<unsigned char>(png[at + 2])) << 8) |
             static_cast<uint32_t>(static_cast<unsigned char>(png[at + 3]));
    };
    EXPECT_EQ(be32(16), 900u);
    EXPECT_EQ(be32(20), 500u);
  }
}

void ExpectOneLineErrorAndNoFile(const Result& run, const std::string& dir,
                                 const std::string& name) {
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(Count(run.err, "\n"), 1) << run.err;
  EXPECT_EQ(run.err.rfind("macroscope: ", 0), 0u) << run.err;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string file = entry.path().filename().string();
    EXPECT_TRUE(file == "model.csv" || file == name) << "left behind: " << file;
  }
}

TEST(OverviewCommandTest, BadExtensionIsAUserError) {
  const std::string dir = TestDir();
  const std::string csv = WriteFile(dir + "/model.csv", kModel);
  Result run = RunMacroscope(dir, "overview --model-in '" + csv + "' -o '" + dir + "/overview.pdf'");
  ExpectOneLineErrorAndNoFile(run, dir, "");
  EXPECT_NE(run.err.find(".svg or .png"), std::string::npos) << run.err;
}

TEST(OverviewCommandTest, UnwritablePathLeavesNothingBehind) {
  const std::string dir = TestDir();
  const std::string csv = WriteFile(dir + "/model.csv", kModel);
  // No such directory.
  Result run = RunMacroscope(dir, "overview --model-in '" + csv + "' -o '" + dir + "/missing/overview.svg'");
  ExpectOneLineErrorAndNoFile(run, dir, "");
  // The target is a directory: the temporary file beside it must go.
  std::filesystem::create_directory(dir + "/taken.png");
  run = RunMacroscope(dir, "overview --model-in '" + csv + "' -o '" + dir + "/taken.png'");
  ExpectOneLineErrorAndNoFile(run, dir, "taken.png");
}

// Opaque black pixels left of the legend column (black is reserved for the
// merged band and the dotted mark; text is dark grey).
int64_t BlackPixelsInViews(const std::string& png_path, int views_right) {
  cairo_surface_t* image = cairo_image_surface_create_from_png(png_path.c_str());
  EXPECT_EQ(cairo_surface_status(image), CAIRO_STATUS_SUCCESS);
  const int width = cairo_image_surface_get_width(image);
  const int height = cairo_image_surface_get_height(image);
  const int stride = cairo_image_surface_get_stride(image);
  const unsigned char* data = cairo_image_surface_get_data(image);
  int64_t black = 0;
  for (int y = 0; y < height; ++y) {
    const auto* row = reinterpret_cast<const uint32_t*>(data + static_cast<size_t>(y) * stride);
    for (int x = 0; x < std::min(width, views_right); ++x) black += row[x] == 0xFF000000u;
  }
  cairo_surface_destroy(image);
  return black;
}

TEST(OverviewCommandTest, TinyTypesAreMergedIntoTheBlackBand) {
  const std::string dir = TestDir();
  // One resource, a big type and six tiny ones: each tiny band is about
  // 1 px of the ~600 px histogram, under the 2 px threshold; merged they
  // make a band of several pixels.
  std::string with_tiny = "resource,slice,type,value\n";
  std::string without = with_tiny;
  for (int slice = 0; slice < 4; ++slice) {
    const std::string s = std::to_string(slice);
    with_tiny += "r," + s + ",big,1000\n";
    without += "r," + s + ",big,1000\n";
    for (int t = 0; t < 6; ++t) with_tiny += "r," + s + ",tiny" + std::to_string(t) + ",2\n";
  }
  const std::string csv = WriteFile(dir + "/model.csv", with_tiny);
  const std::string png = dir + "/tiny.png";
  Result run = RunMacroscope(dir, "overview --model-in '" + csv + "' --p 1 -o '" + png + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The views end left of the legend column (270 px + margins).
  const int views_right = 1200 - 300;
  const int64_t black = BlackPixelsInViews(png, views_right);
  // A band over the whole width (one part at p = 1), several pixels tall.
  EXPECT_GT(black, 700 * 4);

  WriteFile(csv, without);
  run = RunMacroscope(dir, "overview --model-in '" + csv + "' --p 1 -o '" + png + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(BlackPixelsInViews(png, views_right), 0);
}

}  // namespace
}  // namespace macroscope::render
