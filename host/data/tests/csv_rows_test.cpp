// Note [CSV rows]: a file read in pieces gives the rows of the same bytes in
// memory, whatever the pieces; a row without an end is refused after
// kMaxCsvRowBytes, not after the whole file.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "host/data/csv_rows.h"
#include "host/data/data_error.h"
#include "host/io/tests/temp_dir.h"
#include "host/io/sha256.h"

namespace btforge {
namespace {

// Every row as "line: field@line|field@line|...".
std::vector<std::string> rows_of(const std::function<void(const CsvRowCallback&)>& read) {
    std::vector<std::string> rows;
    read([&](std::span<const CsvField> fields, std::size_t line) {
        std::string row = std::to_string(line) + ":";
        for (const CsvField& f : fields) row += " " + f.text + "@" + std::to_string(f.line) + "|";
        rows.push_back(row);
    });
    return rows;
}

std::vector<std::string> rows_in_memory(const std::string& text) {
    const std::vector<char> bytes(text.begin(), text.end());
    return rows_of([&](const CsvRowCallback& on_row) { read_csv_rows("m.csv", bytes, on_row); });
}

std::vector<std::string> rows_in_pieces(const std::filesystem::path& file, std::size_t piece) {
    InputFile input = open_csv_file(file, "market file");
    return rows_of([&](const CsvRowCallback& on_row) { read_csv_rows("m.csv", input, on_row, nullptr, piece); });
}

std::string rule_of(const std::function<void()>& read, std::size_t* line = nullptr) {
    try {
        read();
    } catch (const DataError& e) {
        if (line != nullptr) *line = e.line();
        return e.rule();
    }
    return "<no error>";
}

TEST_CASE("a file read in pieces of any size gives the rows of its bytes in memory") {
    testing::TempDir dir;
    const std::string texts[] = {
        "\xEF\xBB\xBFh1,h2\r\n1,\"two\r\nlines\"\r\n\r\n3,\"q\"\"uote\"\r\n",
        "h1,h2\r1,2\r\r3,\"a\rb\"\r4,5",  // CR only, no line end at the end
        "h1,h2\n1,2\n\n\n3,4\n",
        "\xEF\xBB",  // a BOM's start only
        "\xEF\xBB\xBF",
        "a",
        "",
    };
    for (const std::string& text : texts) {
        CAPTURE(text);
        const auto file = dir.write("m.csv", text);
        const std::vector<std::string> expected = rows_in_memory(text);
        for (std::size_t piece : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{64}}) {
            CAPTURE(piece);
            CHECK(rows_in_pieces(file, piece) == expected);
        }
    }
    // The line numbers themselves: the row of the two-line field starts on
    // line 2 (the field is complete on line 3), the row after the blank line
    // is on line 5.
    CHECK(rows_in_memory(texts[0]) ==
          std::vector<std::string>{"1: h1@1| h2@1|", "2: 1@2| two\r\nlines@3|", "5: 3@5| q\"uote@5|"});
}

TEST_CASE("the digest of read_csv_rows is of every byte read, the BOM included") {
    testing::TempDir dir;
    const std::string text = "\xEF\xBB\xBFtimestamp,x\n1,2\n";
    InputFile input = open_csv_file(dir.write("m.csv", text), "market file");
    Sha256 digest;
    read_csv_rows("m.csv", input, [](std::span<const CsvField>, std::size_t) {}, &digest, 3);
    CHECK(digest.hex() == sha256_hex(text));
}

TEST_CASE("a row without an end is refused once it passes kMaxCsvRowBytes, at the line it starts on") {
    testing::TempDir dir;
    std::size_t line = 0;
    // NUL bytes, no line end: refused after the limit, not at the end.
    const auto nul = dir.write("nul.csv", std::string(kMaxCsvRowBytes + 1, '\0'));
    CHECK(rule_of([&] { (void)rows_in_pieces(nul, 4096); }, &line) == "row-too-long");
    CHECK(line == 1);
    CHECK(rule_of([&] { (void)rows_in_memory(std::string(kMaxCsvRowBytes + 1, '\0')); }) == "row-too-long");
    // A quote never closed, its row starting on line 3, its lines short.
    std::string open_quote = "a,b\n1,2\n3,\"";
    while (open_quote.size() < kMaxCsvRowBytes + 100) open_quote += "line\n";
    CHECK(rule_of([&] { (void)rows_in_pieces(dir.write("quote.csv", open_quote), 1000); }, &line) == "row-too-long");
    CHECK(line == 3);
    // A row of exactly the limit is read; many short rows and blank lines add up to nothing.
    const std::string longest = "a\n" + std::string(kMaxCsvRowBytes - 1, 'x') + "\n";
    CHECK(rows_in_memory(longest).size() == 2);
    std::string many = "a,b\n";
    while (many.size() < 2 * kMaxCsvRowBytes) many += "1,2\n\n\n";
    CHECK(rule_of([&] { (void)rows_in_pieces(dir.write("many.csv", many), 4096); }) == "<no error>");
}

TEST_CASE("a directory or a device is no CSV file") {
    testing::TempDir dir;
    for (const std::filesystem::path& file : {dir.path(), std::filesystem::path("/dev/zero")}) {
        CAPTURE(file);
        try {
            (void)open_csv_file(file, "market file");
            FAIL("opened");
        } catch (const DataError& e) {
            CHECK(e.rule() == "not-a-regular-file");
            CHECK(e.file() == file.string());
        }
    }
}

}  // namespace
}  // namespace btforge
