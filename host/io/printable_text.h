#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace btforge {

// Note [Bytes of a file in a message]
// A message that quotes what an input file holds (a CSV header, a symbol, a
// shard's header value) must not put that file's bytes on a terminal raw: a
// binary file given by mistake would print escape sequences and noise. So
// quoted text goes through printable_text: printable ASCII and whole,
// well-formed UTF-8 characters stay as they are (a symbol named in another
// script reads as itself); control characters, DEL and every byte of a
// malformed sequence become \xNN; at most `limit` bytes of the input are
// shown, then "...".
std::string printable_text(std::string_view text, std::size_t limit = 80);

}  // namespace btforge
