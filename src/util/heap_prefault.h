// The main heap's fresh pages faulted in ahead, on another thread. Reading
// a large trace grows the heap by gigabytes on the simulating thread, and
// the kernel zeroes each new page when that thread first writes it: under
// this project's virtual machines, 3 to 5 s of system time on that thread
// for 2.3 GB. The decoding thread, whenever it is ahead of the simulating
// one (it would wait for it), faults them in instead (madvise
// MADV_POPULATE_WRITE: page tables only, no data written), as far as the
// heap is mapped; glibc maps it 8 MB ahead of its use (the top_pad of
// src/launcher/launcher.c).
#pragma once

#include <cstdint>

namespace macroscope {

class HeapPrefaulter {
 public:
  // On the thread whose allocations grow the main heap (the main thread):
  // notes where the heap ends now. Anywhere else it stays off.
  HeapPrefaulter();
  // From one other thread: faults in what the heap mapped since the last
  // call. Off for good where the kernel cannot.
  void Advance();

 private:
  uintptr_t next_ = 0;  // the first page not faulted in yet; 0: off
};

}  // namespace macroscope
