#include "host/report/results_head.h"

#include <stdexcept>

#include "host/io/input_file.h"
#include "host/json/checked_json.h"

namespace btforge {

namespace {

// Finds, in a prefix of a JSON document, the top-level key "rows" and the
// end of the first element of its array (Note [Reading a result JSON's
// head]). Fed the text in pieces; keeps only its position.
class HeadScanner {
public:
    // Scans text[from, text.size()). Returns true once the first row ended
    // (or the array turned out empty).
    bool scan(std::string_view text) {
        for (std::size_t i = position_; i < text.size(); ++i) {
            const char c = text[i];
            if (in_string_) {
                if (escaped_) {
                    escaped_ = false;
                } else if (c == '\\') {
                    escaped_ = true;
                } else if (c == '"') {
                    in_string_ = false;
                    if (depth_ == 1) last_string_ = text.substr(string_start_ + 1, i - string_start_ - 1) == "rows"
                                                        ? Candidate::rows
                                                        : Candidate::other;
                }
                continue;
            }
            switch (c) {
                case '"':
                    in_string_ = true;
                    string_start_ = i;
                    if (depth_ == 1) key_start_ = i;
                    break;
                case ':':
                    if (depth_ == 1 && last_string_ == Candidate::rows && !rows_key_) {
                        rows_key_ = key_start_;
                        awaiting_array_ = true;
                    }
                    last_string_ = Candidate::none;
                    break;
                case '[':
                case '{':
                    ++depth_;
                    if (awaiting_array_ && depth_ == 2) {
                        awaiting_array_ = false;
                        if (c != '[') throw std::runtime_error("its \"rows\" is not a list");
                    } else if (rows_key_ && depth_ == 3 && !first_row_begin_) {
                        first_row_begin_ = i;
                    }
                    break;
                case ']':
                case '}':
                    if (depth_ == 0) throw std::runtime_error("a bracket closes what was never opened");
                    --depth_;
                    if (rows_key_ && !awaiting_array_ && depth_ == 2 && first_row_begin_ && !first_row_end_) {
                        first_row_end_ = i + 1;
                        position_ = i + 1;
                        return true;
                    }
                    if (rows_key_ && !awaiting_array_ && depth_ == 1 && !first_row_begin_) {
                        position_ = i + 1;
                        return true;  // "rows": []
                    }
                    break;
                case ' ':
                case '\n':
                case '\r':
                case '\t':
                    break;
                default:
                    if (depth_ == 1) last_string_ = Candidate::none;  // a value, not a key
                    break;
            }
        }
        position_ = text.size();
        return false;
    }

    std::optional<std::size_t> rows_key() const { return rows_key_; }
    std::optional<std::size_t> first_row_begin() const { return first_row_begin_; }
    std::optional<std::size_t> first_row_end() const { return first_row_end_; }

private:
    enum class Candidate { none, rows, other };
    std::size_t position_ = 0;
    int depth_ = 0;
    bool in_string_ = false;
    bool escaped_ = false;
    std::size_t string_start_ = 0;
    std::size_t key_start_ = 0;
    Candidate last_string_ = Candidate::none;
    bool awaiting_array_ = false;
    std::optional<std::size_t> rows_key_;
    std::optional<std::size_t> first_row_begin_;
    std::optional<std::size_t> first_row_end_;
};

ResultsHead parse_head(std::string_view text, const HeadScanner& scanner, const std::string& origin) {
    // The head: the document up to "rows", its trailing comma dropped, closed.
    std::string head(text.substr(0, *scanner.rows_key()));
    while (!head.empty() && (head.back() == ' ' || head.back() == '\n' || head.back() == '\r' || head.back() == '\t'))
        head.pop_back();
    if (!head.empty() && head.back() == ',') head.pop_back();
    head += "}";
    ResultsHead result;
    result.head = parse_checked_json(head, origin);
    if (!result.head.is_object()) throw std::runtime_error(origin + ": not a result JSON of btforge sweep");
    if (scanner.first_row_begin()) {
        const std::string_view row =
            text.substr(*scanner.first_row_begin(), *scanner.first_row_end() - *scanner.first_row_begin());
        const nlohmann::json first = parse_checked_json(row, origin + " (its first row)");
        if (!first.is_object() || !first.contains("combination_id") || !first["combination_id"].is_number_unsigned()) {
            throw std::runtime_error(origin + ": its first row has no combination_id");
        }
        result.best_combination_id = first["combination_id"].get<std::uint64_t>();
    }
    return result;
}

[[noreturn]] void no_rows(const std::string& origin) {
    throw std::runtime_error(origin + ": not a result JSON of btforge sweep (no \"rows\" list)");
}

}  // namespace

ResultsHead results_head_of_text(std::string_view text, const std::string& origin) {
    if (text.size() > kMaxJsonDocumentBytes) text = text.substr(0, kMaxJsonDocumentBytes);
    HeadScanner scanner;
    try {
        if (!scanner.scan(text)) no_rows(origin);
    } catch (const std::runtime_error& e) {
        if (std::string(e.what()).rfind(origin, 0) == 0) throw;
        throw std::runtime_error(origin + ": not a result JSON of btforge sweep (" + e.what() + ")");
    }
    return parse_head(text, scanner, origin);
}

ResultsHead read_results_head(const std::filesystem::path& file, const std::string& origin) {
    std::string text;
    HeadScanner scanner;
    try {
        InputFile in(file, "result JSON", InputStreaming::allowed);
        char buffer[1 << 16];
        for (;;) {
            const std::size_t got = in.read_some(buffer, sizeof buffer);
            if (got == 0) no_rows(origin);
            text.append(buffer, got);
            if (scanner.scan(text)) break;
            if (text.size() > kMaxJsonDocumentBytes) {
                throw JsonInputError(origin, 0, 0, "", "too-large",
                                     "expected the head and first row of a result JSON within 64 MiB");
            }
        }
    } catch (const InputFileError& e) {
        throw JsonInputError(origin, 0, 0, "", e.rule(), e.message());
    } catch (const JsonInputError&) {
        throw;
    } catch (const std::runtime_error& e) {
        if (std::string(e.what()).rfind(origin, 0) == 0) throw;
        throw std::runtime_error(origin + ": not a result JSON of btforge sweep (" + e.what() + ")");
    }
    return parse_head(text, scanner, origin);
}

}  // namespace btforge
