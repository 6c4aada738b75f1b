#include "nsys_test_helpers.h"

#include <gtest/gtest.h>

#include <sstream>

#include "test_support.h"

namespace macroscope::nsys_test {

using testing::CommandResult;
using testing::Quote;

// Thread 1 (tid 4242, the main thread) and thread 2 (tid 4243) of process
// 4242 on host 1 (the bits above the pid), as Nsight serializes them:
// (1 << 48) + (4242 << 24) + tid.
//   globalPid 281546145660928, globalTid 281546145665170 and 281546145665171.
// Times: the first event at 200 ns, the last at 13000 ns after the session start.
const char* const kSyntheticSql = R"sql(
PRAGMA page_size = 1024;
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES
  (1, 'cudaLaunchKernel_v7000'), (2, 'cudaMemcpy_v3020'), (3, 'cudaMemset_v3020'), (4, 'scale'),
  (5, 'scale(float*, int)'), (6, '_Z5scalePfi'), (7, 'main thread'), (8, 'registered range'),
  (9, 'cuLaunchKernel'), (10, 'pthread_mutex_lock'), (11, 'cudaMalloc'), (12, 'cudaMalloc_v3020');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000123456789, '2023-11-14T22:13:20', '2023-11-14T22:13:20');
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES (281546145660928, 4242, 'scale-app');
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
INSERT INTO ThreadNames VALUES (7, 0, 281546145665170);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT);
INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'Test GPU', '0000:01:00.0');
CREATE TABLE TARGET_INFO_CUDA_NULL_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL, vmId INTEGER NOT NULL,
  processId INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL);
INSERT INTO TARGET_INFO_CUDA_NULL_STREAM VALUES (7, 0, 0, 4242, 0, 1);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES
  (1000, 2000, 67, 281546145665170, 10, 11, 0, 1),
  (1100, 1900, 0, 281546145665170, 10, 12, 0, NULL),
  (3000, 3500, 0, 281546145665170, 11, 1, 0, NULL),
  (4000, 9000, 0, 281546145665170, 12, 2, 0, NULL),
  (9500, 9800, 0, 281546145665170, 13, 3, 0, NULL),
  (3100, 3400, 1, 281546145665171, 20, 9, 0, NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER, launchType INTEGER,
  cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL, gridY INTEGER NOT NULL,
  gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (5000, 6000, 0, 1, 7, 11, 281546145660928, 5, 4, 6, 0, 0, 32, 64, 2, 1, 256, 1, 1, 1024, 0),
  (6000, 7000, 0, 1, 13, 20, 281546145660928, 5, 4, 6, 0, 0, 32, 8, 1, 1, 128, 2, 1, 0, 512),
  (7000, 7500, 0, 1, 13, 99, 281546145660928, 5, 4, 6, 0, 0, 32, 1, 1, 1, 32, 1, 1, 0, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (8000, 8800, 0, 1, 7, 12, 281546145660928, 1000000, 1, 0, 2);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  value INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (9600, 9700, 0, 1, 7, 13, 281546145660928, 0, 4096, 2);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
  domainId INTEGER, uint64Value INTEGER, int64Value INTEGER, doubleValue REAL, uint32Value INTEGER,
  int32Value INTEGER, floatValue REAL, jsonTextId INTEGER, jsonText TEXT);
INSERT INTO NVTX_EVENTS (start, end, eventType, category, color, text, globalTid, endGlobalTid, textId, domainId,
                         int64Value) VALUES
  (210, NULL, 75, NULL, NULL, 'mydomain', 281546145665170, NULL, NULL, 5, NULL),
  (220, NULL, 33, 3, NULL, 'io', 281546145665170, NULL, NULL, 0, NULL),
  (230, NULL, 39, NULL, NULL, 'worker', 281546145665171, NULL, NULL, 0, NULL),
  (500, 10000, 59, NULL, NULL, 'outer', 281546145665170, NULL, NULL, 0, NULL),
  (2500, 9900, 59, NULL, 4278190335, NULL, 281546145665170, NULL, 8, 5, 42),
  (2600, 12000, 60, NULL, NULL, 'async', 281546145665170, 281546145665171, NULL, 0, NULL),
  (2700, 3000, 60, NULL, NULL, 'inner async', 281546145665170, 281546145665170, NULL, 0, NULL),
  (11000, 13000, 60, NULL, NULL, 'overlap', 281546145665170, 281546145665170, NULL, 0, NULL),
  (4500, NULL, 34, 3, NULL, 'checkpoint', 281546145665170, NULL, NULL, 0, NULL),
  (11500, NULL, 59, NULL, NULL, 'never popped', 281546145665171, NULL, NULL, 0, NULL);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL, globalTid INTEGER,
  nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, nestingLevel INTEGER, callchainId INTEGER NOT NULL);
INSERT INTO OSRT_API VALUES (200, 300, 27, 281546145665170, 10, 0, 0, 0);
)sql";

std::string GeneratedSql(int calls_per_thread, int64_t session_start) {
  std::string sql = R"sql(
PRAGMA page_size = 4096;
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cudaMemcpyAsync_v3020'), (3, 'cudaMalloc'),
  (4, 'cudaMalloc_v3020'), (5, 'axpy'), (6, 'axpy(float*, float*, int)'), (7, 'pthread_mutex_lock'),
  (8, 'step'), (9, 'reduce');
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (@EPOCH@, '', '');
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
INSERT INTO PROCESSES VALUES ((1 << 48) + (4242 << 24), 4242, 'axpy-app');
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, busLocation TEXT);
INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'Test GPU', '0000:01:00.0');
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,
  blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,
  dynamicSharedMemory INTEGER NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, category INTEGER,
  text TEXT, globalTid INTEGER, textId INTEGER, domainId INTEGER, int64Value INTEGER);
CREATE TABLE OSRT_API (start INTEGER NOT NULL, end INTEGER NOT NULL, globalTid INTEGER, nameId INTEGER NOT NULL,
  returnValue INTEGER NOT NULL, nestingLevel INTEGER);
-- Call i on thread i % 4 at `base` (the threads 7 ns apart, so that their
-- kernels overlap on the streams two threads share).
CREATE TEMP TABLE n AS WITH RECURSIVE r(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM r WHERE i < 4 * @N@ - 1)
  SELECT i, i % 4 AS t, 1000 + (i / 4) * 1000 + (i % 4) * 7 AS base,
         (1 << 48) + (4242 << 24) + 4242 + i % 4 AS tid FROM r;
-- The trace's last time, ended by a range that starts with one never ended.
INSERT INTO NVTX_EVENTS VALUES (500, 3000 + @N@ * 1000, 59, NULL, 'whole', (1 << 48) + (4242 << 24) + 4242, NULL, 0, NULL);
INSERT INTO NVTX_EVENTS VALUES (500, NULL, 59, NULL, 'never popped', (1 << 48) + (4242 << 24) + 4242, NULL, 0, NULL);
INSERT INTO NVTX_EVENTS VALUES (500, NULL, 59, NULL, 'never popped either', (1 << 48) + (4242 << 24) + 4242, NULL, 0, NULL);
INSERT INTO NVTX_EVENTS VALUES (510, 12, 33, 4, 'io', NULL, NULL, 0, NULL), (520, NULL, 75, NULL, 'mydomain', NULL, NULL, 3, NULL);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME
  SELECT base, base + 400, 0, CASE WHEN i % 101 = 100 THEN NULL ELSE tid END, i + 1, CASE WHEN i % 3 = 2 THEN 2 ELSE 1 END, 0 FROM n;
-- Backtrace spans around every 5th call, as long as it (a tie: the call is the link's start).
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT base, base + 400, 67, tid, i + 1, 1, 0 FROM n WHERE i % 5 = 0;
-- cudaMalloc around cudaMalloc_v3020, twice at the same times; an end before its start.
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT base + 420, base + 500, 0, tid, NULL, 3, 0 FROM n WHERE i % 7 = 0;
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT base + 420, base + 500, 0, tid, NULL, 4, 0 FROM n WHERE i % 7 = 0;
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT base + 430, base + 480, 0, tid, NULL, 4, 2 FROM n WHERE i % 14 = 0;
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT base + 600, base + 550, 0, tid, NULL, 3, 0 FROM n WHERE i % 97 = 0;
-- Kernels on streams 1 and 2 (overlapping: cut), another for every 11th call (one correlationId, two links),
-- some launched by no call, some without a process.
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL
  SELECT base + 300, base + 900, 0, 1, 1 + t % 2, CASE WHEN i % 13 = 0 THEN 1000000000 + i ELSE i + 1 END,
         CASE WHEN i % 17 = 0 THEN NULL ELSE (1 << 48) + (4242 << 24) END, 6, 5, 32, i % 64 + 1, 1, 1, 256, 1, 1, 0, 0
  FROM n WHERE i % 3 != 2;
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL
  SELECT base + 900, base + 950, 0, 1, 3, i + 1, (1 << 48) + (4242 << 24), 6, 9, 32, 1, 1, 1, 32, 1, 1, 0, 0
  FROM n WHERE i % 11 = 0;
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY
  SELECT base + 350, base + 700, 0, 1, 4, i + 1, (1 << 48) + (4242 << 24), 4096 * (i % 9 + 1), 1 + i % 2, 0, 2
  FROM n WHERE i % 3 = 2;
-- NVTX: ranges over ten calls, start/end ranges overlapping the next (cut), marks at a call's start.
INSERT INTO NVTX_EVENTS SELECT base - 100, base + 9800, 59, NULL, NULL, tid, 8, 3, i FROM n WHERE (i / 4) % 10 = 0;
INSERT INTO NVTX_EVENTS SELECT base + 200, base + 1500, 60, 4, 'io ' || (i % 3), tid, NULL, 0, NULL FROM n WHERE i % 6 = 1;
INSERT INTO NVTX_EVENTS SELECT base, NULL, 34, NULL, 'tick', tid, NULL, 0, i FROM n WHERE i % 9 = 0;
INSERT INTO NVTX_EVENTS SELECT base + 50, NULL, 59, NULL, 'open', tid, NULL, 0, NULL FROM n WHERE i = 4 * @N@ - 3;
INSERT INTO OSRT_API SELECT base + 420, base + 480, tid, 7, 0, 0 FROM n WHERE i % 4 = 1;
)sql";
  auto replace = [&](const std::string& mark, const std::string& by) {
    for (size_t at = sql.find(mark); at != std::string::npos; at = sql.find(mark, at + by.size()))
      sql.replace(at, mark.size(), by);
  };
  replace("@N@", std::to_string(calls_per_thread));
  replace("@EPOCH@", std::to_string(session_start));
  return sql;
}

std::string Sqlite(const std::string& file, const std::string& query) {
  const CommandResult r = testing::RunCommand("sqlite3 " + Quote(file) + " " + Quote(query));
  EXPECT_EQ(r.exit_code, 0) << query << "\n" << r.err;
  return r.out;
}

int64_t SqliteCount(const std::string& file, const std::string& query) { return std::stoll(Sqlite(file, query)); }

std::map<std::string, uint64_t> SqliteCounts(const std::string& file, const std::string& query) {
  std::map<std::string, uint64_t> out;
  std::istringstream in(Sqlite(file, query));
  for (std::string line; std::getline(in, line);) {
    const size_t bar = line.rfind('|');
    if (bar == std::string::npos) continue;
    out[line.substr(0, bar)] += std::stoull(line.substr(bar + 1));
  }
  return out;
}

void MakeDatabase(const std::string& file, const std::string& sql) {
  testing::TempDir dir;
  const std::string script = dir.path() + "/make.sql";
  testing::WriteText(script, sql);
  const CommandResult r = testing::RunCommand("sqlite3 " + Quote(file) + " < " + Quote(script));
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

std::vector<DumpLine> Dump(const std::string& file) {
  const CommandResult r = testing::Macroscope("dump -l 9 " + Quote(file));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<DumpLine> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    DumpLine d;
    size_t pos = 0;
    for (;;) {
      const size_t comma = line.find(", ", pos);
      const std::string field = line.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      if (d.kind.empty())
        d.kind = field;
      else
        d.fields.push_back(field);
      if (comma == std::string::npos) break;
      pos = comma + 2;
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::map<std::string, uint64_t> DumpCounts(const std::vector<DumpLine>& dump, const std::string& kind) {
  std::map<std::string, uint64_t> out;
  for (const DumpLine& d : dump) {
    if (d.kind != kind) continue;
    // State: container, type, start, end, duration, imbrication, value;
    // Event: container, type, time, value; Link: container, type, start, end, duration, value, ...
    const size_t value = kind == "State" ? 6 : kind == "Event" ? 3 : 5;
    if (d.fields.size() > value) ++out[d.fields[1] + "|" + d.fields[value]];
  }
  return out;
}

}  // namespace macroscope::nsys_test
