#include "host/report/shard_file.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "host/data/data_error.h"

namespace btforge {

namespace {

constexpr char kMagic[8] = {'B', 'T', 'F', 'S', 'H', 'A', 'R', 'D'};
constexpr std::uint32_t kVersion = 1;

template <typename T>
void put(std::ostream& out, const T& value) {
    out.write(reinterpret_cast<const char*>(&value), sizeof value);
}

}  // namespace

void write_shard_file(std::ostream& out, const ShardFile& shard) {
    nlohmann::ordered_json header = shard.header;
    header["row_bytes"] = sizeof(ResultRow);
    header["period_bytes"] = sizeof(PeriodStatistics);
    header["rows"] = shard.rows.size();
    header["period_statistics"] = shard.periods.size();
    const std::string text = header.dump();
    out.write(kMagic, sizeof kMagic);
    put(out, kVersion);
    put(out, static_cast<std::uint64_t>(text.size()));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.write(reinterpret_cast<const char*>(shard.rows.data()),
              static_cast<std::streamsize>(shard.rows.size() * sizeof(ResultRow)));
    out.write(reinterpret_cast<const char*>(shard.periods.data()),
              static_cast<std::streamsize>(shard.periods.size() * sizeof(PeriodStatistics)));
}

std::string shard_bytes(const ShardFile& shard) {
    std::ostringstream out;
    write_shard_file(out, shard);
    return std::move(out).str();
}

std::string identity_difference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
    for (const auto& [key, value] : a.items()) {
        if (!b.contains(key) || b[key] != value) return key;
    }
    for (const auto& [key, value] : b.items()) {
        if (!a.contains(key)) return key;
    }
    return "";
}

ShardFile read_shard_file(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw DataError(file.string(), 0, 0, "cannot-read", "cannot open the shard file");
    return read_shard_bytes(file.string(), std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
}

ShardFile read_shard_bytes(const std::string& name, const std::string& bytes) {
    const auto fail = [&name](const std::string& rule, const std::string& message) {
        return DataError(name, 0, 0, rule, message);
    };
    const std::size_t fixed = sizeof kMagic + sizeof(std::uint32_t) + sizeof(std::uint64_t);
    if (bytes.size() < fixed || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
        throw fail("not-a-shard", "not a shard file of btforge sweep --shard (no BTFSHARD header)");
    }
    std::uint32_t version = 0;
    std::uint64_t header_bytes = 0;
    std::memcpy(&version, bytes.data() + sizeof kMagic, sizeof version);
    std::memcpy(&header_bytes, bytes.data() + sizeof kMagic + sizeof version, sizeof header_bytes);
    if (version != kVersion) {
        throw fail("shard-version", "shard format version " + std::to_string(version) + ", this btforge reads " +
                                        std::to_string(kVersion));
    }
    if (header_bytes > bytes.size() - fixed) throw fail("truncated-shard", "the file ends inside its header");
    ShardFile shard;
    try {
        shard.header = nlohmann::ordered_json::parse(bytes.substr(fixed, header_bytes));
    } catch (const nlohmann::json::exception&) {
        throw fail("not-a-shard", "its header is not JSON");
    }
    const auto number = [&](const char* key) -> std::uint64_t {
        if (!shard.header.contains(key) || !shard.header[key].is_number_unsigned()) {
            throw fail("not-a-shard", std::string("its header has no ") + key);
        }
        return shard.header[key].get<std::uint64_t>();
    };
    if (number("row_bytes") != sizeof(ResultRow) || number("period_bytes") != sizeof(PeriodStatistics)) {
        throw fail("shard-layout", "written by a build whose rows or period statistics have another size (rows " +
                                       std::to_string(number("row_bytes")) + " bytes, here " +
                                       std::to_string(sizeof(ResultRow)) + ")");
    }
    const std::uint64_t rows = number("rows");
    const std::uint64_t periods = number("period_statistics");
    const std::size_t body = bytes.size() - fixed - header_bytes;
    if (rows > body / sizeof(ResultRow) ||
        body != rows * sizeof(ResultRow) + periods * sizeof(PeriodStatistics)) {
        throw fail("truncated-shard", "its header counts " + std::to_string(rows) + " rows and " +
                                          std::to_string(periods) + " period statistics, its body holds " +
                                          std::to_string(body) + " bytes");
    }
    const char* at = bytes.data() + fixed + header_bytes;
    shard.rows.resize(rows);
    std::memcpy(shard.rows.data(), at, rows * sizeof(ResultRow));
    shard.periods.resize(periods);
    std::memcpy(shard.periods.data(), at + rows * sizeof(ResultRow), periods * sizeof(PeriodStatistics));
    return shard;
}

}  // namespace btforge
