// SPDX-License-Identifier: Apache-2.0
// Errors as values: every fallible engine call returns result<T> (or status),
// never throws across the API and never aborts. The message names the cause.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kvlens {

struct error {
    std::string message;  // one line, names the cause ("tensor 'x' data outside the file")
};

template <class T>
class result {
public:
    result(T value) : v_(std::move(value)) {}          // NOLINT: implicit on purpose
    result(error e) : v_(std::move(e)) {}              // NOLINT
    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const error& err() const { return std::get<1>(v_); }
    const std::string& message() const { return err().message; }

private:
    std::variant<T, error> v_;
};

// A result with no value: ok, or an error.
class status {
public:
    status() = default;
    status(error e) : failed_(true), e_(std::move(e)) {}  // NOLINT
    bool ok() const { return !failed_; }
    explicit operator bool() const { return ok(); }
    const std::string& message() const { return e_.message; }
    const error& err() const { return e_; }

private:
    bool failed_ = false;
    error e_;
};

inline error make_error(std::string message) { return error{std::move(message)}; }

}  // namespace kvlens
