// SPDX-License-Identifier: Apache-2.0
// Anonymous memory offered transparent huge pages (2 MiB), for buffers a
// kernel streams or reads in a scattered order: the weights' copy, the KV
// cache. With 4 KiB pages such reads cost a TLB miss nearly every page.
// Memory is committed as it is first touched, or ahead of use by commit().
#pragma once

#include <cstddef>
#include <cstdint>

namespace kvlens {

class huge_page_buffer {
public:
    static constexpr std::size_t huge_page = std::size_t{2} << 20;   // bytes

    // bytes rounded up to whole huge pages, 2 MiB-aligned, zeroed, committed
    // as it is touched. Empty (false) when the memory cannot be had. Huge
    // pages are advice: where the kernel gives none, 4 KiB pages serve.
    static huge_page_buffer allocate(std::size_t bytes);

    huge_page_buffer() = default;
    huge_page_buffer(huge_page_buffer&& o) noexcept : data_(o.data_), size_(o.size_) { o.data_ = nullptr, o.size_ = 0; }
    huge_page_buffer& operator=(huge_page_buffer&& o) noexcept;
    huge_page_buffer(const huge_page_buffer&) = delete;
    huge_page_buffer& operator=(const huge_page_buffer&) = delete;
    ~huge_page_buffer();

    explicit operator bool() const { return data_ != nullptr; }
    std::uint8_t* data() const { return data_; }
    std::size_t size() const { return size_; }   // bytes, a multiple of huge_page

    // Commits [offset, offset + length) now (Linux MADV_POPULATE_WRITE: page
    // tables filled, contents untouched), clipped to the buffer, so a later
    // first touch costs no page fault. Best effort: false where the kernel
    // lacks the advice (before 5.14) or cannot commit the memory now (the
    // range is then committed as it is touched, as without the call).
    bool commit(std::size_t offset, std::size_t length) const;

private:
    std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace kvlens
