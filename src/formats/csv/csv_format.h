// pj_dump's CSV and the generic CSV as entries of the format registry.
#pragma once

#include "formats/format.h"

namespace macroscope::csv {

formats::Format DumpFormat();
formats::Format GenericCsvFormat();

}  // namespace macroscope::csv
