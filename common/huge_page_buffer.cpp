// SPDX-License-Identifier: Apache-2.0
// mmap, trimmed to a 2 MiB-aligned range, and madvise (see huge_page_buffer.h).
#include "common/huge_page_buffer.h"

#include <sys/mman.h>

#include <algorithm>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23   // Linux 5.14 (uapi asm-generic/mman-common.h)
#endif

namespace kvlens {

huge_page_buffer huge_page_buffer::allocate(std::size_t bytes)
{
    huge_page_buffer b;
    if (bytes == 0 || bytes > SIZE_MAX - 2 * huge_page) return b;
    const std::size_t size = (bytes + huge_page - 1) / huge_page * huge_page;
    // One huge page more than asked, so a 2 MiB-aligned range fits; the ends are unmapped.
    void* m = mmap(nullptr, size + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return b;
    auto* raw = static_cast<std::uint8_t*>(m);
    const auto at = reinterpret_cast<std::uintptr_t>(raw);
    auto* aligned = reinterpret_cast<std::uint8_t*>((at + huge_page - 1) / huge_page * huge_page);
    if (aligned > raw) munmap(raw, static_cast<std::size_t>(aligned - raw));
    if (const std::size_t tail = static_cast<std::size_t>(raw + size + huge_page - (aligned + size)); tail > 0)
        munmap(aligned + size, tail);
    madvise(aligned, size, MADV_HUGEPAGE);
    b.data_ = aligned;
    b.size_ = size;
    return b;
}

bool huge_page_buffer::commit(std::size_t offset, std::size_t length) const
{
    if (!data_ || offset >= size_ || length == 0) return false;
    constexpr std::size_t page = 4096;
    const std::size_t begin = offset / page * page;
    const std::size_t end = (offset + std::min(length, size_ - offset) + page - 1) / page * page;
    return madvise(data_ + begin, end - begin, MADV_POPULATE_WRITE) == 0;
}

huge_page_buffer& huge_page_buffer::operator=(huge_page_buffer&& o) noexcept
{
    if (this != &o) {
        if (data_) munmap(data_, size_);
        data_ = o.data_;
        size_ = o.size_;
        o.data_ = nullptr;
        o.size_ = 0;
    }
    return *this;
}

huge_page_buffer::~huge_page_buffer()
{
    if (data_) munmap(data_, size_);
}

}  // namespace kvlens
