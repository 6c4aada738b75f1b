#include "formats/otf2/library_errors.h"

#include <cstdarg>
#include <cstdio>

#include "util/error.h"

namespace macroscope::otf2 {

LibraryErrorCapture::LibraryErrorCapture() { previous_ = OTF2_Error_RegisterCallback(&OnError, this); }

// The previous callback's user data is not returned by the library; the
// default handler (nullptr) needs none, which is the case outside tests.
LibraryErrorCapture::~LibraryErrorCapture() { OTF2_Error_RegisterCallback(previous_, nullptr); }

OTF2_ErrorCode LibraryErrorCapture::OnError(void* self, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                                            const char* format, va_list args) {
  auto* capture = static_cast<LibraryErrorCapture*>(self);
  if (capture->first_message_.empty() && format != nullptr) {
    char buffer[512];
    std::vsnprintf(buffer, sizeof buffer, format, args);
    capture->first_message_ = buffer;
    if (capture->first_message_.empty()) capture->first_message_ = OTF2_Error_GetDescription(code);
  }
  return code;
}

void Check(OTF2_ErrorCode code, const std::string& anchor, const char* what, const LibraryErrorCapture& capture) {
  if (code == OTF2_SUCCESS) return;
  std::string reason = capture.first_message();
  if (reason.empty()) reason = OTF2_Error_GetDescription(code);
  throw UserError(anchor + ": " + what + ": " + reason);
}

}  // namespace macroscope::otf2
