// How failures of the OTF2 library become UserErrors.
//
// The library reports an error twice: a return code, and a message given to
// the process-wide error callback (by default printed on stderr). A
// LibraryErrorCapture, alive while an archive is read, routes those messages
// into the capture instead of stderr, so that the CLI prints one line; Check
// turns a failed return code into a UserError "ANCHOR: what: message".
//
// Threading: the OTF2 error callback is global to the process, so it is
// registered while any capture lives and hands each message to the capture
// of the thread that called the library (captures nest within a thread;
// location_threads.h reads with one capture per thread).
#pragma once

#include <string>

#include <otf2/otf2.h>

namespace macroscope::otf2 {

class LibraryErrorCapture {
 public:
  LibraryErrorCapture();
  ~LibraryErrorCapture();
  LibraryErrorCapture(const LibraryErrorCapture&) = delete;
  LibraryErrorCapture& operator=(const LibraryErrorCapture&) = delete;

  // The first message the library reported since the capture began ("" if none).
  const std::string& first_message() const { return first_message_; }

 private:
  static OTF2_ErrorCode OnError(void* unused, const char* file, uint64_t line, const char* function,
                                OTF2_ErrorCode code, const char* format, va_list args);
  LibraryErrorCapture* outer_ = nullptr;  // this thread's capture before this one
  std::string first_message_;
};

// Why `code` failed: the library's first message if any, else the code's description.
std::string Reason(OTF2_ErrorCode code, const LibraryErrorCapture& capture);

// Throws UserError("ANCHOR: WHAT: reason") unless `code` is OTF2_SUCCESS; the
// reason is the library's first message if any, else the code's description.
void Check(OTF2_ErrorCode code, const std::string& anchor, const char* what, const LibraryErrorCapture& capture);

}  // namespace macroscope::otf2
