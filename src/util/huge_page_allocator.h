// An allocator for vectors of hundreds of megabytes written once from
// start to end (the Python module's columns of 10^7 rows): each block of
// 4 MiB or more is aligned to 2 MiB and marked for transparent huge pages
// (madvise MADV_HUGEPAGE, which Debian's kernels honour by default), so
// the kernel faults and zeroes it 2 MiB at a time rather than 4 KiB: for
// 10^7 rows of eleven columns, a quarter of a million page faults fewer.
// Smaller blocks, and kernels without huge pages, get plain memory.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>

namespace macroscope {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr size_t kHuge = size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < 2 * kHuge) {
      if (void* p = std::malloc(bytes)) return static_cast<T*>(p);
      throw std::bad_alloc();
    }
    const size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;
    void* p = std::aligned_alloc(kHuge, rounded);
    if (p == nullptr) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // advice: without it, plain pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t) { std::free(p); }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const { return true; }
};

}  // namespace macroscope
