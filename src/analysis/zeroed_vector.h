// Large tables of numbers that start at zero, allocated without writing
// the zeros: the memory comes from calloc, which for large blocks maps
// fresh pages that the kernel zeroes when they are first touched. Their
// cost then falls in the loop that fills the table — a loop that polls its
// cancellation — rather than in an allocation nothing can interrupt (the
// three 64 MB tables of an interval accumulator at 4,000 slices took 0.3
// to 0.6 s to zero).
//
// Value-initialising an element does nothing (the bytes calloc gave are
// already the zero): construct a ZeroedVector with its size, or grow it
// from empty; never shrink it and grow it again.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace macroscope::analysis {

template <class T>
struct ZeroedAllocator {
  static_assert(std::is_arithmetic_v<T>, "all-zero bytes must be the value zero");
  using value_type = T;

  ZeroedAllocator() = default;
  template <class U>
  ZeroedAllocator(const ZeroedAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    void* memory = std::calloc(n, sizeof(T));
    if (memory == nullptr) throw std::bad_alloc();
    return static_cast<T*>(memory);
  }
  void deallocate(T* memory, size_t) noexcept { std::free(memory); }

  template <class U>
  void construct(U*) noexcept {}
  template <class U, class... Args>
  void construct(U* where, Args&&... args) {
    ::new (static_cast<void*>(where)) U(std::forward<Args>(args)...);
  }

  friend bool operator==(const ZeroedAllocator&, const ZeroedAllocator&) { return true; }
};

template <class T>
using ZeroedVector = std::vector<T, ZeroedAllocator<T>>;

}  // namespace macroscope::analysis
