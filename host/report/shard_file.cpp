#include "host/report/shard_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/data/data_error.h"
#include "host/io/input_file.h"
#include "host/io/printable_text.h"
#include "host/io/sha256.h"
#include "host/json/checked_json.h"
#include "host/spec/account_settings.h"
#include "host/validation/return_streams.h"
#include "host/validation/stationary_bootstrap.h"

namespace btforge {

namespace {

using nlohmann::json;

constexpr char kMagic[8] = {'B', 'T', 'F', 'S', 'H', 'A', 'R', 'D'};
constexpr std::size_t kDigestBytes = 32;
// A run's combinations never exceed 2^63 (CombinationSpace).
constexpr std::uint64_t kMaxCombinations = std::uint64_t{1} << 63;

// Note [Bytes of a file in a message]
std::string printable(std::string_view text, std::size_t limit = 80) { return printable_text(text, limit); }

// A JSON value for a message: its kind, or a short escaped text of a scalar.
std::string describe_value(const json& value) {
    switch (value.type()) {
        case json::value_t::object: return "an object";
        case json::value_t::array: return "an array";
        case json::value_t::null: return "null";
        default: return printable(value.dump(-1, ' ', true, json::error_handler_t::replace), 40);
    }
}

std::string hex_of(const unsigned char* digest) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < kDigestBytes; ++i) {
        out += kHex[digest[i] >> 4];
        out += kHex[digest[i] & 0xf];
    }
    return out;
}

std::string raw_digest(const std::string& hex) {
    std::string out(kDigestBytes, '\0');
    const auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
    for (std::size_t i = 0; i < kDigestBytes; ++i) {
        out[i] = static_cast<char>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    }
    return out;
}

template <typename T>
void put(std::ostream& out, const T& value) {
    out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

// A section's digest after its bytes.
void put_digest(std::ostream& out, const Sha256& digest) {
    const std::string raw = raw_digest(digest.hex());
    out.write(raw.data(), static_cast<std::streamsize>(raw.size()));
}

void write_section(std::ostream& out, const void* data, std::uint64_t bytes) {
    Sha256 digest;
    digest.update(data, static_cast<std::size_t>(bytes));
    put(out, bytes);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    put_digest(out, digest);
}

// Note [What a shard's periods carry]: the periods section goes through
// memory this many records (1 MiB) at a time, written and read.
constexpr std::size_t kPeriodPiece = 16384;

// The bytes of a shard in order, from a file or a message, counted against
// the size known before the first read (Note [Shard files]).
class ShardInput {
public:
    ShardInput(std::string name, std::uint64_t size) : name_(std::move(name)), remaining_(size) {}
    virtual ~ShardInput() = default;

    const std::string& name() const { return name_; }
    std::uint64_t remaining() const { return remaining_; }
    DataError error(const std::string& rule, const std::string& message) const {
        return DataError(name_, 0, 0, rule, message);
    }

    // `bytes` of `part`, refused as truncated when fewer remain.
    void read(void* data, std::uint64_t bytes, const std::string& part) {
        if (bytes > remaining_) {
            throw error("truncated-shard", "the file ends inside " + part + " (" + std::to_string(bytes) +
                                               " bytes expected, " + std::to_string(remaining_) + " left)");
        }
        read_bytes(static_cast<char*>(data), static_cast<std::size_t>(bytes), part);
        remaining_ -= bytes;
    }
    template <typename T>
    T number(const std::string& part) {
        T value{};
        read(&value, sizeof value, part);
        return value;
    }
    // Refuses what follows the last section.
    virtual void check_end() = 0;

protected:
    virtual void read_bytes(char* data, std::size_t bytes, const std::string& part) = 0;

private:
    std::string name_;
    std::uint64_t remaining_;
};

class FileShardInput : public ShardInput {
public:
    FileShardInput(const std::filesystem::path& file, InputFile& in) : ShardInput(file.string(), in.size()), in_(in) {}

    void check_end() override {
        char extra = 0;
        if (remaining() != 0 || in_.read_some(&extra, 1) != 0) {
            throw error("trailing-bytes",
                        "the file goes on after its last section (marks): it is not one shard file");
        }
    }

protected:
    void read_bytes(char* data, std::size_t bytes, const std::string& part) override {
        in_.read_exact(data, bytes, part);  // a file that shrinks while read ends inside `part`
    }

private:
    InputFile& in_;
};

class BytesShardInput : public ShardInput {
public:
    BytesShardInput(const std::string& name, std::string_view bytes) : ShardInput(name, bytes.size()), bytes_(bytes) {}

    void check_end() override {
        if (remaining() != 0) {
            throw error("trailing-bytes", "the message goes on after its last section (marks): it is not one shard");
        }
    }

protected:
    void read_bytes(char* data, std::size_t bytes, const std::string&) override {
        if (bytes == 0) return;  // `data` of an empty section may be null
        std::memcpy(data, bytes_.data() + at_, bytes);
        at_ += bytes;
    }

private:
    std::string_view bytes_;
    std::size_t at_ = 0;
};

// A section's length, checked against what remains before anything is
// allocated for it: the section and its digest must fit.
std::uint64_t section_length(ShardInput& in, const std::string& section) {
    const auto length = in.number<std::uint64_t>("the length of its " + section + " section");
    if (in.remaining() < kDigestBytes || length > in.remaining() - kDigestBytes) {
        throw in.error("truncated-shard", "its " + section + " section says " + std::to_string(length) +
                                              " bytes; the file has " + std::to_string(in.remaining()) +
                                              " left for it and its SHA-256");
    }
    return length;
}

// The stored digest that follows a section's bytes, against `digest` of
// the bytes read.
void check_section_digest(ShardInput& in, const std::string& section, const Sha256& digest) {
    unsigned char stored[kDigestBytes];
    in.read(stored, kDigestBytes, "the SHA-256 of its " + section + " section");
    if (digest.hex() != hex_of(stored)) {
        throw in.error("shard-checksum", "its " + section + " section does not match its SHA-256: it was changed " +
                                             "after btforge wrote it (a flipped bit, an edited value, a cut); run " +
                                             "the shard again");
    }
}

// The section's bytes (length already checked) into `data`, and its digest.
void read_section(ShardInput& in, const std::string& section, void* data, std::uint64_t length) {
    in.read(data, length, "its " + section + " section");
    Sha256 digest;
    digest.update(data, static_cast<std::size_t>(length));
    check_section_digest(in, section, digest);
}

// Note [What a shard's periods carry]: the periods section (length already
// checked) read in pieces, its digest over the bytes as they come, each
// record widened into `periods`; never the whole section twice in memory.
void read_periods_section(ShardInput& in, std::uint64_t length, std::vector<PeriodStatistics>& periods) {
    const auto count = static_cast<std::size_t>(length / sizeof(ShardPeriod));
    periods.clear();
    periods.reserve(count);
    std::vector<ShardPeriod> piece(std::min(count, kPeriodPiece));
    Sha256 digest;
    for (std::size_t done = 0; done < count;) {
        const std::size_t n = std::min(kPeriodPiece, count - done);
        in.read(piece.data(), n * sizeof(ShardPeriod), "its periods section");
        digest.update(piece.data(), n * sizeof(ShardPeriod));
        for (std::size_t i = 0; i < n; ++i) periods.push_back(period_from_shard(piece[i]));
        done += n;
    }
    check_section_digest(in, "periods", digest);
}

// The fields of a shard header (Note [Shard files]): each one read is there
// and of its type, or the header is refused at its JSON pointer.
class HeaderFields {
public:
    explicit HeaderFields(const ShardInput& in) : in_(in) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& expected, const std::string& got) const {
        throw in_.error("bad-shard-header",
                        "its header's " + printable(pointer.empty() ? "/" : pointer) + ": expected " + expected +
                            ", got " + got);
    }
    [[noreturn]] void inconsistent(const std::string& message) const { throw in_.error("inconsistent-shard", message); }

    const json& member(const json& object, const std::string& pointer, const char* key) const {
        const auto it = object.find(key);
        if (it == object.end()) fail(pointer, std::string("a member \"") + key + "\"", "none");
        return *it;
    }
    const json& object(const json& parent, const std::string& pointer, const char* key) const {
        const json& value = member(parent, pointer, key);
        if (!value.is_object()) fail(json_pointer_child(pointer, key), "an object", describe_value(value));
        return value;
    }
    std::string text(const json& parent, const std::string& pointer, const char* key) const {
        const json& value = member(parent, pointer, key);
        if (!value.is_string()) fail(json_pointer_child(pointer, key), "a string", describe_value(value));
        return value.get<std::string>();
    }
    bool flag(const json& parent, const std::string& pointer, const char* key) const {
        const json& value = member(parent, pointer, key);
        if (!value.is_boolean()) fail(json_pointer_child(pointer, key), "true or false", describe_value(value));
        return value.get<bool>();
    }
    std::uint64_t count(const json& parent, const std::string& pointer, const char* key,
                        std::uint64_t most = ~std::uint64_t{0}) const {
        const json& value = member(parent, pointer, key);
        if (!value.is_number_unsigned() || value.get<std::uint64_t>() > most) {
            fail(json_pointer_child(pointer, key),
                 "a whole number in 0.." + std::to_string(most), describe_value(value));
        }
        return value.get<std::uint64_t>();
    }
    long long integer(const json& parent, const std::string& pointer, const char* key, long long least,
                      long long most) const {
        const json& value = member(parent, pointer, key);
        const bool whole = value.is_number_integer();
        if (!whole || (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(most)) ||
            value.get<long long>() < least || value.get<long long>() > most) {
            fail(json_pointer_child(pointer, key),
                 "a whole number in " + std::to_string(least) + ".." + std::to_string(most), describe_value(value));
        }
        return value.get<long long>();
    }
    double number(const json& parent, const std::string& pointer, const char* key) const {
        const json& value = member(parent, pointer, key);
        if (!value.is_number()) fail(json_pointer_child(pointer, key), "a number", describe_value(value));
        return value.get<double>();
    }
    std::string digest(const json& parent, const std::string& pointer, const char* key) const {
        const std::string value = text(parent, pointer, key);
        if (value.size() != 2 * kDigestBytes ||
            value.find_first_not_of("0123456789abcdef") != std::string::npos) {
            fail(json_pointer_child(pointer, key), "a SHA-256 in lower-case hex", describe_value(json(value)));
        }
        return value;
    }

    // Every key and string of `value` is text without control characters:
    // they are printed in messages and result files.
    void check_strings(const json& value, const std::string& pointer) const {
        const auto control = [](const std::string& text) {
            for (std::size_t i = 0; i < text.size(); ++i) {
                const auto byte = static_cast<unsigned char>(text[i]);
                if (byte < 0x20 || byte == 0x7f) return true;
                // U+0080..U+009F, the C1 controls, are 0xC2 0x80..0x9F in UTF-8.
                if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xa0) return true;
            }
            return false;
        };
        if (value.is_string() && control(value.get_ref<const std::string&>())) {
            fail(pointer, "text without control characters", describe_value(value));
        }
        if (value.is_array()) {
            for (std::size_t i = 0; i < value.size(); ++i) check_strings(value[i], json_pointer_child(pointer, i));
        }
        if (value.is_object()) {
            for (const auto& [key, member] : value.items()) {
                if (control(key)) fail(json_pointer_child(pointer, key), "a key without control characters", "this one");
                check_strings(member, json_pointer_child(pointer, key));
            }
        }
    }

private:
    const ShardInput& in_;
};

// The byte length a section must have, and why, for a message.
struct ExpectedSection {
    std::uint64_t length = 0;
    std::string why;  // "its 3 combinations of 2 periods make 6"
};

struct ExpectedSections {
    // The rows' is their most: the top outcomes may be fewer than --top
    // (Note [Distinct outcomes]); check_kept_rows checks their count.
    ExpectedSection rows;
    ExpectedSection periods;
    ExpectedSection outcomes;
    ExpectedSection marks;
};

// Reads the header into `shard` (every field merge uses, typed) and returns
// what its sections must hold.
// The parts of a run's return streams: its UTC days when daily (Note
// [Equity marks at UTC days]), else --returns M or its default.
int return_parts_of(const ShardRun& run) {
    return run.return_days > 0 ? run.return_days : return_stream_parts(run.returns, run.bars);
}

ExpectedSections read_header(const ShardInput& in, const std::string& text, ShardFile& shard) {
    json doc;
    try {
        doc = parse_checked_json(text, in.name());
    } catch (const JsonInputError& e) {
        std::string where = "its header";
        if (e.line() > 0) where += " (line " + std::to_string(e.line()) + ", column " + std::to_string(e.column()) + ")";
        if (!e.json_pointer().empty()) where += "'s " + printable(e.json_pointer());
        throw in.error(e.rule(), where + ": " + printable(e.message(), 200));
    }
    const HeaderFields f(in);
    if (!doc.is_object()) f.fail("", "an object", describe_value(doc));
    f.check_strings(doc, "");
    if (f.text(doc, "", "format") != "btforge shard") f.fail("/format", "\"btforge shard\"", describe_value(doc["format"]));
    const std::uint64_t row_bytes = f.count(doc, "", "row_bytes");
    const std::uint64_t period_bytes = f.count(doc, "", "period_bytes");
    if (row_bytes != sizeof(ResultRow) || period_bytes != sizeof(ShardPeriod)) {
        throw in.error("shard-layout", "written by a build whose rows or period statistics have another size (rows " +
                                           std::to_string(row_bytes) + " bytes, here " +
                                           std::to_string(sizeof(ResultRow)) + "; period statistics " +
                                           std::to_string(period_bytes) + " bytes, here " +
                                           std::to_string(sizeof(ShardPeriod)) + ")");
    }

    // The identity (Note [Shards]): kept whole for comparing, read typed.
    const json& id = f.object(doc, "", "identity");
    shard.identity = id;
    ShardRun& run = shard.run;
    run.spec_sha256 = f.digest(id, "/identity", "spec_sha256");
    run.grid_sha256 = f.digest(id, "/identity", "grid_sha256");
    run.combinations = f.count(id, "/identity", "combinations", kMaxCombinations);
    const json& window = f.object(id, "/identity", "window");
    run.first_bar = static_cast<int>(f.integer(window, "/identity/window", "first_bar", 0, INT32_MAX));
    run.bars = static_cast<int>(f.integer(window, "/identity/window", "bars", 1, INT32_MAX));
    const json& account = f.object(id, "/identity", "account");
    for (const AccountSetting& setting : account_settings()) {
        const std::string key(setting.key);
        const double value = f.number(account, "/identity/account", key.c_str());
        if (!setting.accepts(value)) {
            f.fail("/identity/account/" + key, std::string(setting.rule), describe_value(account[key]));
        }
        run.account.*(setting.field) = value;
    }
    const std::string mode = f.text(account, "/identity/account", "margin_mode");
    const std::optional<MarginMode> margin = parse_margin_mode(mode);
    if (!margin) {
        f.fail("/identity/account/margin_mode", "\"cross\" or \"isolated\"", describe_value(account["margin_mode"]));
    }
    run.account.margin_mode = *margin;
    run.rank_by = f.text(id, "/identity", "rank_by");
    run.min_trades = static_cast<int>(f.integer(id, "/identity", "min_trades", 0, INT32_MAX));  // Note [Rows with few trades]
    run.top = f.integer(id, "/identity", "top", 1, INT64_MAX);
    run.all_rows = f.flag(id, "/identity", "all_rows");
    run.periods = static_cast<int>(f.integer(id, "/identity", "periods", 0, kMaxPeriods));
    run.pbo = f.flag(id, "/identity", "pbo");
    run.walk_forward = f.text(id, "/identity", "walk_forward");
    run.cpcv = f.text(id, "/identity", "cpcv");
    // Note [Reality Check, SPA and StepM]: what --spa asked, which fixes the
    // equity marks the shard carries.
    run.spa = f.text(id, "/identity", "spa");
    run.returns = static_cast<int>(f.integer(id, "/identity", "returns", -1, INT32_MAX));
    run.spa_seed = f.count(id, "/identity", "spa_seed");
    run.spa_size = f.number(id, "/identity", "spa_size");
    if (!run.spa.empty()) {
        std::string why;
        if (!parse_bootstrap(run.spa, &why)) f.fail("/identity/spa", "B or B:L (" + why + ")", describe_value(id["spa"]));
        if (!(run.spa_size > 0.0 && run.spa_size < 1.0)) {
            f.fail("/identity/spa_size", "a number in (0, 1)", describe_value(id["spa_size"]));
        }
    }
    // Note [Equity marks at UTC days]: present only when daily, with
    // --returns not given as M, and then 1 to the window's bars days.
    if (id.contains("return_days")) {
        run.return_days = static_cast<int>(f.integer(id, "/identity", "return_days", 1, std::max(run.bars, 1)));
        if (run.returns != -1) {
            f.fail("/identity/returns", "-1 beside \"return_days\"", describe_value(id["returns"]));
        }
    }
    if (keeps_return_streams(!run.spa.empty(), run.returns, run.return_days > 0) &&
        (run.returns == 0 || run.returns > run.bars)) {
        f.fail("/identity/returns", "-1 or 1.." + std::to_string(run.bars) + " (the window's bars)",
               describe_value(id["returns"]));
    }
    // Note [Buy-and-hold benchmark]: present only for hold, with --spa, and
    // then with one finite positive mark per part.
    if (id.contains("spa_benchmark")) {
        run.spa_benchmark = f.text(id, "/identity", "spa_benchmark");
        if (run.spa_benchmark != "hold" || run.spa.empty()) {
            f.fail("/identity/spa_benchmark", "\"hold\" beside --spa", describe_value(id["spa_benchmark"]));
        }
        const json& marks = f.member(id, "/identity", "benchmark_marks");
        const std::size_t parts = static_cast<std::size_t>(return_parts_of(run));
        if (!marks.is_array() || marks.size() != parts) {
            f.fail("/identity/benchmark_marks", "an array of " + std::to_string(parts) + " equity marks",
                   describe_value(marks));
        }
        for (std::size_t i = 0; i < parts; ++i) {
            if (!marks[i].is_number() || !(marks[i].get<double>() > 0.0) || !std::isfinite(marks[i].get<double>())) {
                f.fail("/identity/benchmark_marks/" + std::to_string(i), "a finite positive number",
                       describe_value(marks[i]));
            }
            run.benchmark_marks.push_back(marks[i].get<double>());
        }
    } else if (id.contains("benchmark_marks")) {
        f.fail("/identity/benchmark_marks", "none without \"spa_benchmark\"", describe_value(id["benchmark_marks"]));
    }
    const std::uint64_t shards = f.count(id, "/identity", "shards", kMaxShards);

    // Which shard, and its part of the run order (Note [Shards]).
    const json& part = f.object(doc, "", "shard");
    shard.range.count = f.count(part, "/shard", "count", kMaxShards);
    shard.range.index = f.count(part, "/shard", "index");
    shard.first_ordinal = f.count(part, "/shard", "first_ordinal");
    shard.end_ordinal = f.count(part, "/shard", "end_ordinal");
    const std::string which = "shard " + std::to_string(shard.range.index) + "/" + std::to_string(shard.range.count);
    if (shard.range.count == 0 || shard.range.index >= shard.range.count) {
        f.inconsistent("its header names " + which + ": expected 0 <= index < count");
    }
    if (shards != shard.range.count) {
        f.inconsistent("its header names " + which + " of a run its identity cuts into " + std::to_string(shards) +
                       " shards");
    }
    const auto [first, end] = shard_ordinals(shard.range, run.combinations);
    if (shard.first_ordinal != first || shard.end_ordinal != end) {
        f.inconsistent("its header says " + which + " holds combinations " + std::to_string(shard.first_ordinal) + ".." +
                       std::to_string(shard.end_ordinal) + "; of " + std::to_string(run.combinations) +
                       " combinations it holds " + std::to_string(first) + ".." + std::to_string(end));
    }
    const std::uint64_t span = end - first;

    // Where the strategy and grid came from (Note [Inputs of a run]): kept as
    // written for merge to read as a run's inputs; the keys it loads the
    // strategy and grid from are checked here, so a bad one is named as the
    // shard's.
    const json& inputs = f.object(doc, "", "inputs");
    f.text(inputs, "/inputs", "strategy");
    for (const char* key : {"spec", "grid", "grid_text", "grid_text_origin"}) {
        if (inputs.contains(key)) f.text(inputs, "/inputs", key);
    }
    if (inputs.contains("param")) {
        const json& param = inputs["param"];
        if (!param.is_array()) f.fail("/inputs/param", "an array of strings", describe_value(param));
        for (std::size_t i = 0; i < param.size(); ++i) {
            if (!param[i].is_string()) {
                f.fail(json_pointer_child("/inputs/param", i), "a string", describe_value(param[i]));
            }
        }
    }

    // The shard's own sweep, and what the merge takes from the identity.
    const json& s = f.object(doc, "", "summary");
    RunSummary& summary = shard.summary;
    summary.spec_origin = f.text(s, "/summary", "spec");
    summary.grid_origin = f.text(s, "/summary", "grid");
    summary.market = f.text(s, "/summary", "market");
    summary.timestamps = f.text(s, "/summary", "timestamps");
    summary.funding = f.text(s, "/summary", "funding");
    summary.backend = f.text(s, "/summary", "backend");
    summary.synthetic_market = f.flag(s, "/summary", "synthetic_market");  // Note [Synthetic market said plainly]
    summary.instruments = f.object(s, "/summary", "instruments");          // Note [Instruments stated]
    const json& times = f.object(s, "/summary", "window");
    summary.window.first_time = f.text(times, "/summary/window", "first_time");
    summary.window.last_time = f.text(times, "/summary/window", "last_time");
    summary.window.first_bar = run.first_bar;
    summary.window.n_bars = run.bars;
    summary.invalid_rows = f.count(s, "/summary", "invalid_rows", span);
    summary.cells = f.count(s, "/summary", "cells");
    summary.seconds = f.number(s, "/summary", "seconds");
    if (!(summary.seconds >= 0.0 && summary.seconds <= 1e12)) {
        f.fail("/summary/seconds", "a duration in 0..1e12", describe_value(s["seconds"]));
    }
    summary.combinations = span;
    summary.rank_by = run.rank_by;
    summary.account = run.account;
    summary.inputs = inputs;

    const json& spans = f.member(doc, "", "spans");
    if (!spans.is_array()) f.fail("/spans", "an array", describe_value(spans));
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const json& pair = spans[i];
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string()) {
            f.fail(json_pointer_child("/spans", i), "[first bar time, last bar time]", describe_value(pair));
        }
        shard.spans.emplace_back(pair[0].get<std::string>(), pair[1].get<std::string>());
    }
    if (shard.spans.size() != static_cast<std::size_t>(run.periods)) {
        f.inconsistent("its header has " + std::to_string(shard.spans.size()) + " period spans for the " +
                       std::to_string(run.periods) + " periods of its identity");
    }
    shard.bars_per_year = f.number(doc, "", "bars_per_year");
    if (!(shard.bars_per_year > 0.0 && std::isfinite(shard.bars_per_year))) {
        f.fail("/bars_per_year", "a positive number", describe_value(doc["bars_per_year"]));
    }

    // What the sections must hold: the rows --top or --all-rows kept of the
    // shard's combinations, and each combination's statistics of each
    // period. Counted without overflow: a count no file can hold is refused
    // as a length that differs.
    const std::uint64_t rows = run.all_rows ? span : std::min<std::uint64_t>(span, static_cast<std::uint64_t>(run.top));
    std::uint64_t rows_length = 0;
    std::uint64_t periods_length = 0;
    std::uint64_t outcomes_length = 0;
    std::uint64_t marks_length = 0;
    const auto marks = static_cast<std::uint64_t>(shard.equity_marks_per_combination());
    const bool overflow =
        __builtin_mul_overflow(rows, sizeof(ResultRow), &rows_length) ||
        __builtin_mul_overflow(span, static_cast<std::uint64_t>(run.periods), &periods_length) ||
        __builtin_mul_overflow(periods_length, sizeof(ShardPeriod), &periods_length) ||
        __builtin_mul_overflow(span, sizeof(OutcomeKey), &outcomes_length) ||
        __builtin_mul_overflow(span, marks, &marks_length) ||
        __builtin_mul_overflow(marks_length, sizeof(double), &marks_length);
    if (overflow) {
        f.inconsistent(which + " of " + std::to_string(run.combinations) +
                       " combinations holds more rows or period statistics than any file can");
    }
    const std::string combinations = "its " + which + " has " + std::to_string(span) + " combinations";
    return {{rows_length, combinations + (run.all_rows ? ", each a row (--all-rows)"
                                                       : ", of which --top " + std::to_string(run.top) +
                                                             " keeps at most " + std::to_string(rows))},
            {periods_length, combinations + ", each of " + std::to_string(run.periods) + " periods (--periods): " +
                                 std::to_string(span * static_cast<std::uint64_t>(run.periods))},
            {outcomes_length, combinations + ", each an outcome key"},
            {marks_length, combinations + ", each of " + std::to_string(marks) + " equity marks (--spa, --returns)"}};
}

// Note [Distinct outcomes]: a shard keeps the rows of its best --top
// outcomes, so as many rows as it has distinct outcomes, up to --top
// (--all-rows: every row, which the section's length checked).
void check_kept_rows(const ShardInput& in, const ShardFile& shard) {
    if (shard.run.all_rows) return;
    std::vector<OutcomeKey> keys = shard.outcomes;
    std::sort(keys.begin(), keys.end());
    const auto distinct = static_cast<std::uint64_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
    const std::uint64_t kept = std::min<std::uint64_t>(distinct, static_cast<std::uint64_t>(shard.run.top));
    if (shard.rows.size() != kept) {
        throw in.error("inconsistent-shard", "its rows section holds " + std::to_string(shard.rows.size()) +
                                                 " rows; its " + std::to_string(distinct) +
                                                 " distinct outcomes of which --top " + std::to_string(shard.run.top) +
                                                 " keeps " + std::to_string(kept));
    }
}

ShardFile read_shard(ShardInput& in) {
    char magic[sizeof kMagic] = {};
    if (in.remaining() >= sizeof kMagic) in.read(magic, sizeof magic, "its magic");
    if (std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
        throw in.error("not-a-shard", "not a shard file of btforge sweep --shard (no BTFSHARD header)");
    }
    const auto version = in.number<std::uint32_t>("its format version");
    if (version != kShardFormatVersion) {
        throw in.error("shard-version",
                       "shard format version " + std::to_string(version) + ", this btforge reads version " +
                           std::to_string(kShardFormatVersion) +
                           (version < kShardFormatVersion
                                ? " (an older btforge wrote it): run the shard again with this btforge"
                                : " (a newer btforge wrote it): merge it with that btforge"));
    }

    ShardFile shard;
    const std::uint64_t header_length = section_length(in, "header");
    if (header_length > kMaxJsonDocumentBytes) {
        throw in.error("too-large", "its header section says " + std::to_string(header_length) +
                                        " bytes; a header holds at most " + byte_limit_text(kMaxJsonDocumentBytes));
    }
    std::string header(static_cast<std::size_t>(header_length), '\0');
    read_section(in, "header", header.data(), header_length);
    const ExpectedSections expected = read_header(in, header, shard);

    const auto sized_section = [&in](const std::string& section, const ExpectedSection& want, std::uint64_t item,
                                     const std::string& items, bool at_most) {
        const std::uint64_t length = section_length(in, section);
        if (at_most ? length > want.length || length % item != 0 : length != want.length) {
            throw in.error("inconsistent-shard", "its " + section + " section holds " + std::to_string(length / item) +
                                                     " " + items + " (" + std::to_string(length) + " bytes); " +
                                                     want.why);
        }
        return length;
    };
    const std::uint64_t rows = sized_section("rows", expected.rows, sizeof(ResultRow), "rows", !shard.run.all_rows);
    shard.rows.resize(static_cast<std::size_t>(rows / sizeof(ResultRow)));
    read_section(in, "rows", shard.rows.data(), rows);
    const std::uint64_t periods =
        sized_section("periods", expected.periods, sizeof(ShardPeriod), "period statistics", false);
    read_periods_section(in, periods, shard.periods);
    const std::uint64_t outcomes =
        sized_section("outcomes", expected.outcomes, sizeof(OutcomeKey), "outcome keys", false);
    shard.outcomes.resize(static_cast<std::size_t>(outcomes / sizeof(OutcomeKey)));
    read_section(in, "outcomes", shard.outcomes.data(), outcomes);
    const std::uint64_t marks = sized_section("marks", expected.marks, sizeof(double), "equity marks", false);
    shard.equity_marks.resize(static_cast<std::size_t>(marks / sizeof(double)));
    read_section(in, "marks", shard.equity_marks.data(), marks);
    check_kept_rows(in, shard);
    in.check_end();
    return shard;
}

}  // namespace

int ShardFile::equity_marks_per_combination() const {
    return keeps_return_streams(!run.spa.empty(), run.returns, run.return_days > 0) ? return_parts_of(run) : 0;
}

std::pair<std::uint64_t, std::uint64_t> shard_ordinals(const ShardRange& range, std::uint64_t combinations) {
    // q per shard and one more for the first r: no product can overflow.
    const std::uint64_t q = combinations / range.count;
    const std::uint64_t rest = combinations % range.count;
    const auto at = [&](std::uint64_t i) { return q * i + std::min(i, rest); };
    return {at(range.index), at(range.index + 1)};
}

namespace {

std::string header_text(const ShardFile& shard) {
    nlohmann::ordered_json header;
    header["format"] = "btforge shard";
    header["row_bytes"] = sizeof(ResultRow);
    header["period_bytes"] = sizeof(ShardPeriod);
    header["identity"] = shard.identity;
    header["shard"] = {{"index", shard.range.index},
                       {"count", shard.range.count},
                       {"first_ordinal", shard.first_ordinal},
                       {"end_ordinal", shard.end_ordinal}};
    header["inputs"] = shard.summary.inputs;
    const RunSummary& s = shard.summary;
    header["summary"] = {{"spec", s.spec_origin}, {"grid", s.grid_origin}, {"market", s.market},
                         {"timestamps", s.timestamps}, {"funding", s.funding}, {"backend", s.backend},
                         {"synthetic_market", s.synthetic_market}, {"instruments", s.instruments},
                         {"window", {{"first_time", s.window.first_time}, {"last_time", s.window.last_time}}},
                         {"invalid_rows", s.invalid_rows}, {"cells", s.cells}, {"seconds", s.seconds}};
    nlohmann::ordered_json spans = nlohmann::ordered_json::array();
    for (const auto& [first, last] : shard.spans) spans.push_back({first, last});
    header["spans"] = spans;
    header["bars_per_year"] = shard.bars_per_year;
    return header.dump();
}

}  // namespace

ShardPeriod shard_period(const PeriodStatistics& p) {
    ShardPeriod s;
    s.return_sum = p.return_sum;
    s.return_sum_squares = p.return_sum_squares;
    s.downside_sum_squares = p.downside_sum_squares;
    s.return_sum_cubes = p.return_sum_cubes;
    s.return_sum_fourths = p.return_sum_fourths;
    s.start_equity = p.start_equity;
    s.end_equity = p.end_equity;
    s.bars = p.bars;
    s.trades = p.trades;
    return s;
}

PeriodStatistics period_from_shard(const ShardPeriod& s) {
    const double absent = std::numeric_limits<double>::quiet_NaN();
    PeriodStatistics p;
    p.return_sum = s.return_sum;
    p.return_sum_squares = s.return_sum_squares;
    p.downside_sum_squares = s.downside_sum_squares;
    p.return_sum_cubes = s.return_sum_cubes;
    p.return_sum_fourths = s.return_sum_fourths;
    p.start_equity = s.start_equity;
    p.end_equity = s.end_equity;
    p.max_drawdown = absent;
    p.gross_profit = absent;
    p.gross_loss = absent;
    p.fees = absent;
    p.funding = absent;
    p.bars = s.bars;
    p.trades = s.trades;
    p.wins = -1;
    p.reserved = 0;
    return p;
}

namespace {

// Note [What a shard's periods carry]: the periods section written in
// pieces, each record narrowed, the digest over the bytes as they go.
void write_periods_section(std::ostream& out, const std::vector<PeriodStatistics>& periods) {
    const std::uint64_t bytes = periods.size() * sizeof(ShardPeriod);
    put(out, bytes);
    std::vector<ShardPeriod> piece(std::min(periods.size(), kPeriodPiece));
    Sha256 digest;
    for (std::size_t done = 0; done < periods.size();) {
        const std::size_t n = std::min(kPeriodPiece, periods.size() - done);
        for (std::size_t i = 0; i < n; ++i) piece[i] = shard_period(periods[done + i]);
        digest.update(piece.data(), n * sizeof(ShardPeriod));
        out.write(reinterpret_cast<const char*>(piece.data()), static_cast<std::streamsize>(n * sizeof(ShardPeriod)));
        done += n;
    }
    put_digest(out, digest);
}

}  // namespace

void write_shard_file(std::ostream& out, const ShardFile& shard) {
    const std::string text = header_text(shard);
    out.write(kMagic, sizeof kMagic);
    put(out, kShardFormatVersion);
    write_section(out, text.data(), text.size());
    write_section(out, shard.rows.data(), shard.rows.size() * sizeof(ResultRow));
    write_periods_section(out, shard.periods);
    write_section(out, shard.outcomes.data(), shard.outcomes.size() * sizeof(OutcomeKey));
    write_section(out, shard.equity_marks.data(), shard.equity_marks.size() * sizeof(double));
}

namespace {

// Appends what is written to a string reserved beforehand: a shard's bytes
// built in one allocation (an ostringstream grows by copies, about twice the
// bytes of a shard of a million combinations' period statistics).
class AppendToString : public std::streambuf {
public:
    explicit AppendToString(std::string& text) : text_(text) {}

protected:
    std::streamsize xsputn(const char* data, std::streamsize count) override {
        text_.append(data, static_cast<std::size_t>(count));
        return count;
    }
    int_type overflow(int_type c) override {
        if (!traits_type::eq_int_type(c, traits_type::eof())) text_.push_back(traits_type::to_char_type(c));
        return traits_type::not_eof(c);
    }

private:
    std::string& text_;
};

}  // namespace

std::string shard_bytes(const ShardFile& shard) {
    std::string bytes;
    // The sections' data and framing; the header (a few KB) may add a growth.
    bytes.reserve(shard.rows.size() * sizeof(ResultRow) + shard.periods.size() * sizeof(ShardPeriod) +
                  shard.outcomes.size() * sizeof(OutcomeKey) + shard.equity_marks.size() * sizeof(double) +
                  (std::size_t{1} << 16));
    AppendToString sink(bytes);
    std::ostream out(&sink);
    write_shard_file(out, shard);
    out.flush();
    return bytes;
}

ShardFile read_shard_file(const std::filesystem::path& file) {
    // Note [Reading input files]: a regular file, whose size bounds every
    // count the reader believes.
    try {
        InputFile in(file, "shard file", InputStreaming::refused);
        FileShardInput input(file, in);
        return read_shard(input);
    } catch (const InputFileError& e) {
        throw DataError(file.string(), 0, 0, e.rule(), e.message());
    }
}

ShardFile read_shard_bytes(const std::string& name, std::string_view bytes) {
    BytesShardInput input(name, bytes);
    return read_shard(input);
}

ShardFile shard_in_memory(const std::string& name, ShardFile shard) {
    // Note [Shards between ranks]: the header as written and read by every
    // shard file (its fields typed and checked, ShardRun derived), the
    // sections kept where they are; their sizes are checked as a file's.
    const std::string text = header_text(shard);
    BytesShardInput input(name, text);
    ShardFile read;
    const ExpectedSections expected = read_header(input, text, read);
    const std::uint64_t row_bytes = shard.rows.size() * sizeof(ResultRow);
    if ((read.run.all_rows ? row_bytes != expected.rows.length : row_bytes > expected.rows.length) ||
        shard.periods.size() * sizeof(ShardPeriod) != expected.periods.length ||
        shard.outcomes.size() * sizeof(OutcomeKey) != expected.outcomes.length ||
        shard.equity_marks.size() * sizeof(double) != expected.marks.length) {
        throw input.error("inconsistent-shard", "it holds " + std::to_string(shard.rows.size()) + " rows, " +
                                                    std::to_string(shard.periods.size()) + " period statistics, " +
                                                    std::to_string(shard.outcomes.size()) + " outcome keys and " +
                                                    std::to_string(shard.equity_marks.size()) + " equity marks; " +
                                                    expected.rows.why + "; " + expected.periods.why + "; " +
                                                    expected.outcomes.why + "; " + expected.marks.why);
    }
    read.rows = std::move(shard.rows);
    read.periods = std::move(shard.periods);
    read.outcomes = std::move(shard.outcomes);
    read.equity_marks = std::move(shard.equity_marks);
    check_kept_rows(input, read);
    // What a shard carries, as read_shard_bytes would hand it over.
    for (PeriodStatistics& p : read.periods) p = period_from_shard(shard_period(p));
    return read;
}

std::string identity_difference(const json& a, const json& b) {
    for (const auto& [key, value] : a.items()) {
        if (!b.contains(key) || b[key] != value) return key;
    }
    for (const auto& [key, value] : b.items()) {
        if (!a.contains(key)) return key;
    }
    return "";
}

std::string describe_identity_difference(const json& have, const json& want) {
    const std::string key = identity_difference(want, have);
    const auto value = [&key](const json& identity) {
        return identity.contains(key) ? printable(identity[key].dump(-1, ' ', true, json::error_handler_t::replace), 160)
                                      : std::string("absent");
    };
    return "its " + printable(key) + " is " + value(have) + ", not " + value(want);
}

std::vector<NamedShard> check_shards(std::vector<NamedShard> shards) {
    if (shards.empty()) throw std::runtime_error("no shards to merge");
    const json& want = shards.front().content.identity;
    for (const NamedShard& shard : shards) {
        if (shard.content.identity != want) {
            throw std::runtime_error(shard.name + " is a shard of another run than " + shards.front().name + ": " +
                                     describe_identity_difference(shard.content.identity, want));
        }
    }
    std::stable_sort(shards.begin(), shards.end(), [](const NamedShard& a, const NamedShard& b) {
        return a.content.range.index < b.content.range.index;
    });
    // Equal identities: one count, one combination count, so each index has
    // its own ordinals (read_shard_bytes checked them) and a set with every
    // index once covers the run order once.
    const std::uint64_t count = shards.front().content.range.count;
    for (std::size_t i = 1; i < shards.size(); ++i) {
        if (shards[i].content.range.index == shards[i - 1].content.range.index) {
            throw std::runtime_error("shard " + std::to_string(shards[i].content.range.index) + "/" +
                                     std::to_string(count) + " is given twice: " + shards[i - 1].name + " and " +
                                     shards[i].name);
        }
    }
    if (shards.size() != count) {
        // The first few missing indices, found among at most as many as
        // there are shards given (count is at most kMaxShards anyway).
        constexpr std::size_t kNamed = 5;
        std::string named;
        std::size_t listed = 0;
        std::size_t given = 0;
        for (std::uint64_t i = 0; i < count && listed < kNamed; ++i) {
            if (given < shards.size() && shards[given].content.range.index == i) {
                ++given;
                continue;
            }
            named += (listed++ == 0 ? "" : ", ") + std::to_string(i) + "/" + std::to_string(count);
        }
        const std::uint64_t missing = count - shards.size();
        throw std::runtime_error("the run has " + std::to_string(count) + " shards; " + std::to_string(missing) +
                                 " missing: " + named + (missing > listed ? ", ..." : ""));
    }
    return shards;
}

std::string run_grid_sha256(const Grid& grid) {
    Sha256 digest;
    for (const GridAxis& axis : grid.axes) {
        digest.update(&axis.parameter, sizeof axis.parameter);
        digest.update(axis.values.data(), axis.values.size() * sizeof(double));
        if (axis.when) {
            // Note [Conditional axes]: a condition changes which combinations
            // run (an axis without one hashes as it always did).
            static constexpr char kWhen[] = "when";
            digest.update(kWhen, sizeof kWhen);
            digest.update(&axis.when->parameter, sizeof axis.when->parameter);
            digest.update(axis.when->values.data(), axis.when->values.size() * sizeof(double));
        }
    }
    if (grid.random) digest.update(&*grid.random, sizeof(RandomSampling));
    return digest.hex();
}

void check_shards_ran(const std::vector<NamedShard>& shards, std::string_view spec_text, const std::string& spec_origin,
                      const Grid& grid, const CombinationSpace& space) {
    const ShardRun& run = shards.front().content.run;
    if (sha256_hex(spec_text) != run.spec_sha256) {
        throw std::runtime_error("the spec " + spec_origin + " is not the one the shards ran (it changed since: " +
                                 "its SHA-256 is not their identity's spec_sha256)");
    }
    // Rows are labelled with the grid's values: a grid edited since the
    // shards ran (same count, other values) would relabel every row.
    if (run_grid_sha256(grid) != run.grid_sha256) {
        throw std::runtime_error("the grid " + grid.origin + " is not the one the shards ran: its values or its " +
                                 "sampling or conditions changed since (its SHA-256 is not their identity's grid_sha256), and " +
                                 "the rows would be labelled with other values; restore the grid they ran, or run " +
                                 "the shards again");
    }
    if (space.count() != run.combinations) {
        throw std::runtime_error("the grid " + grid.origin + " has " + std::to_string(space.count()) +
                                 " combinations; the shards ran " + std::to_string(run.combinations));
    }
    // Each row one of its shard's own combinations, once: the shards' parts
    // are disjoint (check_shards), so no id is in two shards either.
    std::vector<std::uint64_t> ids;
    std::vector<OutcomeKey> keys;
    for (const NamedShard& shard : shards) {
        const ShardFile& part = shard.content;
        ids.clear();
        for (std::size_t k = 0; k < part.rows.size(); ++k) {
            const std::uint64_t id = part.rows[k].combination_id;
            const std::optional<std::uint64_t> ordinal = space.ordinal_of(id);
            if (!ordinal || *ordinal < part.first_ordinal || *ordinal >= part.end_ordinal) {
                throw std::runtime_error(shard.name + ": rows section: row " + std::to_string(k) +
                                         " has combination id " + std::to_string(id) +
                                         ", which is not one of the shard's combinations (ordinals " +
                                         std::to_string(part.first_ordinal) + ".." + std::to_string(part.end_ordinal) +
                                         " of the run order)");
            }
            ids.push_back(id);
            if (!part.run.all_rows) keys.push_back(part.outcomes[*ordinal - part.first_ordinal]);
        }
        std::sort(ids.begin(), ids.end());
        const auto repeated = std::adjacent_find(ids.begin(), ids.end());
        if (repeated != ids.end()) {
            throw std::runtime_error(shard.name + ": rows section: combination id " + std::to_string(*repeated) +
                                     " has more than one row");
        }
        // Note [Distinct outcomes]: the top rows are one per outcome.
        std::sort(keys.begin(), keys.end());
        if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) {
            throw std::runtime_error(shard.name + ": rows section: two of its top rows have one outcome (their " +
                                     "keys in its outcomes section are equal)");
        }
        keys.clear();
    }
}

}  // namespace btforge
