#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace btforge {

// Note [Reading a result JSON's head]
// A sweep's result JSON (write_results_json) is its summary, its "inputs"
// and "identity", then "rows", which with --all-rows hold millions of rows
// (gigabytes). What a replay of one of its rows needs is the head: every
// key before "rows", and the first row (the best). read_results_head reads
// the file only that far: a scanner that knows JSON's strings and brackets
// finds the top-level key "rows" and the end of its first element; the head
// (the document cut before "rows") and that row are then parsed by the
// checked reader (Note [Checked JSON documents]: depth, duplicate keys,
// numbers, 64 MiB), so a hostile file costs at most 64 MiB and linear time.
struct ResultsHead {
    nlohmann::json head;                               // every top-level key before "rows"
    std::optional<std::uint64_t> best_combination_id;  // the first row's, when it has rows
};

// Throws JsonInputError (cannot-read, not-a-regular-file, too-large,
// bad-json, too-deep, ...) naming `origin` for anything that is not a
// result JSON's head; std::runtime_error for a document without "rows" or
// a first row without a combination id.
ResultsHead read_results_head(const std::filesystem::path& file, const std::string& origin);

// The same from text in memory (the fuzz target's entry): `text` may stop
// anywhere after the first row.
ResultsHead results_head_of_text(std::string_view text, const std::string& origin);

}  // namespace btforge
