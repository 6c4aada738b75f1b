// The progress line's text (ProgressText): bytes of a known total with
// rate and time left, or entities and their rate; decimal units.
#include "util/progress_line.h"

#include <gtest/gtest.h>

namespace macroscope {
namespace {

TEST(ProgressText, BytesOfAKnownTotal) {
  Progress progress;
  progress.SetTotalBytes(2'200'000'000);
  progress.SetBytes(1'210'000'000);
  progress.AddEntities(41'234'567);
  EXPECT_EQ(ProgressText("reading big.paje", progress, 10),
            "reading big.paje: 1.21 GB of 2.20 GB (55%), 121 MB/s, 8 s left, 41.2 M entities");
  progress.SetBytes(2'200'000'000);
  EXPECT_EQ(ProgressText("reading big.paje", progress, 20),
            "reading big.paje: 2.20 GB of 2.20 GB (100%), 110 MB/s, 41.2 M entities");
}

TEST(ProgressText, EntitiesWhenBytesAreUnknown) {
  Progress progress;
  progress.AddEntities(512);
  EXPECT_EQ(ProgressText("reading trace.otf2", progress, 2), "reading trace.otf2: 512 entities, 256 entities/s");
  progress.AddEntities(1'999'488);
  EXPECT_EQ(ProgressText("reading trace.otf2", progress, 4), "reading trace.otf2: 2.00 M entities, 500 k entities/s");
}

TEST(ProgressText, LongWaitsInMinutesAndHours) {
  Progress progress;
  progress.SetTotalBytes(1'000'000'000'000);
  progress.SetBytes(1'000'000'000);
  EXPECT_EQ(ProgressText("importing", progress, 1),
            "importing: 1.00 GB of 1.00 TB (0%), 1.00 GB/s, 16 min 39 s left");
  progress.SetBytes(100'000'000);
  EXPECT_EQ(ProgressText("importing", progress, 1), "importing: 100 MB of 1.00 TB (0%), 100 MB/s, 2 h 46 min left");
}

TEST(HumanBytes, ThreeSignificantDigits) {
  EXPECT_EQ(HumanBytes(0), "0 B");
  EXPECT_EQ(HumanBytes(999), "999 B");
  EXPECT_EQ(HumanBytes(1000), "1.00 kB");
  EXPECT_EQ(HumanBytes(182'400'000), "182 MB");
}

}  // namespace
}  // namespace macroscope
