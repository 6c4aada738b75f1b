// Ring<T>: the bounded single-producer multi-consumer buffer of a link.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "pipeline/ring.h"

namespace macroscope::pipeline {
namespace {

using namespace std::chrono_literals;

// Publishes `value` in the next slot.
void Put(Ring<int>& ring, int value) {
  ring.Claim() = value;
  ring.Publish();
}

// Starts Put(value) on a thread; `done` says when it got its slot.
std::thread PutLater(Ring<int>& ring, int value, std::atomic<bool>& done) {
  return std::thread([&ring, value, &done] {
    Put(ring, value);
    done = true;
  });
}

TEST(Ring, RefusesZeroSlots) { EXPECT_THROW(Ring<int>(0, 1), std::invalid_argument); }

TEST(Ring, EveryConsumerSeesEveryBatchInOrderThenTheEnd) {
  Ring<int> ring(4, 2);
  for (int i = 0; i < 3; ++i) Put(ring, i);
  ring.Close();
  for (size_t c = 0; c < 2; ++c) {
    for (int i = 0; i < 3; ++i) {
      const int* v = ring.Peek(c);
      ASSERT_NE(v, nullptr);
      EXPECT_EQ(*v, i);
      ring.Release(c);
    }
    EXPECT_EQ(ring.Peek(c), nullptr);
  }
}

TEST(Ring, ConsumersShareTheSlotWithoutCopy) {
  Ring<int> ring(2, 3);
  Put(ring, 7);
  EXPECT_EQ(ring.Peek(0), ring.Peek(1));
  EXPECT_EQ(ring.Peek(1), ring.Peek(2));
}

TEST(Ring, TheSlowestConsumerHoldsTheProducer) {
  Ring<int> ring(2, 2);
  Put(ring, 0);
  Put(ring, 1);
  for (int i = 0; i < 2; ++i) ring.Release(0);  // consumer 0 is done, 1 has not started
  std::atomic<bool> done{false};
  std::thread producer = PutLater(ring, 2, done);
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(done);
  ring.Release(1);  // frees slot 0
  producer.join();
  EXPECT_TRUE(done);
  EXPECT_EQ(*ring.Peek(0), 2);
  EXPECT_EQ(*ring.Peek(1), 1);
}

TEST(Ring, ADetachedConsumerNoLongerHoldsTheProducer) {
  Ring<int> ring(1, 2);
  Put(ring, 0);
  ring.Release(0);
  std::atomic<bool> done{false};
  std::thread producer = PutLater(ring, 1, done);
  std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(done);
  ring.Detach(1);
  producer.join();
  EXPECT_EQ(*ring.Peek(0), 1);
}

TEST(Ring, WithoutConsumersWritesNeverWait) {
  Ring<int> ring(1, 0);
  for (int i = 0; i < 100; ++i) Put(ring, i);
  EXPECT_EQ(ring.consumers(), 0u);
}

TEST(Ring, CloseWakesAWaitingConsumer) {
  Ring<int> ring(2, 1);
  std::thread closer([&ring] {
    std::this_thread::sleep_for(20ms);
    ring.Close();
  });
  EXPECT_EQ(ring.Peek(0), nullptr);
  closer.join();
}

TEST(Ring, CancelWakesWaitingConsumersAndProducers) {
  Ring<int> ring(1, 1);
  Put(ring, 0);  // full: the producer's next Claim waits
  std::atomic<int> cancelled{0};
  std::thread producer([&] {
    try {
      Put(ring, 1);
    } catch (const Cancelled&) {
      ++cancelled;
    }
  });
  Ring<int> empty(1, 1);
  std::thread consumer([&] {
    try {
      empty.Peek(0);
    } catch (const Cancelled&) {
      ++cancelled;
    }
  });
  std::this_thread::sleep_for(20ms);
  ring.Cancel();
  empty.Cancel();
  producer.join();
  consumer.join();
  EXPECT_EQ(cancelled, 2);
  // Later calls throw too, even when they would not wait.
  EXPECT_THROW(ring.Peek(0), Cancelled);
}

TEST(Ring, AProducerAndAConsumerOnThreadsPassEveryValue) {
  Ring<int> ring(3, 1);
  constexpr int kCount = 20000;
  std::thread producer([&ring] {
    for (int i = 0; i < kCount; ++i) Put(ring, i);
    ring.Close();
  });
  long long sum = 0;
  int expected = 0;
  bool in_order = true;
  while (const int* v = ring.Peek(0)) {
    in_order = in_order && *v == expected++;
    sum += *v;
    ring.Release(0);
  }
  producer.join();
  EXPECT_TRUE(in_order);
  EXPECT_EQ(expected, kCount);
  EXPECT_EQ(sum, static_cast<long long>(kCount) * (kCount - 1) / 2);
}

}  // namespace
}  // namespace macroscope::pipeline
