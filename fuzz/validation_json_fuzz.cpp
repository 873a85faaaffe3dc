// Fuzz target: a sweep's validation JSON as `btforge replay --walk-forward`
// reads it back (host/report/walk_forward_file.h, Note [Reading a
// validation file]), the one C++ reader of that file. The seeds are the
// validation files of small real sweeps. Any input may be refused with a
// std::runtime_error naming the file; anything else escaping (a library's
// exception), a crash, a leak or undefined behaviour (a number converted out
// of range) is a bug.
//
// Byte mutations of a JSON document mostly break its syntax, so they test
// the parser, rarely the reader: a structured mutator does half of the
// mutations instead. It parses the input (when it is JSON), puts a hostile
// value in place of one of its values (another type, a number out of every
// range, a copy of another value) or removes a member, and writes it back.
// The old reader, given these inputs, let nlohmann's type errors escape.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/report/walk_forward_file.h"

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

namespace {

void collect(nlohmann::json& value, std::vector<nlohmann::json*>& out) {
    out.push_back(&value);
    if (value.is_structured()) {
        for (nlohmann::json& child : value) collect(child, out);
    }
}

nlohmann::json hostile(std::minstd_rand& random, const std::vector<nlohmann::json*>& nodes) {
    switch (random() % 14) {
        case 0: return nullptr;
        case 1: return true;
        case 2: return -1;
        case 3: return 0;
        case 4: return 1e300;
        case 5: return 4.7;
        case 6: return 18446744073709551615ull;
        case 7: return static_cast<std::int64_t>(-9223372036854775807LL - 1);
        case 8: return 2147483648ll;
        case 9: return "x";
        case 10: return nlohmann::json::array();
        case 11: return nlohmann::json::object();
        case 12: return static_cast<int>(random() % 40) - 4;  // near the periods and ids the file uses
        default: return *nodes[random() % nodes.size()];      // a value of another place
    }
}

}  // namespace

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
    std::minstd_rand random(seed);
    if (random() % 2 == 0) return LLVMFuzzerMutate(data, size, max_size);
    nlohmann::json doc = nlohmann::json::parse(data, data + size, nullptr, false);
    if (doc.is_discarded()) return LLVMFuzzerMutate(data, size, max_size);
    std::vector<nlohmann::json*> nodes;
    collect(doc, nodes);
    nlohmann::json& target = *nodes[random() % nodes.size()];
    if (target.is_object() && !target.empty() && random() % 3 == 0) {
        auto member = target.begin();
        std::advance(member, static_cast<long>(random() % target.size()));
        target.erase(member);
    } else if (target.is_array() && random() % 3 == 0) {
        nlohmann::json element = target.empty() ? hostile(random, nodes) : target[random() % target.size()];
        target.push_back(std::move(element));
    } else {
        target = hostile(random, nodes);
    }
    const std::string text = doc.dump(random() % 2 == 0 ? 2 : -1);
    if (text.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
    std::memcpy(data, text.data(), text.size());
    return text.size();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)btforge::parse_walk_forward_file(text, "fuzz.validation.json");
    } catch (const std::runtime_error&) {
    }
    return 0;
}
