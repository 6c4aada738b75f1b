// The access token: who may call the API when the server listens beyond
// the loopback address.
#pragma once

#include <httplib.h>

#include <string>

namespace macroscope::server {

// 128 random bits from std::random_device, as 32 hex digits.
std::string RandomToken();

// True when the request carries `token` as `Authorization: Bearer T` or as
// the query parameter `token`. Compares in time independent of where the
// texts differ.
bool CarriesToken(const httplib::Request& request, const std::string& token);

}  // namespace macroscope::server
