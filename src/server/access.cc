#include "server/access.h"

#include <cstdio>
#include <random>

namespace macroscope::server {

namespace {

bool SameText(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::string RandomToken() {
  std::random_device device;
  std::string token;
  for (int i = 0; i < 4; ++i) {
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", static_cast<unsigned>(device()));
    token += hex;
  }
  return token;
}

bool CarriesToken(const httplib::Request& request, const std::string& token) {
  const std::string authorization = request.get_header_value("Authorization");
  const std::string bearer = "Bearer ";
  if (authorization.compare(0, bearer.size(), bearer) == 0 &&
      SameText(authorization.substr(bearer.size()), token)) {
    return true;
  }
  return request.has_param("token") && SameText(request.get_param_value("token"), token);
}

}  // namespace macroscope::server
