// Fuzz target: `btforge data import` (host/data/market_import.h, Note
// [Market import]) in each of its formats. An input is what a user hands
// the command, as text: its first line the format and options, then the
// files, each after a line naming it, as `head` shows several files:
//   binance-klines bar=1h offset=30m symbol=BTCUSDT unit=ms columns=timestamp=date
//   ==> BTCUSDT-1h-2024-01.csv <==
//   1704067200000,42000,42100,41900,42050,12.5,1704070799999,0,0,0,0,0
//   ==> BTCUSDT-1h-2024-02.csv <==
//   ...
// The format is binance-klines, binance-funding or csv; the options are
// those of the command line, each optional. Files are written under their
// names (a file's symbol comes from its name; '/' becomes '_') into a
// directory of this process, at most kMaxFiles; bytes before the first
// `==>` line are a file named BTCUSDT-1h-2024-01.csv.
// Any input may be refused: a DataError, or std::invalid_argument for
// options that do not fit the files, as the command refuses them. Anything
// else escaping, a crash, a leak or undefined behaviour is a bug, and so is
// an output that its own reader refuses: what the import writes is read
// back, bars through the long CSV loader and funding through the funding
// file loader, and only the limits of a whole market that an import does
// not know (too-many-symbols, too-large) may refuse it there.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "host/data/csv_market_loader.h"
#include "host/data/csv_market_writer.h"
#include "host/data/data_error.h"
#include "host/data/funding_history.h"
#include "host/data/market_import.h"

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxFiles = 8;
constexpr std::size_t kMaxNameBytes = 100;
constexpr std::string_view kFileMarker = "==> ";
constexpr std::string_view kFileMarkerEnd = " <==";

struct Input {
    btforge::ImportOptions options;
    std::vector<std::pair<std::string, std::string>> files;  // name, bytes
};

// A directory of this process, removed when it exits.
class WorkDirectory {
public:
    WorkDirectory() {
        std::string pattern = (fs::temp_directory_path() / "btforge-fuzz-import-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) {
            std::perror("mkdtemp");
            std::abort();
        }
        path_ = pattern;
    }
    WorkDirectory(const WorkDirectory&) = delete;
    WorkDirectory& operator=(const WorkDirectory&) = delete;
    ~WorkDirectory() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

std::string file_name(std::string_view text) {
    std::string name(text.substr(0, kMaxNameBytes));
    for (char& c : name) {
        if (c == '/' || c == '\0') c = '_';
    }
    if (name.empty() || name == "." || name == "..") name = "_";
    return name;
}

// The first line's options, as `data import` parses them; nullopt where the
// command line would be refused before any file is read.
std::optional<btforge::ImportOptions> parse_options(std::string_view line) {
    btforge::ImportOptions options;
    std::vector<std::string_view> words;
    for (std::size_t from = 0; from < line.size();) {
        const std::size_t space = std::min(line.find(' ', from), line.size());
        if (space > from) words.push_back(line.substr(from, space - from));
        from = space + 1;
    }
    if (words.empty()) return std::nullopt;
    const auto format = btforge::parse_import_format(words.front());
    if (!format) return std::nullopt;
    options.format = *format;
    for (std::size_t w = 1; w < words.size(); ++w) {
        const std::size_t eq = words[w].find('=');
        if (eq == std::string_view::npos) return std::nullopt;
        const std::string_view key = words[w].substr(0, eq);
        const std::string_view value = words[w].substr(eq + 1);
        if (key == "bar" || key == "offset") {
            const auto length = btforge::parse_bar_length(value);
            if (!length) return std::nullopt;
            (key == "bar" ? options.bar_ms : options.bar_offset_ms) = *length;
        } else if (key == "symbol") {
            options.symbol = std::string(value);
        } else if (key == "unit") {
            options.timestamp_unit = btforge::parse_epoch_unit(value);
            if (!options.timestamp_unit) return std::nullopt;
        } else if (key == "columns") {
            try {
                options.columns = btforge::parse_column_mapping(value);
            } catch (const std::invalid_argument&) {
                return std::nullopt;
            }
        } else {
            return std::nullopt;
        }
    }
    // data_command.cpp's own checks of the options.
    const bool bars = options.format != btforge::ImportFormat::BinanceFunding;
    if ((!bars && options.bar_ms != 0) || (options.bar_offset_ms != 0 && options.bar_offset_ms >= options.bar_ms) ||
        (!options.columns.empty() && options.format != btforge::ImportFormat::MappedCsv)) {
        return std::nullopt;
    }
    return options;
}

std::optional<Input> parse_input(std::string_view text) {
    const std::size_t end_of_line = std::min(text.find('\n'), text.size());
    const auto options = parse_options(text.substr(0, end_of_line));
    if (!options) return std::nullopt;
    Input input{*options, {}};
    std::string_view rest = end_of_line < text.size() ? text.substr(end_of_line + 1) : std::string_view();
    std::string name = "BTCUSDT-1h-2024-01.csv";
    std::string bytes;
    bool any = false;
    const auto flush = [&] {
        if (any || !bytes.empty()) input.files.emplace_back(name, bytes);
    };
    while (!rest.empty()) {
        const std::size_t eol = rest.find('\n');
        const std::string_view line = rest.substr(0, eol == std::string_view::npos ? rest.size() : eol + 1);
        rest.remove_prefix(line.size());
        std::string_view bare = line;
        if (!bare.empty() && bare.back() == '\n') bare.remove_suffix(1);
        if (bare.size() >= kFileMarker.size() + kFileMarkerEnd.size() && bare.starts_with(kFileMarker) &&
            bare.ends_with(kFileMarkerEnd)) {
            flush();
            if (input.files.size() == kMaxFiles) break;
            name = file_name(bare.substr(kFileMarker.size(), bare.size() - kFileMarker.size() - kFileMarkerEnd.size()));
            bytes.clear();
            any = true;
            continue;
        }
        bytes.append(line);
    }
    if (input.files.size() < kMaxFiles) flush();
    if (input.files.empty()) return std::nullopt;
    return input;
}

[[noreturn]] void refused_own_output(const std::string& what, const btforge::DataError& e) {
    std::fprintf(stderr, "the import's %s was refused by its reader: %s\n", what.c_str(), e.what());
    std::abort();
}

void read_back(const btforge::FundingHistory& history, const fs::path& directory) {
    const fs::path written = directory / ".import-output";
    {
        std::ofstream out(written, std::ios::binary | std::ios::trunc);
        btforge::write_funding_csv(history, out, btforge::TimestampFormat::EpochMs);
    }
    try {
        (void)btforge::load_funding_history(written, btforge::EpochUnit::Milliseconds);
    } catch (const btforge::DataError& e) {
        refused_own_output("funding file", e);
    }
}

void read_back(const btforge::ImportedBars& imported) {
    std::ostringstream out;
    btforge::write_bars_csv(imported.symbols, out, btforge::TimestampFormat::EpochMs);
    const std::string text = out.str();
    btforge::MarketLoadOptions load;
    load.timestamp_unit = btforge::EpochUnit::Milliseconds;
    try {
        (void)btforge::load_market_csv_text("import-output.csv", std::vector<char>(text.begin(), text.end()), load);
    } catch (const btforge::DataError& e) {
        if (e.rule() != "too-many-symbols" && e.rule() != "too-large") refused_own_output("market", e);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const WorkDirectory directory;
    const auto input = parse_input(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!input) return 0;
    std::error_code ignored;
    for (const auto& entry : fs::directory_iterator(directory.path())) fs::remove(entry.path(), ignored);
    std::vector<fs::path> paths;
    for (const auto& [name, bytes] : input->files) {
        paths.push_back(directory.path() / name);
        std::ofstream(paths.back(), std::ios::binary | std::ios::trunc) << bytes;
    }
    std::optional<btforge::FundingHistory> history;
    std::optional<btforge::ImportedBars> imported;
    try {
        if (input->options.format == btforge::ImportFormat::BinanceFunding) {
            history = btforge::import_funding(paths, input->options);
        } else {
            imported = btforge::import_bars(paths, input->options);
        }
    } catch (const btforge::DataError&) {
        return 0;
    } catch (const std::invalid_argument&) {
        return 0;  // options that do not fit the files
    }
    if (history) read_back(*history, directory.path());
    if (imported) read_back(*imported);
    return 0;
}
