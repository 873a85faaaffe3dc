#include "host/data/csv_rows.h"

#include <algorithm>
#include <exception>
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
    explicit RowCollector(const CsvRowCallback& callback) : on_row(&callback) {}
    const CsvRowCallback* on_row;
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

bool is_line_end(char c) { return c == '\n' || c == '\r'; }

// Cuts bytes given in pieces of any size into physical lines for libcsv
// (Note [CSV rows]): a line that crosses the end of a piece waits in
// `carry_` for the rest, and a CR at the end of a piece waits for the next
// byte, which is its LF or the start of the next line.
class CsvLineFeeder {
public:
    CsvLineFeeder(const std::string& file, const CsvRowCallback& on_row) : file_(file), rows_(on_row) {
        if (csv_init(&parser_, CSV_STRICT | CSV_STRICT_FINI) != 0) throw std::bad_alloc();
    }
    CsvLineFeeder(const CsvLineFeeder&) = delete;
    CsvLineFeeder& operator=(const CsvLineFeeder&) = delete;
    ~CsvLineFeeder() { csv_free(&parser_); }

    void feed(const char* data, std::size_t size) {
        if (!started_) {
            // The first three bytes may be a UTF-8 BOM, whatever the pieces.
            const std::size_t take = std::min(size, 3 - carry_.size());
            carry_.append(data, take);
            data += take;
            size -= take;
            if (carry_.size() < 3) return;
            start();
        }
        cut(data, size);
    }

    void finish() {
        if (!started_) start();
        if (!carry_.empty()) flush_carry();
        --rows_.line;  // the last line fed, for a final row without a line end
        if (csv_fini(&parser_, RowCollector::on_field, RowCollector::on_end, &rows_) != 0) {
            if (rows_.failure) std::rethrow_exception(rows_.failure);
            throw DataError(file_, rows_.last_row_end_line + 1, rows_.n_fields + 1, "unterminated-quote",
                            "a quoted field is still open at the end of the file");
        }
        if (rows_.failure) std::rethrow_exception(rows_.failure);
    }

private:
    void start() {
        started_ = true;
        std::string head;
        head.swap(carry_);
        const bool bom = head.size() == 3 && static_cast<unsigned char>(head[0]) == 0xEF &&
                         static_cast<unsigned char>(head[1]) == 0xBB && static_cast<unsigned char>(head[2]) == 0xBF;
        if (!bom) cut(head.data(), head.size());
    }

    void cut(const char* data, std::size_t size) {
        std::size_t pos = 0;
        while (pos < size) {
            if (!carry_.empty() && carry_.back() == '\r') {
                // A CR ended the carried line; an LF right after it is part of that line end.
                if (data[pos] == '\n') {
                    carry_ += '\n';
                    ++pos;
                }
                flush_carry();
                continue;
            }
            const char* start = data + pos;
            const char* end = std::find_if(start, data + size, is_line_end);
            std::size_t length = static_cast<std::size_t>(end - start);
            if (end == data + size) {
                carry(start, length);
                return;
            }
            if (*end == '\r' && end + 1 == data + size) {
                carry(start, length + 1);  // its LF may start the next piece
                return;
            }
            length += (*end == '\r' && end[1] == '\n') ? 2 : 1;
            if (carry_.empty()) {
                line(start, length);
            } else {
                carry(start, length);
                flush_carry();
            }
            pos += length;
        }
    }

    void carry(const char* data, std::size_t length) {
        check_row_length(carry_.size() + length);
        carry_.append(data, length);
    }

    void flush_carry() {
        line(carry_.data(), carry_.size());
        carry_.clear();
    }

    // Note [CSV rows]: a row longer than kMaxCsvRowBytes is refused before
    // more of it is read.
    void check_row_length(std::size_t line_bytes) const {
        if (row_bytes_ + line_bytes <= kMaxCsvRowBytes) return;
        throw DataError(file_, row_start_line_, 0, "row-too-long",
                        "the row starting on this line runs past " + byte_limit_text(kMaxCsvRowBytes) +
                            " without ending: this is not CSV text (binary data, NUL bytes?) or a quote is never "
                            "closed; rows hold at most that much");
    }

    // One physical line with its line end (none for the last line of a file).
    void line(const char* data, std::size_t length) {
        check_row_length(length);
        const std::size_t used =
            csv_parse(&parser_, data, length, RowCollector::on_field, RowCollector::on_end, &rows_);
        if (rows_.failure) std::rethrow_exception(rows_.failure);
        if (used != length) {
            throw DataError(file_, rows_.line, rows_.n_fields + 1, "bad-quoting",
                            "malformed quoting (a quote inside an unquoted field, or text after a closing quote)");
        }
        // Strict quoting (libcsv has checked it) makes the number of quotes
        // read odd exactly while a quoted field is open: then the row goes on
        // on the next line, and its length adds up.
        if (std::count(data, data + length, '"') % 2 != 0) in_quotes_ = !in_quotes_;
        ++rows_.line;
        if (in_quotes_) {
            row_bytes_ += length;
        } else {
            row_bytes_ = 0;
            row_start_line_ = rows_.line;
        }
    }

    const std::string& file_;
    csv_parser parser_{};
    RowCollector rows_;
    bool started_ = false;
    std::string carry_;
    bool in_quotes_ = false;
    std::size_t row_bytes_ = 0;        // of the lines before this one that belong to the same row
    std::size_t row_start_line_ = 1;
};

}  // namespace

void read_csv_rows(const std::string& file, const std::vector<char>& bytes, const CsvRowCallback& on_row) {
    CsvLineFeeder feeder(file, on_row);
    feeder.feed(bytes.data(), bytes.size());
    feeder.finish();
}

void read_csv_rows(const std::string& file, InputFile& input, const CsvRowCallback& on_row, Sha256* digest,
                   std::size_t piece_bytes) {
    CsvLineFeeder feeder(file, on_row);
    std::vector<char> piece(std::max<std::size_t>(piece_bytes, 1));
    for (;;) {
        std::size_t got = 0;
        try {
            got = input.read_some(piece.data(), piece.size());
        } catch (const InputFileError& e) {
            throw DataError(file, 0, 0, e.rule(), e.message());
        }
        if (got == 0) break;
        if (digest != nullptr) digest->update(piece.data(), got);
        feeder.feed(piece.data(), got);
    }
    feeder.finish();
}

InputFile open_csv_file(const std::filesystem::path& file, const std::string& what) {
    try {
        return InputFile(file, what, InputStreaming::allowed);
    } catch (const InputFileError& e) {
        throw DataError(file.string(), 0, 0, e.rule(), e.message());
    }
}

}  // namespace btforge
