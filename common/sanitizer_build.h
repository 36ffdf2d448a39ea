// SPDX-License-Identifier: Apache-2.0
// Whether this build runs under AddressSanitizer (GCC's -fsanitize=address
// defines __SANITIZE_ADDRESS__; clang answers __has_feature). Code that cannot
// run under ASan (an address-space cap: its shadow map reserves terabytes) or
// whose numbers would mean nothing there (timings) asks this.
#pragma once

namespace kvlens {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool built_with_address_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool built_with_address_sanitizer = true;
#else
inline constexpr bool built_with_address_sanitizer = false;
#endif
#else
inline constexpr bool built_with_address_sanitizer = false;
#endif

}  // namespace kvlens
