// The store's framing (docs/store.md): a header, zstd frames, a directory
// of the sections' frames and a footer that checks the header and the
// directory. StoreFile reads it through a memory mapping and hands out
// checked frames to decode; StoreFileWriter writes it atomically. What the
// frames hold is the business of the readers and the writer of each
// format version. Internal to src/store.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "store/store_bytes.h"
#include "util/atomic_file.h"
#include "util/mapped_file.h"

namespace macroscope::store {

// Where a frame lies in the file, its decompressed size and the hash of its
// compressed bytes.
struct Frame {
  uint64_t offset = 0, size = 0, raw = 0, hash = 0;
};

class StoreFile {
 public:
  // Maps the file and checks its magic, version, footer and directory;
  // throws UserError naming the file.
  explicit StoreFile(const std::string& path);
  const std::string& path() const { return path_; }
  uint32_t version() const { return version_; }
  size_t section_count() const { return sections_.size(); }
  const Frame& section(uint32_t id) const { return sections_[id]; }
  // Section `id`, its hash checked, to decode as it is decompressed.
  In OpenSection(uint32_t id, const char* name) const;
  // Any frame before the directory (chunks), checked against the file's
  // bounds and its hash, decompressed whole into `raw`; `what` names it in
  // errors.
  void ReadFrame(const Frame& frame, const std::string& what, std::vector<uint8_t>& raw) const;
  // True when `frame` lies within the file's frames.
  bool Holds(const Frame& frame) const;
  const MappedFile& mapping() const { return file_; }

 private:
  std::string path_;
  MappedFile file_;
  const uint8_t* base_ = nullptr;
  uint64_t frames_end_ = 0;  // the directory's offset
  uint32_t version_ = 0;
  std::vector<Frame> sections_;
};

class StoreFileWriter {
 public:
  // Creates the temporary file beside `path` and writes the header.
  StoreFileWriter(std::string path, uint32_t version);
  ~StoreFileWriter();
  // Compresses `raw` into the next frame; returns where it went.
  Frame Append(const std::vector<uint8_t>& raw);
  // A frame appended before, read back from the file and decompressed
  // into `raw` (the writer's summaries are built from its chunks).
  void ReadBack(const Frame& frame, std::vector<uint8_t>& raw);
  // Appends the sections' frames, their directory and the footer, then
  // renames the file into place.
  void Finish(const std::vector<std::vector<uint8_t>>& sections);

 private:
  void Write(const void* data, size_t n);
  std::string path_;
  AtomicFile file_;
  std::vector<uint8_t> header_;
  uint64_t offset_ = 0;
  struct Compressor;
  std::unique_ptr<Compressor> zstd_;
  std::vector<uint8_t> compressed_;
};

// Packs bytes into frames of about `frame_bytes`, each appended to the file
// once full: a chunk lies whole in one frame (Put), a summary runs on from
// frame to frame (Spread: it is read by a prefix of its parts, so a coarse
// level needs its first frame only, not the whole summary).
class FramePacker {
 public:
  FramePacker(StoreFileWriter& file, uint64_t frame_bytes) : file_(file), frame_bytes_(frame_bytes) {}
  // Where the next byte goes.
  uint32_t frame() const { return static_cast<uint32_t>(frames_.size()); }
  uint64_t offset() const { return frame_.size(); }
  void Put(const std::vector<uint8_t>& bytes);
  void Spread(const std::vector<uint8_t>& bytes);
  // Appends the frame being filled, if any.
  void Close();
  // The frames appended so far.
  const std::vector<Frame>& frames() const { return frames_; }

 private:
  StoreFileWriter& file_;
  const uint64_t frame_bytes_;
  std::vector<uint8_t> frame_;
  std::vector<Frame> frames_;
};

}  // namespace macroscope::store
