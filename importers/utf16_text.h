// SPDX-License-Identifier: GPL-3.0-or-later
// Text saved as UTF-16 (Windows PowerShell's `>` and Out-File, some Windows tools' exports): readable text whose
// every other byte is zero, which the sniffer would take for binary. It is read as UTF-8, transcoded on the way in;
// the file itself is untouched.
#pragma once

#include "importers/line_reader.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace attrib::importers {

enum class Utf16Order { None, LittleEndian, BigEndian };

/// Appends code point `cp` to `out` as UTF-8.
void appendUtf8(std::string& out, char32_t cp);

/// The bytes of a file's head utf16Order looks at.
constexpr std::size_t Utf16ProbeBytes = 512;

/// The byte order of UTF-16 text at the start of `head`: by its byte-order mark, or, without one, by text whose
/// characters are nearly all below U+0100 (nine in ten of one byte of every pair zero, almost none of the other).
Utf16Order utf16Order(std::string_view head);

/// A reader giving `inner`'s UTF-16 text as UTF-8, without the byte-order mark; an unpaired surrogate or a lone
/// last byte becomes U+FFFD.
ReadFn utf16Reader(ReadFn inner, Utf16Order order);

}  // namespace attrib::importers
