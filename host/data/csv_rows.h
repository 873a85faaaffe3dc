#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace btforge {

// Note [CSV rows]
// Every CSV btforge reads (markets, funding histories, exchange dumps) is
// cut into rows here, once: libcsv in strict mode (RFC 4180 quoting; LF,
// CRLF or CR line ends; a UTF-8 BOM; blank lines skipped), fed one physical
// line at a time so that each field knows the line it started on. A
// malformed quote is a DataError bad-quoting at its line and field, a quote
// still open at the end unterminated-quote. The caller gives each row its
// meaning, header or data, and reports its own errors with
// csv_error(...) at a field's line and column.

struct CsvField {
    std::string text;
    std::size_t line = 0;  // 1-based physical line the field starts on
};

// Calls `on_row(fields, row_line)` for every row, the header included, in
// order. An exception thrown by `on_row` stops the reading and propagates
// (Note [Errors out of libcsv callbacks] in csv_rows.cpp). `file` names the
// file in errors.
void read_csv_rows(const std::string& file, const std::vector<char>& bytes,
                   const std::function<void(std::span<const CsvField> fields, std::size_t row_line)>& on_row);

// The whole file, or a DataError cannot-read naming it as `what` ("market
// file", "funding file").
std::vector<char> read_csv_file(const std::filesystem::path& file, const std::string& what);

}  // namespace btforge
