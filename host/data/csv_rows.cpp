#include "host/data/csv_rows.h"

#include <exception>
#include <fstream>
#include <iterator>
#include <memory>
#include <new>

#include <csv.h>

#include "host/data/data_error.h"

namespace btforge {

namespace {

// Note [Errors out of libcsv callbacks]
// libcsv is C: an exception must not unwind through csv_parse. The callbacks
// catch everything, park it in `failure`, and turn into no-ops; the driver
// loop rethrows it as soon as csv_parse returns.
struct RowCollector {
    explicit RowCollector(const std::function<void(std::span<const CsvField>, std::size_t)>& callback)
        : on_row(&callback) {}
    const std::function<void(std::span<const CsvField>, std::size_t)>* on_row;
    std::size_t line = 1;  // physical line being fed to libcsv
    std::vector<CsvField> fields;
    std::size_t n_fields = 0;  // fields is reused: only the first n_fields are this row's
    std::size_t row_line = 0;
    std::size_t last_row_end_line = 0;
    std::exception_ptr failure;

    static void on_field(void* data, std::size_t length, void* self) noexcept {
        static_cast<RowCollector*>(self)->field(static_cast<const char*>(data), length);
    }
    static void on_end(int /*terminator*/, void* self) noexcept { static_cast<RowCollector*>(self)->row(); }

    void field(const char* data, std::size_t length) noexcept {
        if (failure) return;
        try {
            if (n_fields == 0) row_line = line;
            if (n_fields == fields.size()) fields.emplace_back();
            CsvField& f = fields[n_fields++];
            f.text.assign(data == nullptr ? "" : data, data == nullptr ? 0 : length);
            f.line = line;
        } catch (...) {
            failure = std::current_exception();
        }
    }

    void row() noexcept {
        if (failure) return;
        try {
            (*on_row)(std::span<const CsvField>(fields.data(), n_fields), row_line);
            n_fields = 0;
            last_row_end_line = line;
        } catch (...) {
            failure = std::current_exception();
        }
    }
};

}  // namespace

void read_csv_rows(const std::string& file, const std::vector<char>& bytes,
                   const std::function<void(std::span<const CsvField>, std::size_t)>& on_row) {
    csv_parser parser;
    if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI) != 0) throw std::bad_alloc();
    const std::unique_ptr<csv_parser, void (*)(csv_parser*)> guard(&parser, csv_free);
    RowCollector rows(on_row);

    std::size_t pos = 0;
    if (bytes.size() >= 3 && static_cast<unsigned char>(bytes[0]) == 0xEF &&
        static_cast<unsigned char>(bytes[1]) == 0xBB && static_cast<unsigned char>(bytes[2]) == 0xBF) {
        pos = 3;
    }
    // libcsv does not count lines, so it is fed one physical line at a time
    // (a quoted field may span several; libcsv keeps its state across calls).
    while (pos < bytes.size()) {
        std::size_t end = pos;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r') ++end;
        if (end < bytes.size()) {
            end += (bytes[end] == '\r' && end + 1 < bytes.size() && bytes[end + 1] == '\n') ? 2 : 1;
        }
        const std::size_t length = end - pos;
        const std::size_t used =
            csv_parse(&parser, bytes.data() + pos, length, RowCollector::on_field, RowCollector::on_end, &rows);
        if (rows.failure) std::rethrow_exception(rows.failure);
        if (used != length) {
            throw DataError(file, rows.line, rows.n_fields + 1, "bad-quoting",
                            "malformed quoting (a quote inside an unquoted field, or text after a closing quote)");
        }
        pos = end;
        ++rows.line;
    }
    --rows.line;  // the last line fed, for a final row without a line end
    if (csv_fini(&parser, RowCollector::on_field, RowCollector::on_end, &rows) != 0) {
        if (rows.failure) std::rethrow_exception(rows.failure);
        throw DataError(file, rows.last_row_end_line + 1, rows.n_fields + 1, "unterminated-quote",
                        "a quoted field is still open at the end of the file");
    }
    if (rows.failure) std::rethrow_exception(rows.failure);
}

std::vector<char> read_csv_file(const std::filesystem::path& file, const std::string& what) {
    std::error_code kind_error;
    if (std::filesystem::is_directory(file, kind_error)) {
        throw DataError(file.string(), 0, 0, "cannot-read", "is a directory, not a " + what);
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) throw DataError(file.string(), 0, 0, "cannot-read", "cannot open the " + what);
    std::vector<char> bytes;
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec) bytes.reserve(static_cast<std::size_t>(size));
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw DataError(file.string(), 0, 0, "cannot-read", "reading the " + what + " failed");
    return bytes;
}

}  // namespace btforge
