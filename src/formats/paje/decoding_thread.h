// The decoding half of a Pajé reading on a thread of its own ("paje-decoder"
// in profiles), filling a block queue while the calling thread simulates
// what it pops: the whole reading (reader.cc) and a part's reading by byte
// range (range_reading.cc) overlap the two so.
#pragma once

#include <exception>
#include <functional>
#include <thread>

#include "formats/paje/record.h"

namespace macroscope::paje {

class DecodingThread {
 public:
  // Starts `decode`, which fills `queue` and marks its last block last, on
  // its thread; or runs it here first when `threaded` is false (then the
  // queue must take every block). An exception `decode` lets out (not bad
  // input, which travels in the blocks: an internal error) is kept for
  // Finish(), and a last block is pushed for it.
  DecodingThread(BlockQueue& queue, std::function<void()> decode, bool threaded = true);
  // Stops the thread (Cancel(): its pushes fail) when Finish() did not wait
  // for it: the simulating side failed.
  ~DecodingThread();
  DecodingThread(const DecodingThread&) = delete;
  DecodingThread& operator=(const DecodingThread&) = delete;

  // Once the last block is popped, or the queue cancelled: waits for the
  // thread and rethrows what `decode` let out.
  void Finish();

 private:
  BlockQueue& queue_;
  std::exception_ptr failure_;
  std::thread thread_;
};

}  // namespace macroscope::paje
