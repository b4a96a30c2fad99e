// How numbers read in the viewer: short, with units, the same in every panel.
//
// Decimal (SI) prefixes throughout, because bandwidth is quoted in GB/s = 1e9 bytes/s and the
// byte counts sit next to it: 1.07e9 bytes reads "1.07 GB", never "1.00 GiB".
#pragma once

#include <string>

namespace sml::viewer {

std::string format_bytes(double bytes);  // 1073741824 -> "1.07 GB", 512 -> "512 B"
std::string format_pct(double pct);      // 87.345 -> "87.3%", 100 -> "100%", 0.04 -> "0.04%"
std::string format_ms(double ms);        // 0.3571 -> "0.357 ms", 0.0042 -> "4.20 us"
std::string format_gbps(double gbps);    // 2874.2 -> "2874 GB/s", 12.34 -> "12.3 GB/s"
std::string format_count(double n);      // 0 -> "0", 950 -> "950", 12345 -> "12.3 k"
std::string format_ratio(double r);      // measured / predicted: 1.003 -> "1.00x"
// N as a learner writes it: 1024 -> "1024", 1048576 -> "1M (2^20)", 16385 -> "16385".
std::string format_cols(long long n);

}  // namespace sml::viewer
