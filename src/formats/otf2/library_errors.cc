#include "formats/otf2/library_errors.h"

#include <cstdarg>
#include <cstdio>
#include <mutex>

#include "util/error.h"

namespace macroscope::otf2 {

namespace {

thread_local LibraryErrorCapture* current = nullptr;  // this thread's innermost capture
std::mutex registration;
int live = 0;  // captures alive in the process, on every thread
OTF2_ErrorCallback previous = nullptr;

}  // namespace

LibraryErrorCapture::LibraryErrorCapture() : outer_(current) {
  current = this;
  std::lock_guard lock(registration);
  if (live++ == 0) previous = OTF2_Error_RegisterCallback(&OnError, nullptr);
}

// The previous callback's user data is not returned by the library; the
// default handler (nullptr) needs none, which is the case outside tests.
LibraryErrorCapture::~LibraryErrorCapture() {
  current = outer_;
  std::lock_guard lock(registration);
  if (--live == 0) OTF2_Error_RegisterCallback(previous, nullptr);
}

OTF2_ErrorCode LibraryErrorCapture::OnError(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code,
                                            const char* format, va_list args) {
  LibraryErrorCapture* capture = current;  // none: a thread reading without one stays quiet
  if (capture != nullptr && capture->first_message_.empty() && format != nullptr) {
    char buffer[512];
    std::vsnprintf(buffer, sizeof buffer, format, args);
    capture->first_message_ = buffer;
    if (capture->first_message_.empty()) capture->first_message_ = OTF2_Error_GetDescription(code);
  }
  return code;
}

std::string Reason(OTF2_ErrorCode code, const LibraryErrorCapture& capture) {
  return capture.first_message().empty() ? OTF2_Error_GetDescription(code) : capture.first_message();
}

void Check(OTF2_ErrorCode code, const std::string& anchor, const char* what, const LibraryErrorCapture& capture) {
  if (code == OTF2_SUCCESS) return;
  throw UserError(anchor + ": " + what + ": " + Reason(code, capture));
}

}  // namespace macroscope::otf2
