#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "host/io/input_file.h"
#include "host/io/sha256.h"

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
//
// The bytes come from memory (the Python package's DataFrames) or from an
// InputFile (Note [Reading input files]) read in pieces of kCsvPieceBytes:
// a file is never held whole, only the piece being cut and a line that
// crosses into the next piece, so memory follows what the caller keeps of
// the rows, not the size of the file, and a pipe (`--data <(zcat m.csv.gz)`)
// is read as it comes. A row (its physical lines: several when a quoted
// field spans lines) holds at most kMaxCsvRowBytes: a file without line
// ends (3 GB of NUL bytes) or a quote never closed is refused as
// row-too-long at the line the row starts on as soon as that much is read,
// not after the whole file. Rows of btforge's formats hold well under a
// kilobyte; a thousand times that still fits.
inline constexpr std::size_t kMaxCsvRowBytes = std::size_t{1} << 20;
inline constexpr std::size_t kCsvPieceBytes = std::size_t{1} << 20;

struct CsvField {
    std::string text;
    std::size_t line = 0;  // 1-based physical line the field starts on
};

using CsvRowCallback = std::function<void(std::span<const CsvField> fields, std::size_t row_line)>;

// Calls `on_row(fields, row_line)` for every row, the header included, in
// order. An exception thrown by `on_row` stops the reading and propagates
// (Note [Errors out of libcsv callbacks] in csv_rows.cpp). `file` names the
// file in errors.
void read_csv_rows(const std::string& file, const std::vector<char>& bytes, const CsvRowCallback& on_row);

// The same, reading `input` from where it stands to its end in pieces of
// `piece_bytes` (smaller ones only in tests); `digest`, when given, receives
// every byte read (the market cache keys a market by the bytes that were
// parsed, Note [Market cache]). A read error is a DataError cannot-read.
void read_csv_rows(const std::string& file, InputFile& input, const CsvRowCallback& on_row, Sha256* digest = nullptr,
                   std::size_t piece_bytes = kCsvPieceBytes);

// `file` opened for read_csv_rows (Note [Reading input files]; a FIFO or
// pipe is read as a stream), or a DataError naming it as `what` ("market
// file", "funding file") with rule cannot-read or not-a-regular-file.
InputFile open_csv_file(const std::filesystem::path& file, const std::string& what);

}  // namespace btforge
