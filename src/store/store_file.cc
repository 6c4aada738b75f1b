#include "store/store_file.h"

#include <algorithm>

#include <unistd.h>

#include <memory>
#include <new>
#include <stdexcept>

#include "store/store.h"

namespace macroscope::store {

namespace {

// One decompression context a thread, kept: ZSTD_decompress makes (and
// frees) one per call, some 160 KiB, each time a frame of a few KiB is read.
size_t DecompressFrame(uint8_t* raw, size_t raw_size, const uint8_t* compressed, size_t size) {
  thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> dctx{ZSTD_createDCtx(), ZSTD_freeDCtx};
  if (!dctx) throw std::bad_alloc();
  return ZSTD_decompressDCtx(dctx.get(), raw, raw_size, compressed, size);
}

}  // namespace

StoreFile::StoreFile(const std::string& path) : path_(path), file_(path) {
  std::string_view bytes = file_.bytes();
  base_ = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t size = bytes.size();
  if (!LooksLikeStore(bytes)) throw UserError(path + ": not a macroscope store");
  if (size < kHeaderSize) throw UserError(path + ": truncated store");
  version_ = VersionOf(base_);
  if (version_ > kStoreVersion)
    throw UserError(path + ": made by a newer macroscope (format version " + std::to_string(version_) + " > " +
                    std::to_string(kStoreVersion) + "); upgrade macroscope or re-import the trace");
  if (version_ == 0) throw UserError(path + ": corrupt store (format version 0)");
  if (size < kHeaderSize + kFooterSize || std::memcmp(base_ + size - 8, kEndMagic, 8) != 0)
    throw UserError(path + ": truncated store (no footer; an interrupted write?)");
  const uint8_t* footer = base_ + size - kFooterSize;
  const uint64_t dir_offset = GetU64(footer), count = GetU64(footer + 8), checksum = GetU64(footer + 16);
  if (count > (1u << 20) || dir_offset < kHeaderSize || dir_offset > size - kFooterSize ||
      (size - kFooterSize - dir_offset) != count * kEntrySize)
    throw UserError(path + ": corrupt store (directory)");
  {
    std::vector<uint8_t> checked(base_, base_ + kHeaderSize);
    checked.insert(checked.end(), base_ + dir_offset, base_ + dir_offset + count * kEntrySize);
    if (Hash64(checked.data(), checked.size()) != checksum && kVerifyChecksums)
      throw UserError(path + ": checksum mismatch in the store's header or directory (corrupt file)");
  }
  frames_end_ = dir_offset;
  for (size_t i = 0; i < count; ++i) {
    const uint8_t* e = base_ + dir_offset + i * kEntrySize;
    Frame f{GetU64(e), GetU64(e + 8), GetU64(e + 16), GetU64(e + 24)};
    if (!Holds(f)) throw UserError(path + ": corrupt store (directory)");
    sections_.push_back(f);
  }
}

bool StoreFile::Holds(const Frame& f) const {
  return f.offset >= kHeaderSize && f.offset <= frames_end_ && f.size <= frames_end_ - f.offset &&
         f.raw <= (uint64_t{1} << 40) && f.raw / kMaxZstdRatio <= f.size;
}

In StoreFile::OpenSection(uint32_t id, const char* name) const {
  const Frame& f = sections_[id];
  // Its pages leave memory as they are hashed: the decoder reads them again.
  if (Hash64(base_ + f.offset, f.size, &file_, f.offset) != f.hash && kVerifyChecksums)
    throw UserError(path_ + ": checksum mismatch in section '" + name + "' (corrupt file)");
  return In(base_ + f.offset, f.size, f.raw, path_, std::string("section ") + name, &file_, f.offset);
}

void StoreFile::ReadFrame(const Frame& f, const std::string& what, std::vector<uint8_t>& raw) const {
  if (!Holds(f)) throw UserError(path_ + ": corrupt store (" + what + " lies outside the file)");
  if (Hash64(base_ + f.offset, f.size) != f.hash && kVerifyChecksums)
    throw UserError(path_ + ": checksum mismatch in " + what + " (corrupt file)");
  if (f.raw > kMaxFrameRaw) throw UserError(path_ + ": corrupt store (" + what + " claims too many bytes)");
  raw.resize(f.raw);
  const size_t n = DecompressFrame(raw.data(), raw.size(), base_ + f.offset, f.size);
  if (ZSTD_isError(n) || n != f.raw) throw UserError(path_ + ": corrupt store (" + what + ")");
}

struct StoreFileWriter::Compressor {
  std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx{ZSTD_createCCtx(), ZSTD_freeCCtx};
};

StoreFileWriter::StoreFileWriter(std::string path, uint32_t version)
    : path_(std::move(path)), file_(path_), zstd_(std::make_unique<Compressor>()) {
  if (!zstd_->cctx) throw std::runtime_error("zstd: out of memory");
  ZSTD_CCtx_setParameter(zstd_->cctx.get(), ZSTD_c_compressionLevel, kLevel);
  ZSTD_CCtx_setParameter(zstd_->cctx.get(), ZSTD_c_checksumFlag, 1);
  header_.assign(kMagic, kMagic + 8);
  for (int i = 0; i < 4; ++i) header_.push_back(static_cast<uint8_t>(version >> (8 * i)));
  for (int i = 0; i < 4; ++i) header_.push_back(0);
  Write(header_.data(), header_.size());
}

StoreFileWriter::~StoreFileWriter() = default;

void StoreFileWriter::Write(const void* data, size_t n) {
  if (n != 0 && std::fwrite(data, 1, n, file_.stream()) != n) throw UserError(path_ + ": cannot write");
  offset_ += n;
}

Frame StoreFileWriter::Append(const std::vector<uint8_t>& raw) {
  compressed_.resize(ZSTD_compressBound(raw.size()));
  const size_t n = ZSTD_compress2(zstd_->cctx.get(), compressed_.data(), compressed_.size(), raw.data(), raw.size());
  if (ZSTD_isError(n)) throw std::runtime_error(std::string("zstd: ") + ZSTD_getErrorName(n));
  Frame f{offset_, n, raw.size(), Hash64(compressed_.data(), n)};
  Write(compressed_.data(), n);
  return f;
}

void StoreFileWriter::ReadBack(const Frame& frame, std::vector<uint8_t>& raw) {
  if (std::fflush(file_.stream()) != 0) throw UserError(path_ + ": cannot write");
  compressed_.resize(frame.size);
  const int fd = fileno(file_.stream());
  for (size_t done = 0; done < frame.size;) {
    const ssize_t n = pread(fd, compressed_.data() + done, frame.size - done, static_cast<off_t>(frame.offset + done));
    if (n <= 0) throw UserError(path_ + ": cannot read back what was written");
    done += static_cast<size_t>(n);
  }
  raw.resize(frame.raw);
  const size_t n = DecompressFrame(raw.data(), raw.size(), compressed_.data(), frame.size);
  if (ZSTD_isError(n) || n != frame.raw) throw UserError(path_ + ": cannot read back what was written");
}

void StoreFileWriter::Finish(const std::vector<std::vector<uint8_t>>& sections) {
  std::vector<uint8_t> directory;
  for (const std::vector<uint8_t>& raw : sections) {
    const Frame f = Append(raw);
    for (uint64_t v : {f.offset, f.size, f.raw, f.hash}) PutU64(directory, v);
  }
  const uint64_t dir_offset = offset_;
  Write(directory.data(), directory.size());
  std::vector<uint8_t> checked = header_;
  checked.insert(checked.end(), directory.begin(), directory.end());
  std::vector<uint8_t> footer;
  PutU64(footer, dir_offset);
  PutU64(footer, sections.size());
  PutU64(footer, Hash64(checked.data(), checked.size()));
  footer.insert(footer.end(), kEndMagic, kEndMagic + 8);
  Write(footer.data(), footer.size());
  file_.Commit();
}

void FramePacker::Put(const std::vector<uint8_t>& bytes) {
  frame_.insert(frame_.end(), bytes.begin(), bytes.end());
  if (frame_.size() >= frame_bytes_) Close();
}

void FramePacker::Spread(const std::vector<uint8_t>& bytes) {
  for (size_t at = 0; at < bytes.size();) {
    const size_t n = std::min<size_t>(bytes.size() - at, frame_bytes_ - std::min(frame_bytes_, frame_.size()));
    frame_.insert(frame_.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at),
                  bytes.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
    if (frame_.size() >= frame_bytes_) Close();
  }
}

void FramePacker::Close() {
  if (frame_.empty()) return;
  frames_.push_back(file_.Append(frame_));
  frame_.clear();
}

}  // namespace macroscope::store
