// The built web UI: files under one directory, served read-only. A request
// path is resolved segment by segment; any "..", ".", backslash or NUL
// segment is refused before the file system is touched, and the resolved
// file must still lie inside the directory (no symlink escapes). A path
// that names no file answers index.html (the UI routes on the client).
// Without a built UI (no index.html), every page is a short notice saying
// how to build it.
#pragma once

#include <string>
#include <string_view>

namespace macroscope::server {

struct StaticAnswer {
  int status = 200;
  std::string content_type;
  std::string body;
};

class StaticFiles {
 public:
  explicit StaticFiles(std::string directory);

  // `path` is the decoded request path ("/", "/assets/app.js", ...).
  StaticAnswer Get(std::string_view path) const;

  bool built() const { return built_; }
  const std::string& directory() const { return directory_; }

 private:
  std::string directory_;  // canonical, when built_
  bool built_ = false;
};

// "text/javascript", ... from the file name's extension.
std::string_view ContentType(std::string_view file_name);

}  // namespace macroscope::server
