// SPDX-License-Identifier: Apache-2.0
// Owned device (and pinned host) allocations. A failed allocation is an
// ordinary error that names what it was for, how much it needed and how much
// the device had free, never an abort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include "common/result.h"

namespace kvlens {

class device_buffer {
public:
    device_buffer() = default;
    ~device_buffer();
    device_buffer(device_buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
    device_buffer& operator=(device_buffer&& o) noexcept;
    device_buffer(const device_buffer&) = delete;
    device_buffer& operator=(const device_buffer&) = delete;

    // bytes of device memory for `what` ("the weights", "the KV pool").
    static result<device_buffer> allocate(std::size_t bytes, const char* what);

    void* get() const { return p_; }
    template <class T> T* as() const { return static_cast<T*>(p_); }
    std::size_t bytes() const { return bytes_; }

private:
    void* p_ = nullptr;
    std::size_t bytes_ = 0;
};

// Page-locked host memory: the staging area the decode graph copies from and to.
class pinned_buffer {
public:
    pinned_buffer() = default;
    ~pinned_buffer();
    pinned_buffer(pinned_buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
    pinned_buffer& operator=(pinned_buffer&& o) noexcept;
    pinned_buffer(const pinned_buffer&) = delete;
    pinned_buffer& operator=(const pinned_buffer&) = delete;

    static result<pinned_buffer> allocate(std::size_t bytes, const char* what);

    template <class T> T* as() const { return static_cast<T*>(p_); }
    std::size_t bytes() const { return bytes_; }

private:
    void* p_ = nullptr;
    std::size_t bytes_ = 0;
};

// Carves one allocation into aligned pieces: first count the sizes, then
// allocate once, then hand out the pieces in the same order.
class device_arena {
public:
    static constexpr std::size_t alignment = 256;   // bytes, every piece
    // Reserves bytes; returns the piece's offset.
    std::size_t reserve(std::size_t bytes);
    std::size_t size() const { return size_; }
    status allocate(const char* what);
    template <class T> T* at(std::size_t offset) const {
        return reinterpret_cast<T*>(buf_.as<std::uint8_t>() + offset);
    }
    std::size_t bytes() const { return buf_.bytes(); }

private:
    std::size_t size_ = 0;
    device_buffer buf_;
};

}  // namespace kvlens
